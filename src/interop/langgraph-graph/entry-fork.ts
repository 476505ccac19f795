/**
 * A parallel entry: `__start__` with two or more successors. agentflow has one entry, so the
 * fan-out starts from an inserted step with an edge to each successor.
 */
import { pointer } from "../../model/index.js";
import { allocateId } from "../ids.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";
import { PLACEHOLDER_VERSION } from "./graph-types.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";
import type { RouterPlan } from "./routers.js";
import { LANGGRAPH_UNSTATED_MODEL } from "../../model/internal.js";

/**
 * The flow successors of `__start__`, in edge order: its plain edges to steps (by LangGraph id)
 * and each decision its router goes through, once.
 */
function entrySuccessors(
  edges: readonly SourceEdge[],
  plans: ReadonlyMap<SourceNode, RouterPlan>,
): string[] {
  const out: string[] = [];
  const routed = new Set<string>();
  for (const e of edges) {
    if (e.from.sentinel !== "start") continue;
    const plan = e.conditional ? plans.get(e.from) : undefined;
    if (plan !== undefined) {
      const dId = plan.via.get(e);
      if (dId !== undefined && !routed.has(dId)) out.push(dId);
      if (dId !== undefined) routed.add(dId);
    } else if (e.to.sentinel !== "end") out.push(String(e.to.rawId));
  }
  return out;
}

/**
 * The node that stands for `__start__` when it has two or more successors (a parallel entry):
 * agentflow has one entry, so the fan-out starts from an inserted step with an edge to each
 * successor. Declared once, naming every successor. It is agentflow's own stand-in, not a
 * LangGraph node: it runs nothing, so unlike a function node (a tool of unknown effect) it stays
 * an llm step on the unstated model, with no effect to gate and no contract to bind.
 */
export function entryFork(
  input: {
    readonly edges: readonly SourceEdge[];
    readonly used: Set<string>;
    readonly warnings: InteropWarning[];
  },
  plans: ReadonlyMap<SourceNode, RouterPlan>,
): Draft | undefined {
  const { edges, used, warnings } = input;
  const targets = entrySuccessors(edges, plans);
  if (targets.length < 2) return undefined;
  const start = edges.find((e) => e.from.sentinel === "start")?.from;
  if (start === undefined) return undefined;
  const id = allocateId("start", used);
  const config = { model: LANGGRAPH_UNSTATED_MODEL, promptRef: `prm:${id}@${PLACEHOLDER_VERSION}` };
  const message = `__start__ starts ${String(targets.length)} branches in parallel (${targets.map((t) => `'${t}'`).join(", ")}); agentflow has one entry, so the inserted step '${id}' leads to each of them, and a simulation follows only the first, '${targets[0] ?? ""}'`;
  warnings.push(
    guessed(pointer("nodes", start.index), message, {
      nodeId: id,
      successors: targets,
      assumed: config,
    }),
  );
  return { id, type: "llm", name: "__start__", config };
}
