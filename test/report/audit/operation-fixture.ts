/**
 * Recorded runs of the research template (llm-1 → tool-2 → dec-3, which ends when
 * `is_complete` holds and else retries llm-1) checked by the real checker, for the Operation
 * section's tests: one conforming run, a run with one deviation, a run with three, an unfinished
 * run, and a record no run could be given.
 */
import type { ApprovedModel, ConformanceReport, RunEvent } from "../../../src/conform/index.js";
import { createConformanceChecker } from "../../../src/conform/index.js";
import { research, search } from "../../conform/research.js";
import type { AuditReport } from "../../../src/report/audit/index.js";
import { auditWorkflowReport } from "../../../src/report/audit/index.js";

const searchContract = search("read", "automatic");

/** The research template as approved, its search tool's contract resolved. */
export const MODEL: ApprovedModel = {
  workflows: [
    {
      ref: "agnt-rsch@2.1.0",
      workflow: research,
      tools: new Map([["tool:browser-search@1.2.0", searchContract]]),
    },
  ],
  processes: [],
};

/** The events of the runs, interleaved as one file could hold them. */
export function runEvents(): RunEvent[] {
  let index = 0;
  const at = () => ({ index: index++, file: "runs.jsonl", line: index });
  const start = (run: string): RunEvent => ({
    kind: "run-start",
    run,
    workflow: "agnt-rsch@2.1.0",
    at: at(),
  });
  const llm = (run: string, complete: boolean, model = "gpt-4o"): RunEvent => ({
    kind: "step",
    run,
    nodeType: "llm",
    node: "llm-1",
    status: "ok",
    output: { is_complete: complete },
    identity: { model },
    // The template limits tokens and cost: a call that records neither leaves a run unverified.
    tokens: 100,
    cost: { USD: 0.01 },
    at: at(),
  });
  const tool = (run: string, query: unknown): RunEvent => ({
    kind: "step",
    run,
    nodeType: "tool",
    tool: "tool:browser-search",
    status: "ok",
    output: {},
    args: { query },
    at: at(),
  });
  const done = (run: string): RunEvent => ({ kind: "run-end", run, status: "completed", at: at() });
  return [
    start("ok"),
    start("one"),
    start("three"),
    start("open"),
    llm("ok", true),
    tool("ok", "q"),
    done("ok"),
    // one deviation: the tool called with arguments its contract refuses
    llm("one", true),
    tool("one", 42),
    done("one"),
    // three: another model twice (a retry), and a node the workflow does not have
    llm("three", false, "gpt-5"),
    tool("three", "q"),
    llm("three", true, "gpt-5"),
    { kind: "step", run: "three", nodeType: "llm", node: "llm-9", status: "ok", at: at() },
    done("three"),
    // unfinished: no run-end
    llm("open", true),
    { kind: "unknown", class: "unknown", reason: "not JSON", at: at() },
  ];
}

/** The checker's report on {@link runEvents}. */
export function conformance(): ConformanceReport {
  const checker = createConformanceChecker(MODEL);
  for (const event of runEvents()) checker.push(event);
  return checker.end();
}

/** The audit report of the research template with the runs' Operation section. */
export async function reportWithRuns(
  report: ConformanceReport = conformance(),
): Promise<AuditReport> {
  return auditWorkflowReport(research, {
    file: "research.agent.json",
    text: JSON.stringify(research),
    tools: { agentflow: "test" },
    operation: {
      conformance: report,
      basis: "the registry examples/registry",
      files: [{ file: "runs.jsonl", source: "otlp", records: 17 }],
    },
  });
}
