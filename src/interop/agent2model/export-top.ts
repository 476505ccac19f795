/**
 * The top of the agent2model export: what a flowchart cannot hold of the workflow as a whole
 * (its autonomy level, version, schemas, other keys) and its delegate edges, declared.
 */
import type { AgentWorkflow } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { ExportContext } from "./export-context.js";
import { omitted } from "../warnings.js";
import { INPUT_SCHEMA, OUTPUT_SCHEMA, VERSION } from "./import.js";

/** Top-level workflow keys the flowchart holds, or that are checked one by one below. */
const MAPPED_TOP = new Set([
  "kind",
  "id",
  "name",
  "description",
  "version",
  "autonomyLevel",
  "inputSchema",
  "outputSchema",
  "nodes",
  "edges",
  "metadata",
]);

function sameShape(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}

/**
 * Declares what the flowchart has no place for at the top: `autonomyLevel` always, a version or
 * schemas an import would not give back, other keys, and every delegate edge.
 */
export function declareTop(wf: AgentWorkflow, ctx: Pick<ExportContext, "warnings">): void {
  const lose = (path: string, message: string, data: Record<string, unknown>): void => {
    ctx.warnings.add(path, () => omitted(path, message, data));
  };
  lose(
    "/autonomyLevel",
    "autonomyLevel left out: the flowchart has none; an import recomputes it",
    { autonomyLevel: wf.autonomyLevel },
  );
  if (wf.version !== VERSION)
    lose(
      "/version",
      `version '${wf.version}' left out: the flowchart has none; an import assumes ${VERSION}`,
      { version: wf.version },
    );
  if (!sameShape(wf.inputSchema, INPUT_SCHEMA))
    lose(
      "/inputSchema",
      "inputSchema left out: a conversation's input is its sampled scenario",
      {},
    );
  if (!sameShape(wf.outputSchema, OUTPUT_SCHEMA))
    lose(
      "/outputSchema",
      "outputSchema left out: a conversation's output is its terminal's outcome",
      {},
    );
  for (const key of Object.keys(wf))
    if (!MAPPED_TOP.has(key))
      ctx.warnings.add("top-level field", () =>
        omitted(pointer(key), `'${key}' left out: the flowchart has no such field`, { key }),
      );
  wf.edges.forEach((e, j) => {
    if (e.edgeType === "delegate")
      ctx.warnings.add("delegate edge", () =>
        omitted(
          pointer("edges", j),
          `delegate edge '${e.from}' -> '${e.to}' left out: the flowchart has no delegation`,
          { from: e.from, to: e.to },
        ),
      );
  });
}
