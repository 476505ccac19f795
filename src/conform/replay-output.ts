/**
 * What a replayed step's output does to the state its decisions read. A recorded output is merged
 * as the simulator merges it. A step that succeeded and whose output was not read (not recorded,
 * cut short, free text) wrote something all the same: the fields its node writes become unknown,
 * so that a decision reading them is undecidable — never decided on what an earlier iteration of
 * the loop wrote there.
 */
import type { AgentNode } from "../model/index.js";
import { shapeNames, topField } from "../model/internal.js";
import type { FindingData } from "./deviation.js";
import { assignOwn, routeCondition } from "../simulate/internal.js";
import { contractOf } from "./checks.js";
import type { Replay } from "./replay-state.js";
import type { EventAt, RecordedObject, StepEvent } from "./types.js";

/**
 * The top-level fields node `node` declares it writes (its llm `outputSchema`, its tool contract's
 * `outputSchema`); `undefined` when it declares none, so that it may write any field.
 */
function declaredFields(r: Replay, node: AgentNode): readonly string[] | undefined {
  if (node.type === "llm") {
    const schema = node.config.outputSchema;
    return schema === undefined ? undefined : shapeNames(schema);
  }
  if (node.type !== "tool") return [];
  const contract = contractOf(r.approved, node);
  return contract === null || contract === undefined
    ? undefined
    : shapeNames(contract.outputSchema);
}

/** Merges a recorded output of node `k`: its fields are known again. */
export function mergeOutput(r: Replay, k: number, output: RecordedObject): void {
  r.merged = assignOwn(r.merged, output);
  let wrote = r.writes.get(k);
  if (wrote === undefined) {
    wrote = new Set();
    r.writes.set(k, wrote);
  }
  for (const field of Object.keys(output)) {
    wrote.add(field);
    r.unknown.delete(field);
  }
}

const placeOf = (at: EventAt): string => {
  const line = at.line === undefined ? `#${String(at.index)}` : `:${String(at.line)}`;
  return `${at.file ?? ""}${line}${at.time === undefined ? "" : ` ${at.time}`}`;
};

/**
 * Node `k` succeeded and its output was not read: the fields it declares, and those it wrote
 * earlier in the run, are unknown; every field, when it declares none.
 */
export function forgetOutput(r: Replay, k: number, node: AgentNode, step: StepEvent): void {
  const declared = declaredFields(r, node);
  const fields =
    declared === undefined
      ? Object.keys(r.merged)
      : [...new Set([...declared, ...(r.writes.get(k) ?? [])])];
  const unread = {
    node: node.id,
    at: placeOf(step.at),
    ...(step.outputUnread === undefined ? {} : { why: step.outputUnread }),
  };
  for (const field of fields) r.unknown.set(field, unread);
  // A field the step may have rewritten is absent, not its earlier value: absent is undecidable.
  const drop = new Set(fields);
  if (Object.keys(r.merged).some((field) => drop.has(field))) {
    r.merged = Object.fromEntries(Object.entries(r.merged).filter(([field]) => !drop.has(field)));
  }
}

/**
 * For a decision left undecidable: the step whose output was not read and left a field the
 * decision reads unknown, as finding data (`unread`, `unreadAt`, `unreadWhy`); empty when none.
 */
export function unreadOutputData(r: Replay, decision: number): FindingData {
  if (r.unknown.size === 0) return {};
  for (const route of r.plan.routes[decision] ?? []) {
    for (const name of routeCondition(route)?.analysis.fields ?? []) {
      const field = topField(name);
      const unread = field === undefined ? undefined : r.unknown.get(field);
      if (unread === undefined) continue;
      return {
        unread: unread.node,
        unreadAt: unread.at,
        ...(unread.why === undefined ? {} : { unreadWhy: unread.why }),
      };
    }
  }
  return {};
}
