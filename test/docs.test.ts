/**
 * The docs are tested like code: every rule has a page whose failing example triggers the rule
 * and whose passing example does not, with a `registry` block as the resolvers when the rule
 * needs one; the rule index lists every rule.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWorkflowText } from "../src/model/index.js";
import { createValidator, RULES, type Resolvers } from "../src/validate/index.js";
import { ruleIndexMarkdown } from "../src/validate/rule-index.js";

const root = new URL("../", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), "utf8");

function blocks(markdown: string, tag: string): string[] {
  const out: string[] = [];
  const fence = /```(yaml|json) ([a-z]+)\n([\s\S]*?)```/g;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    if (m[2] === tag) out.push(m[3] ?? "");
  }
  return out;
}

function registryResolvers(markdown: string): Resolvers {
  const byRef = new Map<string, unknown>();
  for (const text of blocks(markdown, "registry")) {
    const read = parseWorkflowText(text); // decodes YAML/JSON; the documents are checked by the resolvers
    const docs = Array.isArray(read.value) ? (read.value as unknown[]) : [read.value];
    for (const doc of docs) {
      const { id, version } = doc as { id: string; version: string };
      byRef.set(`${id}@${version}`, doc);
    }
  }
  const lookup = (ref: string): unknown => byRef.get(ref);
  return { resolveTool: lookup, resolveDelegate: lookup, resolvePrompt: lookup };
}

async function codesOf(markdown: string, text: string): Promise<string[]> {
  const parsed = parseWorkflowText(text);
  if (parsed.workflow === undefined) {
    throw new Error(`example does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  }
  const validator = createValidator({ resolvers: registryResolvers(markdown) });
  return (await validator.validate(parsed.workflow)).map((d) => d.code);
}

describe("rule documentation", () => {
  const index = read("docs/rules/README.md");
  it.each(RULES.map((r) => [r.meta.code, r] as const))(
    "%s has a tested page",
    async (code, rule) => {
      const path = `docs/rules/${code}.md`;
      expect(rule.meta.docs).toBe(path);
      expect(existsSync(new URL(path, root))).toBe(true);
      const page = read(path);
      expect(page.startsWith(`# ${code}\n`)).toBe(true);
      expect(page).toContain(`**Severity:** ${rule.meta.defaultSeverity}`);
      const failing = blocks(page, "failing");
      const passing = blocks(page, "passing");
      expect(failing).toHaveLength(1);
      expect(passing).toHaveLength(1);
      expect(await codesOf(page, failing[0] ?? "")).toContain(code);
      expect(await codesOf(page, passing[0] ?? "")).not.toContain(code);
    },
  );

  it("the rule index is generated from the registry and current (npm run docs:rules)", () => {
    expect(index).toBe(ruleIndexMarkdown());
    for (const rule of RULES) expect(index).toContain(`[${rule.meta.code}](${rule.meta.code}.md)`);
  });
});
