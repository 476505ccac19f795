/**
 * The effect of each tool as a whole: the most demanding own effect of the elements its flows
 * lead to inside the container (the root's valid `btv:toolEffect` states it outright), joined by
 * that of the container's event sub-processes, which any tool's run may start (or which start on
 * their own while the agent runs). Computed for all elements at once by pushing ranks backwards
 * along the flows: a rank only rises, at most once per effect level, so the work is linear in
 * the container (O(7 (V + E))).
 */
import { activityHash } from "./read-hash.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import type { ActivityEffect } from "./types.js";
import { activityEffect, effectRank, statesWhole } from "./effects.js";
import type { CamundaActivity, CamundaAgent, CamundaTool, EffectedTool } from "./types.js";

/** What the container's event sub-processes may do, as the most demanding element decides it. */
export interface EventEffect extends ActivityEffect {
  /** The event sub-process it is in (a top-level one of the container). */
  readonly id: string;
  /** The element whose effect decided. */
  readonly decidedBy: string;
}

/** The agent's tools with their effects, and what its event sub-processes may do. */
export interface AgentEffects {
  readonly tools: EffectedTool[];
  /** Absent when the container has no event sub-process. */
  readonly events?: EventEffect;
}

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
  return { elements, index, own, preds };
}

/**
 * The tool as the derived agent shows it: its inputs, target → source, without the mappings'
 * order, which served the effect (and the hash, where it decides a field: read-hash.ts).
 */
function shownTool(tool: CamundaTool): Omit<CamundaTool, "inputMappings"> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tool)) if (key !== "inputMappings") out[key] = value;
  return out as Omit<CamundaTool, "inputMappings">;
}

/** The tools with their effects, in the order read, and the event sub-processes' effect. */
export function agentEffects(agent: CamundaAgent, mapping: ToolEffectsMapping): AgentEffects {
  const { elements, index, own, preds } = ownEffects(agent, mapping);
  const rank = own.map((e) => effectRank(e.effect));
  const decided = own.map((_, i) => i);
  // A valid btv:toolEffect on a root (or on an event sub-process) states the effect of all it
  // leads to: nothing there raises it.
  const fixed = elements.map(
    (e, i) => (i < agent.tools.length || e.nature === "event-sub-process") && statesWhole(e),
  );
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
  // The most demanding event sub-process, the first among equals.
  let event: number | undefined;
  for (const id of agent.eventSubProcesses ?? []) {
    const i = index.get(id);
    if (i !== undefined && (event === undefined || (rank[i] ?? 0) > (rank[event] ?? 0))) event = i;
  }
  const byEvent = event === undefined ? undefined : (decided[event] ?? event);
  const tools = agent.tools.map((tool, i): EffectedTool => {
    const by =
      byEvent !== undefined && (rank[event ?? i] ?? 0) > (rank[i] ?? 0)
        ? byEvent
        : (decided[i] ?? i);
    const effect = own[by] ?? { source: "unknown" };
    return {
      ...shownTool(tool),
      ...(effect.effect === undefined ? {} : { effect: effect.effect }),
      effectSource: effect.source,
      ...(effect.key === undefined ? {} : { effectKey: effect.key }),
      decidedBy: elements[by]?.id ?? tool.id,
      ...(effect.reason === undefined ? {} : { unknownReason: effect.reason }),
      contentHash: activityHash(tool),
    };
  });
  if (event === undefined || byEvent === undefined) return { tools };
  const found = own[byEvent] ?? { source: "unknown" };
  const events: EventEffect = {
    ...found,
    id: elements[event]?.id ?? "",
    decidedBy: elements[byEvent]?.id ?? "",
  };
  return { tools, events };
}
