/**
 * The docs are tested like code: every rule has a page whose failing example triggers the rule
 * and whose passing example does not, with a `registry` block as the resolvers when the rule
 * needs one; the rule index lists every rule. Workflow rules' examples are YAML or JSON
 * workflows; BPMN rules' examples are BPMN XML processes, checked with `checkProcess`.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BPMN_RULES, checkProcess } from "../src/bpmn/index.js";
import { parseWorkflowText } from "../src/model/index.js";
import type { RegistryDoc } from "./bpmn/rule-tester.js";
import { registryLookup as lookupOf } from "./bpmn/rule-tester.js";
import { createValidator, RULES, type Resolvers } from "../src/validate/index.js";
import { ruleIndexMarkdown } from "../src/report/rule-index.js";
import { writeDocExamples } from "./examples/docs.js";
import { resetGenerated, runExample } from "./run-example.js";

const root = new URL("../", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), "utf8");

/** The bodies of the fenced blocks tagged `tag` (e.g. ```` ```yaml failing ````), of `lang` if given. */
function blocks(markdown: string, tag: string, lang?: string): string[] {
  const out: string[] = [];
  const fence = /```(yaml|json|xml) ([a-z]+)\n([\s\S]*?)```/g;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    if (m[2] === tag && (lang === undefined || m[1] === lang)) out.push(m[3] ?? "");
  }
  return out;
}

/**
 * The page's `registry` blocks as one lookup by `id@version`, as a registry resolves: two
 * documents with one `id@version` and different content are a conflict, thrown for that ref.
 */
function registryLookup(markdown: string): (ref: string) => unknown {
  const docs = blocks(markdown, "registry").flatMap((text) => {
    const read = parseWorkflowText(text); // decodes YAML/JSON; the documents are checked by the resolvers
    return (Array.isArray(read.value) ? read.value : [read.value]) as RegistryDoc[];
  });
  return lookupOf(docs);
}

function registryResolvers(markdown: string): Resolvers {
  const lookup = registryLookup(markdown);
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

/** The codes `checkProcess` reports for a BPMN example, with the page's registry. */
async function bpmnCodesOf(markdown: string, xml: string): Promise<string[]> {
  const lookup = registryLookup(markdown);
  const result = await checkProcess(xml, { resolveWorkflow: lookup, resolveTool: lookup });
  return [...result.blocking, ...result.warnings].map((d) => d.code);
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
    for (const rule of [...RULES, ...BPMN_RULES]) {
      expect(index).toContain(`[${rule.meta.code}](${rule.meta.code}.md)`);
    }
  });
});

describe("BPMN rule documentation", () => {
  it.each(BPMN_RULES.map((r) => [r.meta.code, r] as const))(
    "%s has a tested page",
    async (code, rule) => {
      const path = `docs/rules/${code}.md`;
      expect(rule.meta.docs).toBe(path);
      expect(existsSync(new URL(path, root))).toBe(true);
      const page = read(path);
      expect(page.startsWith(`# ${code}\n`)).toBe(true);
      expect(page).toContain(`\n**Severity:** ${rule.meta.defaultSeverity} · **Group:** BPMN\n`);
      const failing = blocks(page, "failing");
      const passing = blocks(page, "passing");
      expect(failing).toHaveLength(1);
      expect(passing).toHaveLength(1);
      expect(blocks(page, "failing", "xml")).toEqual(failing);
      expect(blocks(page, "passing", "xml")).toEqual(passing);
      const failingCodes = await bpmnCodesOf(page, failing[0] ?? "");
      const passingCodes = await bpmnCodesOf(page, passing[0] ?? "");
      expect(failingCodes).toContain(code);
      expect(passingCodes).not.toContain(code);
      // Only BPMN_PARSE's own page may show a document moddle cannot read in full.
      for (const codes of code === "BPMN_PARSE" ? [passingCodes] : [failingCodes, passingCodes]) {
        expect(codes).not.toContain("BPMN_PARSE");
        expect(codes).not.toContain("RULE_CRASHED");
      }
    },
  );
});

/**
 * Code blocks marked ```` ```ts runnable ```` in README.md and docs/ are run as written, their
 * `agentflow` imports pointed at `src` (see run-example.ts); examples/typecheck.test.ts
 * type-checks them. Blocks that need
 * the reader's own registry or a browser stay plain ```` ```ts ````.
 */
describe("runnable documentation examples", () => {
  resetGenerated("docs");
  const examples = writeDocExamples("docs");

  let exitCode: typeof process.exitCode;
  beforeEach(() => {
    vi.spyOn(console, "log").mockImplementation(() => undefined); // examples print for the reader
    exitCode = process.exitCode; // and may set an exit code, as a CLI script would
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = exitCode;
  });

  it("marks the examples of the README and the guides runnable", () => {
    const marked = new Set(examples.map((e) => e.page));
    for (const page of [
      "README.md",
      "docs/autonomy.md",
      "docs/bpmn.md",
      "docs/simulation.md",
      "docs/validation.md",
    ]) {
      expect(marked, page).toContain(page);
    }
  });

  it.each(examples.map((e) => [e.name, e.file] as const))("%s runs", async (_name, file) => {
    await runExample(file);
  });
});
