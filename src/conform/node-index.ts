/**
 * The nodes a recorded step can name, indexed once per compiled workflow: a step is matched on
 * every event of every run, and a scan of the workflow's nodes per step would make a long run of
 * a large workflow quadratic.
 */
import type { Plan } from "../simulate/internal.js";
import { toolIdOf } from "./checks.js";

/** The llm nodes, the tool nodes, and the tool nodes by each name a source may call them. */
interface NodeIndex {
  readonly llm: readonly number[];
  readonly tool: readonly number[];
  /** By node id, `usesTool` reference and the tool contract's id (`gen_ai.tool.name`). */
  readonly byToolName: ReadonlyMap<string, readonly number[]>;
}

const indexes = new WeakMap<Plan, NodeIndex>();

function build(plan: Plan): NodeIndex {
  const llm: number[] = [];
  const tool: number[] = [];
  const byToolName = new Map<string, number[]>();
  plan.wf.nodes.forEach((node, k) => {
    if (node.type === "llm") llm.push(k);
    if (node.type !== "tool") return;
    tool.push(k);
    const uses = node.config.usesTool;
    for (const name of new Set([node.id, uses, toolIdOf(uses)])) {
      const list = byToolName.get(name);
      if (list === undefined) byToolName.set(name, [k]);
      else list.push(k);
    }
  });
  return { llm, tool, byToolName };
}

/** The nodes a step of `nodeType` naming `tool` (or none) may have executed, in document order. */
export function stepCandidates(
  plan: Plan,
  nodeType: "llm" | "tool",
  tool: string | undefined,
): readonly number[] {
  let index = indexes.get(plan);
  if (index === undefined) {
    index = build(plan);
    indexes.set(plan, index);
  }
  if (tool === undefined) return index[nodeType];
  return nodeType === "tool" ? (index.byToolName.get(tool) ?? []) : [];
}

/** Whether any tool node of the workflow goes by `tool`. */
export function usesTool(plan: Plan, tool: string): boolean {
  return stepCandidates(plan, "tool", tool).length > 0;
}
