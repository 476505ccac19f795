/**
 * Where a thrown error or escalation goes (BPMN 2.0, 10.5.6; docs/bpmn.md): from the scope of
 * the throwing event outwards, the first scope with a matching catcher takes it. A scope's
 * catchers are the error (escalation) boundary events on its sub-process and the error
 * (escalation) start events of its event sub-processes; one that names the same error code (or
 * the same error element) wins over a catch-all of the same scope. A code written as FEEL, on
 * either side, is known only when thrown: such a pair may match, so the catcher is among those
 * that may take it, and the search goes on as if it did not. Answers are kept per scope and key,
 * so a deep nesting of sub-processes is walked once however many events throw in it.
 */
import { COMPUTED_REF, EventKind } from "./event-facts.js";
import type { ProcessIndex } from "./process-index.js";
import { NodeFlag } from "./process-index.js";

/** Who catches one thrown event. */
export interface Caught {
  /** The catching boundary or start events; empty when nothing catches it. */
  readonly nodes: readonly number[];
  /** True when a catcher cancels the scope it catches for. */
  readonly interrupting: boolean;
  /**
   * True when it may also be caught by none of `nodes`: a code written as FEEL may match none of
   * the named catchers it passes, and no catch-all lies beyond them.
   */
  readonly mayEscape: boolean;
}

const NOBODY: Caught = { nodes: [], interrupting: false, mayEscape: false };

/**
 * A memoised `node → Caught` for the error and escalation end events and the escalation
 * intermediate throw events of `index`.
 */
export function throwCatchers(index: ProcessIndex): (node: number) => Caught {
  const { kind, ref, interrupting } = index.events;
  const byScope = new Map<number, number[]>();
  const add = (scope: number, node: number): void => {
    const list = byScope.get(scope);
    if (list === undefined) byScope.set(scope, [node]);
    else list.push(node);
  };
  for (let i = 0; i < index.flags.length; i++) {
    const k = kind[i] ?? EventKind.none;
    if (k !== EventKind.error && k !== EventKind.escalation) continue;
    const flags = index.flags[i] ?? 0;
    if ((flags & NodeFlag.boundaryEvent) !== 0) {
      // A boundary on a sub-process catches what is thrown inside it.
      const scope = index.opens[index.attachedTo[i] ?? -1] ?? -1;
      if (scope >= 0) add(scope, i);
    } else if ((flags & NodeFlag.startEvent) !== 0) {
      const eventSub = index.containers[index.container[i] ?? -1];
      if (eventSub?.kind === "event-sub-process") add(eventSub.parent, i);
    }
  }
  const memo = new Map<string, Caught>();
  return (node) => {
    const k = kind[node] ?? EventKind.none;
    // End events throw, and intermediate throw events escalate (BPMN has no intermediate error
    // throw); a boundary or start event of the same kind catches.
    const flags = index.flags[node] ?? 0;
    if ((flags & NodeFlag.endEvent) !== 0) {
      if (k !== EventKind.error && k !== EventKind.escalation) return NOBODY;
    } else if ((flags & NodeFlag.throwEvent) === 0 || k !== EventKind.escalation) return NOBODY;
    const key = `${String(k)}\u0000${ref[node] ?? ""}`;
    const visited: number[] = [];
    // Catchers that may take it only if a computed code turns out to match; the search goes on.
    const maybe: number[] = [];
    let answer: Caught | undefined;
    for (let scope = index.container[node] ?? -1; scope >= 0;) {
      const known = memo.get(`${String(scope)}\u0000${key}`);
      if (known !== undefined) {
        answer = known;
        break;
      }
      visited.push(scope);
      const candidates = (byScope.get(scope) ?? []).filter((c) => kind[c] === k);
      const thrown = ref[node];
      const computed = (c: number): boolean =>
        ref[c] !== undefined && (ref[c] === COMPUTED_REF || thrown === COMPUTED_REF);
      const named = candidates.filter(
        (c) => ref[c] !== undefined && ref[c] === thrown && thrown !== COMPUTED_REF,
      );
      const found = named.length > 0 ? named : candidates.filter((c) => ref[c] === undefined);
      maybe.push(...candidates.filter(computed));
      if (found.length > 0) {
        const stops = found.some((c) => interrupting[c] === 1);
        answer = { nodes: found, interrupting: stops, mayEscape: false };
        break;
      }
      scope = index.containers[scope]?.parent ?? -1;
    }
    const result = answer ?? NOBODY;
    if (maybe.length > 0) {
      // Depends on the path walked, not only on the scope and key: not memoised.
      const nodes = [...new Set([...maybe, ...result.nodes])];
      const mayEscape = result.nodes.length === 0 || result.mayEscape;
      return { nodes, interrupting: nodes.some((c) => interrupting[c] === 1), mayEscape };
    }
    for (const scope of visited) memo.set(`${String(scope)}\u0000${key}`, result);
    return result;
  };
}
