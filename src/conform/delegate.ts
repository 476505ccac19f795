/**
 * A delegation checked against the delegating run's approved workflow. A `delegate` edge
 * (`{from, to, edgeType: "delegate"}`, `to` a versioned agent ref) permits a node to hand work to
 * that agent; it is a permission, not a step the run must take, so a run that delegates nowhere
 * needs none. A delegation the workflow has no edge for is a transition the graph does not have,
 * and one whose delegate cannot be told cannot be checked (unverified, never passed).
 */
import { parseRef } from "../model/index.js";
import { stepCandidates } from "./node-index.js";
import type { Replay } from "./replay-state.js";
import { deviate, idOf } from "./replay-state.js";
import type { DelegateEvent, DelegatingStep } from "./types.js";

/** A ref in its canonical `id@x.y.z` form (`agnt-verify@1` is `agnt-verify@1.0.0`), else as written. */
const canonical = (ref: string): string => {
  const parsed = parseRef(ref);
  return parsed.ok ? parsed.canonical : ref;
};

/**
 * The nodes the delegation may come from: the node its step names, else every node the step's
 * tool or kind can be; `"any"` when it ran under no step (the run itself delegated).
 */
function fromNodes(r: Replay, step: DelegatingStep | undefined): ReadonlySet<string> | "any" {
  if (step === undefined) return "any";
  if (step.node !== undefined) return new Set([step.node]);
  return new Set(stepCandidates(r.plan, step.nodeType, step.tool).map((k) => idOf(r, k)));
}

/** Who delegated, as the finding names it. */
function delegator(step: DelegatingStep | undefined): string {
  if (step === undefined) return "the run";
  if (step.node !== undefined) return `"${step.node}"`;
  if (step.tool !== undefined) return `the step calling tool "${step.tool}"`;
  return `an ${step.nodeType} step`;
}

/** Checks one delegation of the run: the workflow must have a delegate edge for it. */
export function replayDelegate(r: Replay, event: DelegateEvent): void {
  const from = fromNodes(r, event.step);
  const node = event.step?.node;
  const who = delegator(event.step);
  if (event.workflow === undefined) {
    const reason = `${who} delegated to run ${event.delegate}, whose workflow its records do not name readably, so whether the workflow may delegate to it cannot be checked`;
    deviate(r, event.at, { reason: "EVENT_UNMAPPED", data: { reason } }, node);
    return;
  }
  const edges = r.plan.wf.edges.filter(
    (edge) => edge.edgeType === "delegate" && (from === "any" || from.has(edge.from)),
  );
  const target = canonical(event.workflow);
  if (edges.some((edge) => canonical(edge.to) === target)) return;
  const expected = [...new Set(edges.map((edge) => edge.to))].join(", ");
  const data = {
    from: who,
    to: event.workflow,
    delegate: event.delegate,
    expected: expected === "" ? "none" : expected,
    anyNode: from === "any",
  };
  deviate(r, event.at, { class: "TRANSITION_UNKNOWN", data }, node);
}
