/**
 * Feeds one adversarial case to every public entry point that accepts it and checks the answer:
 * well-formed diagnostics, only the documented error types, no crashed rule and no prototype
 * pollution. The suite runs it for behaviour; `bench/adversarial.ts` runs it timed.
 */
import assert from "node:assert/strict";
import { checkProcess } from "../../src/bpmn/index.js";
import {
  detectFormat,
  exportMermaid,
  FORMATS,
  ImportError,
  importDocument,
} from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import {
  parseToolContract,
  parseToolContractText,
  parseWorkflow,
  parseWorkflowText,
} from "../../src/model/index.js";
import {
  auditWorkflowReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../src/report/audit/index.js";
import type { AuditReport } from "../../src/report/audit/index.js";
import type { SimulateOptions } from "../../src/simulate/index.js";
import { explore, simulate } from "../../src/simulate/index.js";
import { createValidator } from "../../src/validate/index.js";
import {
  assertDiagnostics,
  assertNoPollution,
  assertWarnings,
  importOrImportError,
  orTypeError,
} from "../properties/checks.js";
import type { AdversarialCase } from "./build.js";

/** What a case run reports: every call made, and the calls skipped as known failures. */
export interface CaseRun {
  /** `"<case> <entry>"` of every call made, in order. */
  readonly calls: readonly string[];
  readonly skipped: readonly string[];
}

/**
 * Runs one call: `call` is the entry point's call, already checked for throws. The bench passes
 * one that times it; the suite passes none, since it asserts what each call answers and never
 * how long it took, so that it holds on a busy machine.
 */
export type CallObserver = (key: string, call: () => Promise<void>) => Promise<void>;

/** How {@link runCase} runs. */
export interface RunOptions {
  /** `"<case> <entry>"` keys not to call (none in the suite; a tool to bisect a failure). */
  readonly known?: ReadonlySet<string>;
  /** Wraps each call, e.g. to time it (`bench/adversarial.ts`). */
  readonly observe?: CallObserver;
}

const validator = createValidator();

/** `""`, or what a call that threw also polluted. */
function pollution(key: string): string {
  try {
    assertNoPollution(key);
    return "";
  } catch (error) {
    return ` (and polluted: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Runs `f`; a throw becomes an error that names the call, its stack and any pollution. */
async function answer<T>(key: string, f: () => T | Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    throw new Error(`${key} threw${pollution(key)}: ${stack}`, { cause: error });
  }
}

class Runner {
  readonly calls: string[] = [];
  readonly skipped: string[] = [];

  constructor(
    private readonly subject: AdversarialCase,
    private readonly options: RunOptions,
  ) {}

  /** Runs `f` as entry point `entry` unless it is a known failure, and checks pollution. */
  async call<T>(entry: string, f: () => T | Promise<T>): Promise<T | undefined> {
    const key = `${this.subject.name} ${entry}`;
    if (this.options.known?.has(key) === true) {
      this.skipped.push(key);
      return undefined;
    }
    this.calls.push(key);
    const observe = this.options.observe;
    let result: T;
    if (observe === undefined) {
      result = await answer(key, f);
    } else {
      let answered: { readonly value: T } | undefined;
      await observe(key, async () => {
        answered = { value: await answer(key, f) };
      });
      if (answered === undefined) throw new Error(`${key}: the observer did not run the call`);
      result = answered.value;
    }
    assertNoPollution(key);
    return result;
  }
}

async function runText(run: Runner, text: string, label: string): Promise<unknown> {
  const parsed = await run.call(`${label}parseWorkflowText`, () => parseWorkflowText(text));
  if (parsed !== undefined) assertDiagnostics(parsed.diagnostics, `${label}parseWorkflowText`);
  const contract = await run.call(`${label}parseToolContractText`, () =>
    parseToolContractText(text),
  );
  if (contract !== undefined) assertDiagnostics(contract.diagnostics, "parseToolContractText");
  const check = await run.call(`${label}checkProcess`, () => checkProcess(text));
  if (check !== undefined) {
    assertDiagnostics([...check.blocking, ...check.warnings], `${label}checkProcess`);
    assert.equal(typeof check.allowed, "boolean");
  }
  return parsed?.value;
}

/** A workflow to run further, and the label its entry points get (`""` or `"<format>>"`). */
interface Labelled {
  readonly label: string;
  readonly wf: AgentWorkflow;
}

async function runValue(run: Runner, value: unknown): Promise<Labelled[]> {
  const workflows: Labelled[] = [];
  const parsed = await run.call("parseWorkflow", () => parseWorkflow(value));
  if (parsed !== undefined) {
    assertDiagnostics(parsed.diagnostics, "parseWorkflow");
    if (parsed.workflow !== undefined) workflows.push({ label: "", wf: parsed.workflow });
  }
  const contract = await run.call("parseToolContract", () => parseToolContract(value));
  if (contract !== undefined) assertDiagnostics(contract.diagnostics, "parseToolContract");
  await run.call("detectFormat", () => detectFormat(value));
  const detected = await run.call("importDocument", () => {
    try {
      return importDocument(value);
    } catch (error) {
      // importDocument throws only the claiming format's ImportError; the per-format calls
      // below check its shape.
      if (error instanceof ImportError) return undefined;
      throw error;
    }
  });
  if (detected !== undefined) assertWarnings(detected.result.warnings, "importDocument");
  for (const format of FORMATS) {
    const entry = `import:${format.id}`;
    const imported = await run.call(entry, () => {
      assert.equal(typeof format.detect(value), "boolean");
      return importOrImportError(format, value, entry);
    });
    if (imported !== undefined) workflows.push({ label: `${format.id}>`, wf: imported.workflow });
  }
  return workflows;
}

async function runWorkflow(
  run: Runner,
  wf: AgentWorkflow,
  label: string,
  options: unknown,
): Promise<void> {
  const diagnostics = await run.call(`${label}validate`, () => validator.validate(wf));
  if (diagnostics !== undefined) assertDiagnostics(diagnostics, `${label}validate`);
  const simulateOptions = options as SimulateOptions | undefined;
  await run.call(`${label}simulate`, () => orTypeError(() => simulate(wf, simulateOptions)));
  await run.call(`${label}explore`, () => orTypeError(() => explore(wf, simulateOptions)));
  const mermaid = await run.call(`${label}exportMermaid`, () => exportMermaid(wf));
  if (mermaid !== undefined) assert.ok(mermaid.startsWith("flowchart TD"));
  for (const format of FORMATS) {
    const exporter = format.export?.bind(format);
    if (exporter === undefined) continue;
    const exported = await run.call(`${label}export:${format.id}`, () => exporter(wf));
    if (exported !== undefined) assertWarnings(exported.warnings, `export:${format.id}`);
  }
  const auditOptions = { file: "adversarial", text: "", tools: { agentflow: "test" } };
  const report: AuditReport | undefined = await run.call(`${label}auditWorkflowReport`, () =>
    auditWorkflowReport(wf, auditOptions),
  );
  if (report === undefined) return;
  const markdown = await run.call(`${label}renderAuditMarkdown`, () =>
    flat(renderAuditMarkdown(report)),
  );
  if (markdown !== undefined) assert.ok(markdown.startsWith("# "));
  const html = await run.call(`${label}renderAuditHtml`, () => flat(renderAuditHtml(report)));
  if (html !== undefined) assert.ok(html.trimEnd().endsWith("</html>"));
}

/**
 * The page as a caller gets to use it. The renderers return strings V8 keeps as ropes of parts;
 * reading a character flattens one into the single string a file write needs, so the timed call
 * includes that copy.
 */
function flat(text: string): string {
  assert.ok(text.charCodeAt(text.length - 1) >= 0);
  return text;
}

function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // a cycle, a BigInt or a stack too deep for JSON.stringify
  }
}

/**
 * Runs a case through every entry point that accepts it. A text case goes to the text parsers
 * and the BPMN reader, and what it decodes to goes on as a value; a value case goes to the value
 * parsers and every importer (and, as JSON text, to the text entry points). Every workflow that
 * parses or is imported goes to validation, simulation, exploration, the exports and the audit
 * report.
 */
export async function runCase(
  subject: AdversarialCase,
  options: RunOptions = {},
): Promise<CaseRun> {
  const run = new Runner(subject, options);
  const input = subject.input();
  let value: unknown;
  if (input.kind === "text") {
    value = await runText(run, input.text, "");
  } else {
    value = input.value;
    const text = subject.asText === false ? undefined : jsonText(value);
    if (text !== undefined) await runText(run, text, "json:");
  }
  const workflows = value === undefined && input.kind === "text" ? [] : await runValue(run, value);
  for (const { label, wf } of workflows) await runWorkflow(run, wf, label, input.options);
  return { calls: run.calls, skipped: run.skipped };
}
