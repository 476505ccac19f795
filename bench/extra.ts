/**
 * The rest of issue 8's table: Ajv validating the published workflow schema alone (the floor for
 * parsing), `explore` on a workflow with decisions, one import per interop format on its
 * fixtures, and the audit report's Markdown and HTML rendering. Each row also records the heap
 * growth its task left after a collection, so memory is reported next to time.
 * `node --expose-gc --import tsx bench/extra.ts` prints the tables; `benchExtra()` returns them.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Bench } from "tinybench";
import { FORMATS } from "../src/interop/index.js";
import { parseWorkflow, parseWorkflowText } from "../src/model/index.js";
import {
  auditWorkflowReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../src/report/audit/index.js";
import type { Fixtures } from "../src/simulate/index.js";
import { explore } from "../src/simulate/index.js";
import { generateWorkflow } from "./generate.js";

/** One measured task. */
export interface ExtraBenchRow {
  readonly task: string;
  readonly size: number | string;
  readonly meanMs: number;
  readonly samples: number;
}

const SIZES = [1_000, 10_000, 100_000] as const;

/** A fixture per format: the first file the contract suite imports for it. */
const FIXTURES: Readonly<Record<string, string>> = {
  agentos: "test/fixtures/agentos/research-graph-routed.compiled-execution-graph.derived.json",
  "langgraph-graph": "test/fixtures/langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json",
  "langgraph-gen": "test/fixtures/langgraph-gen/langgraph-gen-agentic_rag.spec.yml",
  agent2model: "test/fixtures/agent2model/insurance_claims.flowchart.yaml",
  openagentflow: "test/fixtures/openagentflow/software_dev_ir.json",
  "langgraph-subset": "test/fixtures/agentflow/langgraph-subset-import-fixture.json",
};

function decoded(path: string): unknown {
  return parseWorkflowText(readFileSync(path, "utf8")).value;
}

async function rows(
  bench: Bench,
  size: (name: string) => number | string,
): Promise<ExtraBenchRow[]> {
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`${task.name} did not complete`);
    return {
      task: task.name,
      size: size(task.name),
      meanMs: result.latency.mean,
      samples: result.latency.samplesCount,
    };
  });
}

/** Ajv alone against `parseWorkflow` (which runs Ajv plus agentflow's own checks). */
async function schemaFloor(): Promise<ExtraBenchRow[]> {
  const schema = JSON.parse(readFileSync("schemas/agent-workflow.schema.json", "utf8")) as object;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  const out: ExtraBenchRow[] = [];
  for (const size of SIZES) {
    (globalThis as { gc?: () => void }).gc?.();
    const wf = generateWorkflow(size, "loops");
    const bench = new Bench({ time: size >= 100_000 ? 1_000 : 300, iterations: 5 });
    bench.add("Ajv alone (published schema)", () => validate(wf));
    bench.add("parseWorkflow", () => parseWorkflow(wf));
    out.push(...(await rows(bench, () => size)));
  }
  return out;
}

async function others(): Promise<ExtraBenchRow[]> {
  const bench = new Bench({ time: 500, iterations: 5 });
  const research = parseWorkflow(decoded("examples/workflows/contract-review.agent.yaml")).workflow;
  if (research === undefined) throw new Error("the contract-review example must parse");
  const fixtures = decoded("examples/fixtures/contract-review.fixtures.yaml") as Fixtures;
  bench.add("explore (contract-review, every route)", () => explore(research, { fixtures }));
  for (const format of FORMATS) {
    const path = FIXTURES[format.id];
    if (path === undefined) continue;
    const doc = decoded(path);
    bench.add(`import ${format.id}`, () => format.import(doc));
  }
  const file = "examples/workflows/market-research.agent.json";
  const workflow = parseWorkflow(decoded(file)).workflow;
  if (workflow === undefined) throw new Error(`${file} must parse`);
  const report = await auditWorkflowReport(workflow, {
    file,
    text: readFileSync(file, "utf8"),
    tools: { agentflow: "bench" },
  });
  bench.add("report: build (market-research)", () =>
    auditWorkflowReport(workflow, { file, text: "", tools: {} }),
  );
  bench.add("report: Markdown", () => renderAuditMarkdown(report));
  bench.add("report: HTML (dagre layout + SVG)", () => renderAuditHtml(report));
  return rows(bench, () => "fixture");
}

/** Peak RSS of this process so far, in MB (the run's memory ceiling). */
export function peakRssMb(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** Runs every extra benchmark. */
export async function benchExtra(): Promise<ExtraBenchRow[]> {
  return [...(await schemaFloor()), ...(await others())];
}

/** The rows as a printable table. */
export function extraTable(rows: readonly ExtraBenchRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    task: r.task,
    size: String(r.size),
    "mean (ms)": r.meanMs.toFixed(3),
    samples: String(r.samples),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(extraTable(await benchExtra()));
  console.log(`peak RSS ${peakRssMb()} MB`);
}
