/**
 * The delegation graph among one validation's resolved delegates: each one's delegate edges,
 * parsed once to the canonical refs they name. DELEGATE_CYCLE, DELEGATE_INVALID's verdicts and
 * DELEGATE_UNRESOLVED's walk below the workflow all read it; built on first use and kept per
 * resolved map, which belongs to one validation. O(delegates + delegate edges).
 */
import type { AgentWorkflow } from "../model/index.js";
import { flowGraph, parseRef } from "../model/index.js";
import type { Resolution } from "./types.js";

/** One resolved delegate's delegate edges: the canonical ref of each edge whose `to` parses. */
export type DelegateTargets = ReadonlyMap<string, readonly string[]>;

const built = new WeakMap<ReadonlyMap<string, Resolution<AgentWorkflow>>, DelegateTargets>();

/**
 * Each resolved delegate's targets, by its canonical ref, in map order; an edge whose ref does
 * not parse is left out (DELEGATE_REF_INVALID, an error of that delegate's own).
 */
export function delegateTargets(
  delegates: ReadonlyMap<string, Resolution<AgentWorkflow>>,
): DelegateTargets {
  let out = built.get(delegates);
  if (out !== undefined) return out;
  const map = new Map<string, readonly string[]>();
  for (const [key, resolution] of delegates) {
    if (resolution.status !== "resolved") continue;
    const wf = resolution.value;
    const targets: string[] = [];
    for (const k of flowGraph(wf).delegateEdges) {
      const parsed = parseRef(wf.edges[k]?.to);
      if (parsed.ok) targets.push(parsed.canonical);
    }
    map.set(key, targets);
  }
  out = map;
  built.set(delegates, out);
  return out;
}
