/**
 * A simulated run as conform's own events: what a perfect recorder of agentflow's simulator
 * would write. The readers' exporters write the same run in their sources' formats; this one
 * pins the checker itself.
 */
import type { AgentWorkflow } from "../../../src/model/index.js";
import type { SimulationState } from "../../../src/simulate/index.js";
import type { RunEvent } from "../../../src/conform/index.js";
import { CALL_TOKENS, callCost } from "./usage.js";

/** Options of {@link eventsFromSimulation}. */
export interface EventExport {
  readonly run: string;
  /** Write the decisions as `route` events (a source that records them), or leave them out. */
  readonly routes: boolean;
  readonly startMs?: number;
}

/** The events of one simulated run, in order. */
export function eventsFromSimulation(
  wf: AgentWorkflow,
  state: SimulationState,
  options: EventExport,
): RunEvent[] {
  const { run } = options;
  const t0 = options.startMs ?? 0;
  const byId = new Map(wf.nodes.map((n) => [n.id, n]));
  const cost = callCost(wf);
  const usage = {
    tokens: CALL_TOKENS.input + CALL_TOKENS.output,
    ...(Object.keys(cost).length === 0 ? {} : { cost }),
  };
  const events: RunEvent[] = [
    { kind: "run-start", run, workflow: `${wf.id}@${wf.version}`, time: t0, at: { index: 0 } },
  ];
  const at = () => ({ index: events.length });
  let ended = false;
  for (const record of state.trail) {
    const node = record.nodeId === undefined ? undefined : byId.get(record.nodeId);
    const nodeType = node?.type === "llm" || node?.type === "tool" ? node.type : undefined;
    const id = node?.id ?? "";
    if (record.type === "move" && nodeType !== undefined && node !== undefined) {
      events.push({
        kind: "step",
        run,
        nodeType,
        node: node.id,
        status: "ok",
        output: record.output ?? {},
        ...(record.params === undefined ? {} : { args: record.params }),
        ...(node.type === "llm" ? { identity: { model: node.config.model }, ...usage } : {}),
        start: t0 + record.step,
        end: t0 + record.step,
        at: at(),
      });
    } else if (
      record.type === "boundary" &&
      record.decorator === "errorBoundary" &&
      nodeType !== undefined
    ) {
      events.push({ kind: "step", run, nodeType, node: id, status: "error", at: at() });
    } else if (record.type === "decision" && options.routes && record.nodeId !== undefined) {
      events.push({
        kind: "route",
        run,
        node: record.nodeId,
        ...(record.route === undefined ? {} : { route: record.route }),
        ...(record.next === undefined ? {} : { next: record.next }),
        at: at(),
      });
    } else if (record.type === "decision-blocked") {
      if (
        (record.cell === "execution" || record.cell === "errorBoundary") &&
        nodeType !== undefined
      ) {
        events.push({
          kind: "step",
          run,
          nodeType,
          node: id,
          status: "error",
          at: at(),
        });
      }
      events.push({ kind: "run-end", run, status: "failed", at: at() });
      ended = true;
    } else if (record.type === "end") {
      events.push({ kind: "run-end", run, status: "completed", time: t0 + record.step, at: at() });
      ended = true;
    }
  }
  if (!ended) events.push({ kind: "run-end", run, status: "failed", at: at() });
  return events;
}
