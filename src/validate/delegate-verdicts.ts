/**
 * Judging a workflow's delegates by their own rules (DELEGATE_INVALID). Each resolved delegate,
 * direct or transitive, is validated once per run. A delegate fails when its own validation has
 * an error: one of its own rules, or, when DELEGATE_INVALID is an error, a delegate of its own
 * that fails. That second part is a least fixed point over the delegation graph: reachability,
 * walked backwards from the delegates that fail rules of their own in one breadth-first pass, so
 * it is O(delegates + delegate edges) and iterative however deep the chain.
 *
 * A delegation cycle is DELEGATE_CYCLE's, reported once on the workflow being validated, which
 * sees every cycle its delegates reach: it is not a delegate's own error here, or each cycle
 * would be reported twice. The workflow being validated is never judged as its own delegate: its
 * errors are this run's.
 */
import type { AgentWorkflow, Diagnostic, RefParseResult } from "../model/index.js";
import { flowGraph, parseRef } from "../model/index.js";
import { delegateTargets } from "./delegate-targets.js";
import { nodeRefsOf } from "./facts.js";
import type { DelegateNodeRefs } from "./resolve.js";
import type { DelegateVerdict, ResolvedRefs } from "./types.js";

/** The code of the rule whose verdicts these are. */
export const DELEGATE_INVALID = "DELEGATE_INVALID";

/** How the engine judges one delegate, under the configuration of the workflow that delegates. */
export interface DelegateJudge {
  /**
   * The delegate's findings under its own rules, without DELEGATE_CYCLE and DELEGATE_INVALID
   * (computed here), with the waivers marked.
   */
  readonly findings: (
    workflow: AgentWorkflow,
    refs: readonly (RefParseResult | undefined)[],
  ) => readonly Diagnostic[];
  /** Whether DELEGATE_INVALID is an error: only then does a failing delegate fail its caller. */
  readonly propagates: boolean;
  /** Whether a waiver covers the DELEGATE_INVALID findings of the workflow `ref`. */
  readonly waived: (ref: string) => boolean;
}

/** The canonical `id@x.y.z` of a workflow, as DELEGATE_CYCLE names the root. */
export function workflowKey(workflow: AgentWorkflow): string {
  const written = `${workflow.id}@${workflow.version}`;
  const parsed = parseRef(written);
  return parsed.ok ? parsed.canonical : written;
}

/** Each distinct code of the unwaived errors, sorted, and how many there are. */
function errorsOf(findings: readonly Diagnostic[]): { codes: string[]; count: number } {
  const codes = new Set<string>();
  let count = 0;
  for (const d of findings) {
    if (d.severity !== "error" || d.waived !== undefined) continue;
    codes.add(d.code);
    count++;
  }
  return { codes: [...codes].sort(), count };
}

/**
 * The verdict on every resolved delegate of `root` that fails its own rules, by canonical ref;
 * `nodeRefs` holds the delegates' parsed node refs that resolution recorded.
 */
export function judgeDelegates(
  root: AgentWorkflow,
  resolved: ResolvedRefs,
  nodeRefs: DelegateNodeRefs,
  judge: DelegateJudge,
): Map<string, DelegateVerdict> {
  const rootKey = workflowKey(root);
  const keys: string[] = [];
  const workflows: AgentWorkflow[] = [];
  const indexOf = new Map<string, number>();
  for (const [key, resolution] of resolved.delegates) {
    if (resolution.status !== "resolved" || key === rootKey) continue;
    indexOf.set(key, keys.length);
    keys.push(key);
    workflows.push(resolution.value);
  }
  const own = workflows.map((wf, i) => {
    const refs = nodeRefs.get(keys[i] ?? "") ?? nodeRefsOf(wf, flowGraph(wf));
    return errorsOf(judge.findings(wf, refs));
  });
  // One entry per delegate edge, as the delegate's own DELEGATE_INVALID reports per edge.
  const targetsOf = delegateTargets(resolved.delegates);
  const out = keys.map((key) =>
    (targetsOf.get(key) ?? []).flatMap((ref) => {
      const j = indexOf.get(ref);
      return j === undefined ? [] : [j];
    }),
  );
  const callers: number[][] = keys.map(() => []);
  out.forEach((targets, i) => {
    for (const j of targets) callers[j]?.push(i);
  });
  const waived = keys.map((key) => judge.propagates && judge.waived(key));
  // Hops to the nearest delegate that fails rules of its own (-1: it does not fail), and which.
  const depth = new Int32Array(keys.length).fill(-1);
  const nearest = new Int32Array(keys.length);
  const queue: number[] = [];
  own.forEach(({ count }, i) => {
    if (count === 0) return;
    depth[i] = 0;
    nearest[i] = i;
    queue.push(i);
  });
  // A for-of over a growing array visits what is pushed during the walk: a FIFO queue.
  if (judge.propagates) {
    for (const u of queue) {
      for (const p of callers[u] ?? []) {
        if (depth[p] !== -1 || waived[p] === true) continue;
        depth[p] = (depth[u] ?? 0) + 1;
        nearest[p] = nearest[u] ?? p;
        queue.push(p);
      }
    }
  }
  const verdicts = new Map<string, DelegateVerdict>();
  keys.forEach((key, i) => {
    const hops = depth[i] ?? -1;
    if (hops < 0) return;
    const mine = own[i] ?? { codes: [], count: 0 };
    const failingDelegates =
      judge.propagates && waived[i] !== true
        ? (out[i] ?? []).filter((j) => (depth[j] ?? -1) >= 0).length
        : 0;
    const codes =
      failingDelegates > 0 && !mine.codes.includes(DELEGATE_INVALID)
        ? [...mine.codes, DELEGATE_INVALID].sort()
        : mine.codes;
    const at = nearest[i] ?? i;
    verdicts.set(key, {
      codes,
      errors: mine.count + failingDelegates,
      failing: keys[at] ?? key,
      failingCodes: own[at]?.codes ?? [],
      depth: hops,
    });
  });
  return verdicts;
}
