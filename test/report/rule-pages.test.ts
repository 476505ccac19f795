/**
 * The organisation's rule pages (`agentflow rules -o`): a plugin's or a pack's text is its
 * author's, and the pages are rendered where others read them, so none of it adds HTML, a heading,
 * a table cell, a link of its own or ends a code block; `docs` is a link only to an `http(s)` or a
 * relative address.
 */
import { describe, expect, it } from "vitest";
import type { RuleSource } from "../../src/report/rule-pages.js";
import { extensionIndexMarkdown, rulePageMarkdown } from "../../src/report/rule-pages.js";
import type { RuleMeta } from "../../src/rules/index.js";

const XSS = "a | b <img src=x onerror=alert(1)> [x](javascript:alert(1))";
const XSS_SHOWN = "a \\| b \\<img src=x onerror=alert(1)\\> \\[x\\](javascript:alert(1))";

function source(meta: Partial<RuleMeta>, spec?: RuleSource["rules"][number]["spec"]): RuleSource {
  const full: RuleMeta = {
    code: "bank/r1",
    defaultSeverity: "error",
    description: "plain",
    docs: "https://example.com/r1",
    messages: { default: "m" },
    scope: "process",
    ...meta,
  };
  return {
    kind: "policy",
    name: "bank",
    version: "1.0.0",
    sha256: "sha256:ab",
    rules: [spec === undefined ? { meta: full } : { meta: full, spec }],
  };
}

const page = (s: RuleSource): string[] => {
  const [rule] = s.rules;
  if (rule === undefined) throw new Error("no rule");
  return rulePageMarkdown(s, rule).split("\n");
};

describe("the rule index", () => {
  it.each<[string, Partial<RuleMeta>, string]>([
    ["a plain rule", {}, "| [bank/r1](bank/r1.md) | error | process | plain |"],
    [
      "HTML, a pipe and a javascript: link in the description",
      { description: XSS },
      `| [bank/r1](bank/r1.md) | error | process | ${XSS_SHOWN} |`,
    ],
    [
      "a newline and an escape sequence in the description",
      { description: "x\n## forged\u001b[2K" },
      "| [bank/r1](bank/r1.md) | error | process | x\\\\n\\#\\# forged\\\\u{1B}\\[2K |",
    ],
    [
      "a plugin code with a space and brackets",
      { code: "acme/A B]" },
      "| [acme/A B\\]](acme/A%20B%5D.md) | error | process | plain |",
    ],
  ])("shows %s as text", (_, meta, row) => {
    const lines = extensionIndexMarkdown([source(meta)]).split("\n");
    expect(lines.filter((l) => l.startsWith("| ["))).toEqual([row]);
  });
});

describe("a rule's page", () => {
  it.each<[string, Partial<RuleMeta>, string]>([
    ["the description", { description: XSS }, XSS_SHOWN],
    ["a message", { messages: { default: XSS } }, `| default | ${XSS_SHOWN} |`],
    ["a message id", { messages: { default: "m", "<b>": "n" } }, "| \\<b\\> | n |"],
  ])("escapes %s", (_, meta, shown) => {
    const lines = page(source(meta));
    expect(lines).toContain(shown);
    expect(lines.join("\n")).not.toMatch(/(?<!\\)(?:<img|<b>|\]\(javascript:)/);
  });

  it("writes the remediation on its one line, escaped", () => {
    expect(page(source({ remediation: `${XSS}\n# Allowed` })).slice(-2)).toEqual([
      `${XSS_SHOWN}\\\\n\\# Allowed`,
      "",
    ]);
  });

  it.each<[string, string]>([
    [
      "https://example.com/r1",
      "- documentation: [https\\://example.com/r1](<https://example.com/r1>)",
    ],
    ["bank.policy.yaml#r1", "- documentation: [bank.policy.yaml\\#r1](<bank.policy.yaml#r1>)"],
    ["javascript:alert(1)", "- documentation: javascript:alert(1)"],
    ["data:text/html,<b>", "- documentation: data:text/html,\\<b\\>"],
    ["https://x.test/a b", "- documentation: https\\://x.test/a b"],
  ])("links docs %j only when it is http(s) or relative", (docs, line) => {
    expect(page(source({ docs }))).toContain(line);
  });

  it("fences a when that holds backticks longer than any run of them", () => {
    const lines = page(
      source({}, { id: "r1", severity: "error", for: "agentTask", when: "a\n```\n<b>x</b>" }),
    );
    const start = lines.indexOf("````feel");
    expect(lines.slice(start, start + 5)).toEqual(["````feel", "a", "```", "<b>x</b>", "````"]);
  });
});
