/** `--trusted-keys role=path`: which text binds a role, and which is a path. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/io.js";
import { parseTrustedSpec } from "../../src/cli/trusted-keys.js";
import { tempDir } from "../temp.js";

describe("parseTrustedSpec", () => {
  it.each([
    ["risk-officer=keys/a.pub", { path: "keys/a.pub", role: "risk-officer" }],
    // A role approve takes in any script binds too, decomposed (NFD) or not.
    ["Kreditprüfer=keys/a.pub", { path: "keys/a.pub", role: "Kreditprüfer" }],
    ["Kreditpru\u0308fer=keys/a.pub", { path: "keys/a.pub", role: "Kreditpru\u0308fer" }],
    ["審査役=keys/a.pub", { path: "keys/a.pub", role: "審査役" }],
    ["keys/a.pub", { path: "keys/a.pub" }],
    ["a/b=c.pub", { path: "a/b=c.pub" }],
  ])("%s", (value, expected) => {
    expect(parseTrustedSpec(value)).toEqual(expected);
  });

  it("says why a role with a space cannot be bound, when the key is there", () => {
    const dir = tempDir("agentflow-trusted-spec-");
    const key = join(dir, "a.pub");
    writeFileSync(key, "");
    expect(() => parseTrustedSpec(`risk officer=${key}`)).toThrow(
      new UsageError(
        `--trusted-keys 'risk officer=${key}': 'risk officer' cannot be bound as role=path: a role there is letters, digits, '.', '_', ':' and '-'`,
      ),
    );
  });
});
