/**
 * Which names a condition reads. This runs on every parsed condition, simulable or not, because
 * the rules need it either way: a loop guarded by `output.a = 1 and output.b = 2` is structured
 * (CYCLE_WITHOUT_STOP), and `confidence > 0.5 or output.done = true` still routes on a
 * self-reported metric (DECISION_IMPLICIT_METRIC).
 *
 * The walk uses lezer's iterative `tree.iterate`, so a deeply nested tree costs no stack.
 */
import type { FeelNode, FeelTree } from "./tree.js";
import { nameOf } from "./tree.js";

/** One qualified name read by the condition. */
export interface NameRead {
  /** The qualified name, `output.a.b` or `confidence`. */
  readonly name: string;
  readonly root: string;
  /** The field path after the root; empty for a bare name. */
  readonly path: readonly string[];
  /** Offset into the parsed (rewritten) text. */
  readonly from: number;
}

/**
 * Names that a FEEL construct binds for its own body (`some x in … satisfies x > 1`, `for`,
 * function parameters, context keys). A use of them is not a read of the environment, so it must
 * not be reported as an unknown name.
 */
function boundNames(tree: FeelTree, text: string): Set<string> {
  const bound = new Set<string>();
  tree.iterate({
    enter(ref) {
      if (ref.name !== "Name") return;
      const parent = ref.node.parent?.name;
      if (parent === "InExpression" || parent === "ParameterName" || parent === "Key") {
        bound.add(nameOf(ref.node, text));
      }
    },
  });
  return bound;
}

/** The body of a filter (`list[…]`), where bare names are fields of each item, not reads. */
function isFilterBody(node: FeelNode): boolean {
  return node.parent?.name === "FilterExpression" && node.prevSibling?.name === "[";
}

/**
 * Follows a path chain (`output.a.b` is `(output.a).b`) down to its base. Returns the base node
 * and the path names outermost-last, or undefined when the chain is malformed.
 */
export function unwindPath(
  node: FeelNode,
  text: string,
): { readonly base: FeelNode; readonly path: string[] } | undefined {
  const reversed: string[] = [];
  let current: FeelNode = node;
  while (current.name === "PathExpression") {
    const pathName = current.getChild("PathName");
    const base = current.firstChild;
    if (pathName === null || base === null) return undefined;
    reversed.push(nameOf(pathName, text));
    current = base;
  }
  return { base: current, path: reversed.reverse() };
}

/**
 * Every name the condition reads from its environment, in source order, duplicates included.
 * Function names, type names, and names bound inside the expression are not reads; inside a
 * filter body only `output…` counts, since other names there are item fields.
 */
export function collectNameReads(tree: FeelTree, text: string): NameRead[] {
  const bound = boundNames(tree, text);
  const reads: NameRead[] = [];
  let filterDepth = 0;
  const record = (root: string, path: string[], from: number, filtered: boolean): void => {
    if (bound.has(root) || (filtered && root !== "output")) return;
    reads.push({ name: [root, ...path].join("."), root, path, from });
  };
  tree.iterate({
    enter(ref) {
      if (ref.name === "Type") return false;
      const node = ref.node;
      const body = isFilterBody(node);
      const filtered = filterDepth > 0 || body;
      const parent = node.parent?.name;
      if (ref.name === "PathExpression" && parent !== "PathExpression") {
        const chain = unwindPath(node, text);
        if (chain?.base.name === "VariableName") {
          record(nameOf(chain.base, text), chain.path, node.from, filtered);
          return false;
        }
      } else if (ref.name === "VariableName" && parent !== "PathExpression") {
        const callee = parent === "FunctionInvocation" && node.prevSibling === null;
        if (!callee && parent !== "QualifiedName") {
          record(nameOf(node, text), [], node.from, filtered);
        }
        return false;
      }
      if (body) filterDepth += 1;
      return undefined;
    },
    leave(ref) {
      if (isFilterBody(ref.node)) filterDepth -= 1;
    },
  });
  return reads;
}
