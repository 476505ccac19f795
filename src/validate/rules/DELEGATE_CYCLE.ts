import { parseRef, pointer } from "../../model/index.js";
import { adjacencyFromLists, tarjanScc } from "../../model/index.js";
import { delegateTargets } from "../delegate-targets.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * The shortest path from `start` to `goal` inside one component, `[start, ..., goal]`; with
 * `start === goal` it is the shortest cycle through `start`. Both lie in a cyclic component, so a
 * path exists.
 */
function pathWithin(
  adj: readonly (readonly number[])[],
  sccOf: Int32Array,
  start: number,
  goal: number,
): number[] {
  const component = sccOf[start];
  const parent = new Map<number, number>([[start, start]]);
  const queue = [start];
  // A for-of over a growing array visits what is pushed during the walk: a FIFO queue.
  for (const u of queue) {
    for (const w of adj[u] ?? []) {
      if (sccOf[w] !== component) continue;
      if (w === goal) {
        const path = [goal];
        for (let x = u; ; x = parent.get(x) ?? start) {
          path.push(x);
          if (x === start) break;
        }
        return path.reverse();
      }
      if (!parent.has(w)) {
        parent.set(w, u);
        queue.push(w);
      }
    }
  }
  return [start, goal];
}

/**
 * Delegation that comes back to a workflow already on the chain never ends by construction: each
 * agent hands the task on, and no document bounds the recursion.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DELEGATE_CYCLE",
    defaultSeverity: "error",
    description: "Delegation leads back to a workflow already on the delegation chain",
    docs: "docs/rules/DELEGATE_CYCLE.md",
    messages: {
      default:
        'node "{{nodeId}}" delegates to "{{delegate}}", and the delegation chain loops: {{cycle}}',
    },
    remediation:
      "break the chain {{cycle}}: one of these workflows must do the work instead of delegating it",
  },
  check(context) {
    // `report` stays on the context: it is declared as a method, so it is not destructured.
    const { workflow, graph, facts } = context;
    // Findings are per delegate edge: without one, nothing to compute (not even the refs).
    if (graph.delegateEdges.length === 0) return;
    // The delegation graph: this workflow (index 0, with this document's edges, even if a
    // registry also holds a copy of it) and every resolved delegate; unresolved refs end a path.
    const written = `${workflow.id}@${workflow.version}`;
    const self = parseRef(written);
    const root = self.ok ? self.canonical : written;
    const keys = [root];
    const edgesOf: (readonly string[])[] = [[]];
    const indexOf = new Map<string, number>([[root, 0]]);
    for (const [key, targets] of delegateTargets(facts.resolved.delegates)) {
      if (indexOf.has(key)) continue;
      indexOf.set(key, keys.length);
      keys.push(key);
      edgesOf.push(targets);
    }
    const refs = facts.delegateRefs();
    const own = refs.map((r) => (r?.ok === true ? indexOf.get(r.canonical) : undefined));
    const adj = keys.map((_, v) => {
      const out = new Set<number>();
      if (v === 0) for (const w of own) if (w !== undefined) out.add(w);
      for (const to of edgesOf[v] ?? []) {
        const w = indexOf.get(to);
        if (w !== undefined) out.add(w);
      }
      return [...out];
    });
    const { sccOf, sccMembers } = tarjanScc(adjacencyFromLists(adj));
    const cyclicScc = new Uint8Array(sccMembers.offsets.length - 1);
    adj.forEach((out, v) => {
      const c = sccOf[v] ?? 0;
      const size = (sccMembers.offsets[c + 1] ?? 0) - (sccMembers.offsets[c] ?? 0);
      if (size > 1 || out.includes(v)) cyclicScc[c] = 1;
    });
    const reported = new Set<number>();
    const rootScc = sccOf[0] ?? 0;
    // Delegates seen from an earlier edge: their cycles are already named. The root is never
    // walked through, so each cycle is charged to the first edge that reaches it directly.
    const seen = new Uint8Array(keys.length);
    seen[0] = 1;
    // Only the delegate edges: the others are never loaded.
    graph.delegateEdges.forEach((index) => {
      const edge = workflow.edges[index];
      const t = own[index];
      const parsed = refs[index];
      if (edge?.edgeType !== "delegate" || t === undefined || parsed?.ok !== true) return;
      const emit = (chain: readonly number[]) => {
        const names = chain.map((v) => keys[v] ?? "?");
        context.report({
          target: { kind: "node", nodeId: edge.from },
          path: pointer("edges", index, "to"),
          data: {
            nodeId: edge.from,
            index,
            ref: edge.to,
            delegate: parsed.canonical,
            chain: names,
            cycle: names.join(" → "),
          },
        });
      };
      if (sccOf[t] === rootScc && cyclicScc[rootScc] === 1 && !reported.has(rootScc)) {
        reported.add(rootScc);
        emit(t === 0 ? [0, 0] : [0, ...pathWithin(adj, sccOf, t, 0)]);
      }
      if (seen[t] === 1) return;
      seen[t] = 1;
      const queue = [t];
      for (const v of queue) {
        const c = sccOf[v] ?? 0;
        if (cyclicScc[c] === 1 && !reported.has(c)) {
          reported.add(c);
          emit(pathWithin(adj, sccOf, v, v));
        }
        for (const w of adj[v] ?? []) {
          if (seen[w] === 1) continue;
          seen[w] = 1;
          queue.push(w);
        }
      }
    });
  },
});
