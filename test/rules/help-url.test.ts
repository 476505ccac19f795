/**
 * A rule's help URL, which SARIF, JUnit, the bpmnlint plugin and the CLI all link to: one
 * builder in the rule kit, a valid URI for any code (codes of plugins come from users).
 */
import { describe, expect, it } from "vitest";
import * as report from "../../src/report/index.js";
import { DOCS_BASE_URL, ruleHelpUri } from "../../src/rules/index.js";
import { encodeUriSegment } from "../../src/rules/internal.js";

describe("ruleHelpUri", () => {
  it("links a code to its page under the published docs", () => {
    expect(DOCS_BASE_URL).toBe("https://agentflow.dev/docs/rules/");
    expect(ruleHelpUri("RETRY_WITHOUT_MAX")).toBe(
      "https://agentflow.dev/docs/rules/RETRY_WITHOUT_MAX.md",
    );
  });

  it("uses another base when given one", () => {
    expect(ruleHelpUri("A B", "https://d/")).toBe("https://d/A%20B.md");
  });

  it.each([
    ["acme/no-pii", "acme%2Fno-pii"],
    ["é?#", "%C3%A9%3F%23"],
    ["x\uD800y", "x%EF%BF%BDy"],
    ["\uDC00", "%EF%BF%BD"],
    ["\uD83D\uDE00", "%F0%9F%98%80"],
  ])("encodes %j as one segment, never throwing", (code, segment) => {
    expect(encodeUriSegment(code)).toBe(segment);
    expect(ruleHelpUri(code, "https://d/")).toBe(`https://d/${segment}.md`);
  });

  it("is the builder agentflow/report exports too", () => {
    expect(report.ruleHelpUri).toBe(ruleHelpUri);
    expect(report.DOCS_BASE_URL).toBe(DOCS_BASE_URL);
  });
});
