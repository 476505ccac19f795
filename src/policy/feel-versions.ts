/**
 * Versions ordered, refused before anything runs. A version (a tool's, a workflow's) and a ref,
 * which ends in one, are text to FEEL, and FEEL orders text character by character: `"1.10.0" <
 * "1.9.0"` is true, so `t.version < "1.10.0"` is false for `1.9.0` and a rule meant for old
 * versions misses it. What marks a fact as one is the check of its literals (fact-types.ts): a
 * version held in full, a ref in its canonical form.
 */
import { agentWorkflowRef, canonicalRef, fullVersion } from "./fact-literals.js";
import type { FactType } from "./fact-types.js";
import type { Node } from "./feel-tree.js";

/** A problem at an offset into the expression. */
export interface VersionProblem {
  readonly from: number;
  readonly message: string;
}

/** What a fact that holds a version is, in words, and what to compare it with instead. */
function versionKind(
  type: FactType,
  shown: string,
): { words: string; ordered: string; instead: string } | undefined {
  if (type.kind !== "scalar") return undefined;
  if (type.never === fullVersion) {
    return {
      words: "a version",
      ordered: "versions",
      instead: `'in' a list of the versions meant: ${shown} in ["1.9.0", "1.10.0"]`,
    };
  }
  if (type.never === canonicalRef || type.never === agentWorkflowRef) {
    return {
      words: "a ref",
      ordered: "refs by version",
      instead: "'in' a list of the refs meant",
    };
  }
  return undefined;
}

/**
 * The problem of an ordering (`<`, `<=`, `>`, `>=`, `between`, a range, a unary test like `<
 * "2.0.0"`) one of whose `sides` is a version or a ref; undefined when none is.
 */
export function versionOrderProblem(
  sides: readonly Node[],
  text: string,
  typeOf: (node: Node) => FactType,
): VersionProblem | undefined {
  for (const side of [...sides].sort((a, b) => a.from - b.from)) {
    const shown = text.slice(side.from, side.to);
    const kind = versionKind(typeOf(side), shown);
    if (kind === undefined) continue;
    return {
      from: side.from,
      message: `'${shown}' is ${kind.words}, which FEEL holds as text: ordering it compares characters ("1.10.0" < "1.9.0" is true), so this comparison does not order ${kind.ordered} (compare with '=', or ${kind.instead})`,
    };
  }
  return undefined;
}
