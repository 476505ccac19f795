import { describe, expect, it } from "vitest";
import { formatRef, isValidRef, parseRef, parseVersion } from "../../src/model/ref.js";

describe("parseRef", () => {
  const valid: readonly [string, string, string, boolean][] = [
    ["agnt-verify@1.0.0", "agnt-verify", "1.0.0", false],
    ["prm:research@2.0.0", "prm:research", "2.0.0", false],
    ["tool:browser-search@1.2.0", "tool:browser-search", "1.2.0", false],
    ["a.b_c:d-e@10.20.30", "a.b_c:d-e", "10.20.30", false],
    ["tool:x@1.0.0-rc.1", "tool:x", "1.0.0-rc.1", false],
    ["tool:x@1.0.0+build.7", "tool:x", "1.0.0+build.7", false],
    ["tool:x@1.0.0-beta.2+exp.sha.5114f85", "tool:x", "1.0.0-beta.2+exp.sha.5114f85", false],
    ["prm:research@2", "prm:research", "2.0.0", true],
    ["agnt-verify@1.0", "agnt-verify", "1.0.0", true],
    ["agnt-verify@0", "agnt-verify", "0.0.0", true],
  ];
  it.each(valid)("%s → %s @ %s (abbreviated %s)", (text, id, version, abbreviated) => {
    expect(parseRef(text)).toEqual({
      ok: true,
      ref: { id, version },
      abbreviated,
      canonical: `${id}@${version}`,
    });
    expect(isValidRef(text)).toBe(true);
  });

  const invalid: readonly [unknown, string][] = [
    [42, "not-a-string"],
    [null, "not-a-string"],
    ["browser_search", "missing-version"],
    ["", "missing-version"],
    ["@1.0.0", "empty-id"],
    ["1tool@1.0.0", "invalid-id"],
    ["tool x@1.0.0", "invalid-id"],
    ["tool:x@", "empty-version"],
    ["tool:x@latest", "tag"],
    ["tool:x@stable", "tag"],
    ["tool:x@^1.0.0", "range"],
    ["tool:x@~1.2.0", "range"],
    ["tool:x@>=1.0.0", "range"],
    ["tool:x@1.x", "range"],
    ["tool:x@*", "range"],
    ["tool:x@1.0.0 || 2.0.0", "range"],
    ["tool:x@v1.0.0", "invalid-version"],
    ["tool:x@01.0.0", "invalid-version"],
    ["tool:x@1.0.0.0", "invalid-version"],
    ["tool:x@" + "9".repeat(300), "invalid-version"],
  ];
  it.each(invalid)("%j is rejected as %s", (text, reason) => {
    const result = parseRef(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe(reason);
      expect(result.message.length).toBeGreaterThan(10);
    }
    expect(isValidRef(text)).toBe(false);
  });

  it("splits on the last @ so ids may contain @-free punctuation", () => {
    expect(parseRef("a@b@1.0.0")).toMatchObject({ ok: false, reason: "invalid-id" });
  });

  it("stays fast on adversarial input", () => {
    const long = "a".repeat(1_000_000) + "@" + "1.".repeat(100_000);
    expect(parseRef(long)).toMatchObject({ ok: false });
  });
});

describe("parseVersion", () => {
  it.each([
    ["2", "2.0.0", true],
    ["2.1", "2.1.0", true],
    ["2.1.3", "2.1.3", false],
  ] as const)("%s → %s", (text, version, abbreviated) => {
    expect(parseVersion(text)).toEqual({ ok: true, version, abbreviated });
  });

  // semver trims: "1.0.0 " read as exact filed a second document beside the reviewed one.
  it.each([
    ["1.0.0 ", "'1.0.0 ' holds white space, which no semantic version has"],
    [" 1.0.0", "' 1.0.0' holds white space, which no semantic version has"],
    ["1.0.0\n", "'1.0.0\\n' holds white space, which no semantic version has"],
    ["1.0.0\u00a0", "'1.0.0\u00a0' holds white space, which no semantic version has"],
    ["1.0.0\ufeff", "'1.0.0\\u{FEFF}' holds white space, which no semantic version has"],
    ["2 ", "'2 ' holds white space, which no semantic version has"],
  ])("%j is no version", (text, message) => {
    expect(parseVersion(text)).toEqual({ ok: false, reason: "invalid-version", message });
    expect(isValidRef(`agnt-payer@${text}`)).toBe(false);
  });
});

describe("formatRef", () => {
  it("joins id and version", () => {
    expect(formatRef({ id: "tool:a", version: "1.2.3" })).toBe("tool:a@1.2.3");
  });
});
