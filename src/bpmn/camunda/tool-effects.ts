/**
 * The effect of each tool as a whole: the most demanding own effect of the elements its flows
 * lead to inside the container (the root's valid `btv:toolEffect` states it outright). Computed
 * for all tools at once by pushing ranks backwards along the flows: a rank only rises, at most
 * once per effect level, so the work is linear in the container (O(7 (V + E))).
 */
import { contentHash } from "../../model/index.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import type { ActivityEffect } from "./effects.js";
import { activityEffect, effectRank } from "./effects.js";
import type { CamundaActivity, CamundaAgent, EffectedTool } from "./types.js";

/** Every element's own effect and the predecessors of each, by index. */
function ownEffects(agent: CamundaAgent, mapping: ToolEffectsMapping) {
  const elements: CamundaActivity[] = [...agent.tools, ...agent.steps];
  const index = new Map<string, number>();
  elements.forEach((element, i) => {
    if (!index.has(element.id)) index.set(element.id, i);
  });
  const own: ActivityEffect[] = elements.map((element) => activityEffect(element, mapping));
  const preds: number[][] = elements.map(() => []);
  for (const [from, to] of agent.flows) {
    const a = index.get(from);
    const b = index.get(to);
    if (a !== undefined && b !== undefined) preds[b]?.push(a);
  }
  return { elements, own, preds };
}

/** The tools with their effects, in the order read. */
export function effectedTools(agent: CamundaAgent, mapping: ToolEffectsMapping): EffectedTool[] {
  const { elements, own, preds } = ownEffects(agent, mapping);
  const rank = own.map((e) => effectRank(e.effect));
  const decided = own.map((_, i) => i);
  // A root's valid btv:toolEffect is the tool's effect: nothing downstream raises it.
  const fixed = own.map((e, i) => i < agent.tools.length && e.source === "btv");
  const queue = elements.map((_, i) => i);
  // The loop also visits what it pushes: an array iterator reads the length at every step.
  for (const at of queue) {
    for (const p of preds[at] ?? []) {
      if (fixed[p] === true || (rank[p] ?? 0) >= (rank[at] ?? 0)) continue;
      rank[p] = rank[at] ?? 0;
      decided[p] = decided[at] ?? at;
      queue.push(p);
    }
  }
  return agent.tools.map((tool, i) => {
    const by = decided[i] ?? i;
    const effect = own[by] ?? { source: "unknown" };
    return {
      ...tool,
      ...(effect.effect === undefined ? {} : { effect: effect.effect }),
      effectSource: effect.source,
      ...(effect.key === undefined ? {} : { effectKey: effect.key }),
      decidedBy: elements[by]?.id ?? tool.id,
      ...(effect.reason === undefined ? {} : { unknownReason: effect.reason }),
      contentHash: contentHash(tool),
    };
  });
}
