/**
 * A decision's cases as the IR transitions of its agent, taking the route agentflow takes.
 * agentflow takes the first case that holds; OAF's adapter (and agentflow's own importer) checks
 * an agent's conditional edges in IR order, then its conditional terminals, then falls back to
 * its first unconditional transition. So a case is conjoined with `not(...)` of every earlier case
 * the peer does not check before it: one whose transition comes later in that order, or one
 * written as the fallback. The cases to one target are one transition, the OR of their
 * conditions (OAF refuses a second edge between the same agents), and a case to the fallback's
 * target is the fallback itself.
 */
import type { OafExpr } from "./ir-types.js";

/** One case of a decision that gets written: its case index, target and condition tree. */
export interface PlannedCase {
  readonly k: number;
  /** An agent id, or `end`. */
  readonly target: string;
  readonly tree: OafExpr;
}

/** One conditional transition of the agent, in the order the peer checks it. */
export interface PlannedTransition {
  /** An agent id, or `end` for a terminal. */
  readonly target: string;
  readonly condition: OafExpr;
  /** The case indexes it stands for, in case order. */
  readonly cases: readonly number[];
}

/**
 * The most earlier cases one decision's cases may be checked against: n cases that the peer
 * checks in reverse need n²/2 negations, so past this bound the cases are declared rather than
 * written (a document of gigabytes).
 */
export const MAX_NEGATIONS = 100_000;

/**
 * The operands joined by `operator` as a balanced tree: a left-nested chain of n operands is n
 * deep, and an importer refuses a condition nested deeper than 64.
 */
function join(operator: "and" | "or", operands: readonly OafExpr[]): OafExpr {
  const [first] = operands;
  if (operands.length === 1 && first !== undefined) return first;
  const half = Math.ceil(operands.length / 2);
  return {
    type: "LogicalExpr",
    operator,
    left: join(operator, operands.slice(0, half)),
    right: join(operator, operands.slice(half)),
  };
}

/**
 * The conditional transitions of the cases, in peer order (edges by their first case, then the
 * terminal). `fallback` is the target of the unconditional transition written for `otherwise`,
 * if any: cases to it are left to it. Conditions stay as read when case order and peer order
 * agree, so an IR the compiler wrote comes back unchanged. `undefined` past
 * {@link MAX_NEGATIONS}.
 */
export function planTransitions(
  cases: readonly PlannedCase[],
  fallback: string | undefined,
): PlannedTransition[] | undefined {
  const position = new Map<string, number>();
  for (const c of cases)
    if (c.target !== fallback && c.target !== "end" && !position.has(c.target))
      position.set(c.target, position.size);
  if (cases.some((c) => c.target === "end" && c.target !== fallback))
    position.set("end", position.size);
  const order = [...position.keys()];
  // The fallback is checked after every conditional transition.
  const rank = (target: string): number => position.get(target) ?? order.length;
  const written = new Map<string, { conditions: OafExpr[]; cases: number[] }>();
  let checked = 0;
  let latest = -1;
  for (const [i, c] of cases.entries()) {
    const r = rank(c.target);
    const before = latest;
    latest = Math.max(latest, r);
    if (c.target === fallback) continue;
    const parts: OafExpr[] = [c.tree];
    // Only when an earlier case is checked later by the peer: a compiler's IR never needs one.
    if (r < before) {
      checked += i;
      if (checked > MAX_NEGATIONS) return undefined;
      for (let j = 0; j < i; j += 1) {
        const earlier = cases[j];
        if (earlier !== undefined && rank(earlier.target) > r)
          parts.push({ type: "UnaryExpr", operator: "not", right: earlier.tree });
      }
    }
    const group = written.get(c.target);
    if (group === undefined)
      written.set(c.target, { conditions: [join("and", parts)], cases: [c.k] });
    else {
      group.conditions.push(join("and", parts));
      group.cases.push(c.k);
    }
  }
  return order.flatMap((target) => {
    const group = written.get(target);
    return group === undefined
      ? []
      : [{ target, condition: join("or", group.conditions), cases: group.cases }];
  });
}

/** The state variables a condition tree reads, in tree order. */
export function identifiersOf(tree: OafExpr): string[] {
  switch (tree.type) {
    case "IdentifierExpr":
      return [tree.name];
    case "LiteralExpr":
      return [];
    case "UnaryExpr":
      return identifiersOf(tree.right);
    default:
      return [...identifiersOf(tree.left), ...identifiersOf(tree.right)];
  }
}
