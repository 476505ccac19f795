/**
 * How much work one evaluation of a `when` may do, bounded before it runs. feelin evaluates
 * eagerly and cannot be stopped: a `for` over a list a context entry holds, quantifiers nested
 * over a process's agent tasks, or a list doubled by `concatenate` in each of thirty context
 * entries hang the process or exhaust its heap, which V8 answers by aborting it.
 *
 * One walk gives every node an upper bound on the steps one evaluation of it takes and on the
 * size of the value it gives (a list's length, a string's), each a polynomial in L: the length of
 * the longest list (or the most keys of an object) among the facts the rule reads, and of the
 * longest string too when the expression turns strings into lists (`split`). The judge evaluates
 * the polynomial on each subject's facts and leaves a subject undecided when the bound passes
 * {@link MAX_WHEN_STEPS} (feel.ts); a bound past it at L = 1 is a compile problem. A function may
 * be defined only as `sort`'s ordering, whose parameters are the sorted list's items: the bound of
 * any other function's body would depend on arguments met after it. Written by hand: no FEEL tool
 * bounds an evaluation.
 */
import type { parseExpression } from "feelin";
import type { FactType } from "./fact-types.js";
import {
  argumentsOf,
  calleeName,
  children,
  isFilterBody,
  isSortOrdering,
  keyOf,
  nameOf,
  type Node,
} from "./feel-tree.js";

/**
 * The most steps an evaluation may take. A step of the bound is a node evaluated once or a value
 * copied; feelin took 0.2 to 0.7 s per four million of them on iteration-heavy rules (nested
 * `for`, filters over 100,000 tools), so this keeps one evaluation to a second or two while a
 * filter over a list of 100,000 still runs.
 */
export const MAX_WHEN_STEPS = 10_000_000;

/** Coefficients by degree in L, all ≥ 0 (a coefficient may be Infinity). */
type Poly = readonly number[];

/** An upper bound on a `when`'s steps, for {@link stepsAt}. */
export interface WhenCost {
  readonly steps: Poly;
  /** L counts the facts' string lengths too: the expression makes lists of strings' parts. */
  readonly stringLists: boolean;
}

const ZERO: Poly = [];
const ONE: Poly = [1];
const LENGTH: Poly = [0, 1];
const INFINITE: Poly = [Number.POSITIVE_INFINITY];
/** `sort` compares about n·log2(n) pairs; 64 bounds log2(n) for any list that fits in memory. */
const SORT_FACTOR = 64;
/** Shapes nest no deeper than this; a deeper one is of unbounded size (never met in a rule). */
const MAX_DEPTH = 8;

const add = (a: Poly, b: Poly): Poly =>
  Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));

const max = (a: Poly, b: Poly): Poly =>
  Array.from({ length: Math.max(a.length, b.length) }, (_, i) => Math.max(a[i] ?? 0, b[i] ?? 0));

function mul(a: Poly, b: Poly): Poly {
  const out = new Array<number>(Math.max(0, a.length + b.length - 1)).fill(0);
  a.forEach((x, i) => {
    if (x === 0) return;
    b.forEach((y, j) => {
      if (y !== 0) out[i + j] = (out[i + j] ?? 0) + x * y;
    });
  });
  return out;
}

const sum = (polys: readonly Poly[]): Poly => polys.reduce(add, ZERO);

/** The bound's value at L (at least 1, so that an infinite coefficient is never multiplied by 0). */
export function stepsAt(cost: WhenCost, length: number): number {
  const l = Math.max(1, length);
  let total = 0;
  cost.steps.forEach((c, degree) => {
    total += c * l ** degree;
  });
  return total;
}

/** A number of steps in words: `1,200,000`, or `unboundedly many`. */
export function stepsText(steps: number): string {
  return Number.isFinite(steps) && steps < 1e15
    ? Math.ceil(steps).toLocaleString("en-US")
    : "unboundedly many";
}

/**
 * L for a subject: the longest list, or the most keys of an object, among `facts` (and the
 * longest string when `strings`). One iterative walk over the facts an evaluation reads.
 */
export function factsLength(facts: unknown, strings: boolean): number {
  let longest = 0;
  const stack: unknown[] = [facts];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (strings) longest = Math.max(longest, value.length);
    } else if (Array.isArray(value)) {
      longest = Math.max(longest, value.length);
      for (const item of value as unknown[]) stack.push(item);
    } else if (typeof value === "object" && value !== null) {
      const values = Object.values(value);
      longest = Math.max(longest, values.length);
      for (const item of values) stack.push(item);
    }
  }
  return longest;
}

/** A value's size, and what its items, or its fields, are. */
interface Shape {
  readonly size: Poly;
  readonly item?: Shape;
  readonly fields?: ReadonlyMap<string, Shape>;
  /** For `sort`'s ordering: the steps of one call. */
  readonly call?: Poly;
  readonly depth: number;
}

const SCALAR: Shape = { size: ONE, depth: 0 };
const UNBOUNDED: Shape = { size: INFINITE, depth: 0 };
/** An item of a fact list: an object or a scalar, whose fields are facts. */
const FACT_ITEM: Shape = { size: ONE, depth: 0 };
/** A fact: a list of at most L items (or a string, a record of at most L keys). */
const FACT: Shape = { size: LENGTH, item: FACT_ITEM, depth: 1 };

function shape(size: Poly, item?: Shape, fields?: ReadonlyMap<string, Shape>): Shape {
  let inner = item?.depth ?? -1;
  for (const f of fields?.values() ?? []) inner = Math.max(inner, f.depth);
  const depth = inner + 1;
  if (depth > MAX_DEPTH) return UNBOUNDED;
  return {
    size,
    depth,
    ...(item === undefined ? {} : { item }),
    ...(fields === undefined ? {} : { fields }),
  };
}

/** A shape at least as large as both, in size, items and fields. */
function join(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  let fields: Map<string, Shape> | undefined;
  if (a.fields !== undefined || b.fields !== undefined) {
    fields = new Map(a.fields);
    for (const [name, f] of b.fields ?? []) fields.set(name, join(fields.get(name), f) ?? f);
  }
  return shape(max(a.size, b.size), join(a.item, b.item), fields);
}

/** Any of `shapes`, joined. */
function joinAll(shapes: Iterable<Shape | undefined>): Shape | undefined {
  let out: Shape | undefined;
  for (const s of shapes) out = join(out, s);
  return out;
}

/**
 * A path step: a field of an object, or of each item of a list (a list of them). A name a
 * context does not hold may be one a function put there (`get entries` gives `value`): any field.
 */
function field(of: Shape, name: string): Shape {
  if (of.fields !== undefined) return of.fields.get(name) ?? joinAll(of.fields.values()) ?? SCALAR;
  if (of.item !== undefined) return shape(of.size, field(of.item, name));
  return of === FACT_ITEM ? FACT : SCALAR;
}

/**
 * Everything a value holds, counted down its items and fields: what `flatten`, `string` or a
 * function that takes a value apart (`get value`, `get entries`) can give.
 */
function deepSize(of: Shape): Poly {
  let total = of.size;
  for (const f of of.fields?.values() ?? []) total = add(total, deepSize(f));
  if (of.item !== undefined) total = add(total, mul(of.size, deepSize(of.item)));
  return total;
}

/** The innermost items of a value: what `flatten` gives a list of. */
function innermost(of: Shape): Shape {
  let at = of;
  while (at.item !== undefined) at = at.item;
  return at;
}

interface Bound {
  readonly steps: Poly;
  readonly shape: Shape;
}

const LEAF: Bound = { steps: ONE, shape: SCALAR };

/** The bound of a call of the built-in `name` on arguments bounded by `args`. */
function builtinBound(name: string, args: readonly Bound[]): Bound {
  const [first, second, third] = args.map((a) => a.shape);
  const own = sum(args.map((a) => a.steps));
  const sizes = sum(args.map((a) => a.shape.size));
  const size0 = first?.size ?? ONE;
  const result = (work: Poly, out: Shape): Bound => ({
    steps: add(add(own, work), ONE),
    shape: out,
  });
  switch (name) {
    case "sort": {
      const work = mul(mul(size0, [SORT_FACTOR]), add(second?.call ?? INFINITE, ONE));
      return result(work, shape(size0, first?.item));
    }
    case "flatten":
    case "string": {
      const deep = first === undefined ? ONE : deepSize(first);
      const items = name === "flatten" && first !== undefined ? innermost(first) : undefined;
      return result(deep, shape(deep, items));
    }
    case "string join": {
      const out = mul(size0, add(first?.item?.size ?? ONE, second?.size ?? ONE));
      return result(out, shape(out));
    }
    case "replace": {
      const out = mul(size0, add(third?.size ?? ONE, ONE));
      return result(mul(size0, add(sizes, ONE)), shape(out));
    }
    case "split":
      return result(
        mul(size0, add(second?.size ?? ONE, ONE)),
        shape(add(size0, ONE), shape(size0)),
      );
    case "concatenate":
    case "union":
    case "distinct values":
    case "duplicate values":
    case "sublist":
    case "remove":
    case "reverse":
    case "mode": {
      // Lists of the items of their list arguments.
      const items = joinAll(args.map((a) => a.shape.item));
      return result(sizes, shape(sizes, items));
    }
    case "append":
    case "insert before":
    case "list replace": {
      // The first argument's items, and the other arguments as items.
      const items = joinAll([first?.item, ...args.slice(1).map((a) => a.shape)]);
      return result(sizes, shape(add(sizes, [args.length]), items));
    }
    default: {
      // Any other built-in gives a scalar, or a list, string or context drawn from its arguments
      // (`append`, `concatenate`, `union`, `sublist`, `get value`, `get entries`…): never more
      // than they hold together, and its items are theirs, their parts, or themselves.
      const held = sum(args.map((a) => deepSize(a.shape)));
      const item = joinAll(
        args.flatMap((a) => [a.shape, a.shape.item, ...(a.shape.fields?.values() ?? [])]),
      );
      return result(held, shape(add(held, [args.length]), item));
    }
  }
}

/** The built-ins that turn a string into a list of its parts. */
const STRING_LISTS = new Set(["split"]);

/** Whether `when` calls a built-in that turns a string into a list. */
function usesStringLists(tree: ReturnType<typeof parseExpression>, text: string): boolean {
  let found = false;
  tree.iterate({
    enter(ref) {
      if (ref.name !== "FunctionInvocation") return !found;
      const name = calleeName(ref.node, text);
      if (name !== undefined && STRING_LISTS.has(name)) found = true;
      return !found;
    },
  });
  return found;
}

/** What {@link whenCost} found: the bound, and where a function is defined outside `sort`. */
export interface CostCheck {
  readonly cost: WhenCost;
  readonly problems: readonly { readonly from: number; readonly message: string }[];
}

type Scope =
  | { readonly kind: "name"; readonly name: string; readonly shape: Shape; readonly owner: string }
  | { readonly kind: "item"; readonly shape: Shape; readonly owner: string };

/** How many values a range of these bounds gives (feel-iterate.ts admits only literals). */
function rangeSize(start: Node | undefined, end: Node | undefined, text: string): Poly {
  // feelin enumerates letter ranges over a-z and A-Z only: at most 52 values.
  if (start?.name === "StringLiteral" || end?.name === "StringLiteral") return [52];
  if (start?.name !== "NumericLiteral" || end?.name !== "NumericLiteral") return INFINITE;
  const from = Number(text.slice(start.from, start.to).replace(/\s+/g, ""));
  const to = Number(text.slice(end.from, end.to).replace(/\s+/g, ""));
  return Number.isFinite(from) && Number.isFinite(to) ? [Math.abs(to - from) + 1] : INFINITE;
}

/**
 * Bounds `when`'s work (see the module comment); `tree` is feelin's parse of `text`, without
 * syntax errors. One iterative walk: no recursion on the input's depth.
 */
export function whenCost(
  tree: ReturnType<typeof parseExpression>,
  text: string,
  typeOf: (node: Node) => FactType,
): CostCheck {
  const bounds = new Map<string, Bound>();
  const scopes: Scope[] = [];
  const problems: { from: number; message: string }[] = [];
  const boundOf = (node: Node | null | undefined): Bound | undefined =>
    node === null || node === undefined ? undefined : bounds.get(keyOf(node));
  const stepsOf = (node: Node | null | undefined): Poly => boundOf(node)?.steps ?? ZERO;
  const shapeOf = (node: Node | null | undefined): Shape => boundOf(node)?.shape ?? SCALAR;

  // A string fact is one value, unless the rule makes lists of strings' parts: then L counts
  // strings, and a string fact is as long as L.
  const stringLists = usesStringLists(tree, text);
  const scalar = (node: Node): boolean => {
    const type = typeOf(node);
    return type.kind === "scalar" && (!stringLists || type.base !== "string");
  };
  const lookup = (name: string): Shape => {
    for (let i = scopes.length - 1; i >= 0; i -= 1) {
      const scope = scopes[i];
      if (scope?.kind === "name" && scope.name === name) return scope.shape;
      if (scope?.kind === "item") return name === "item" ? scope.shape : field(scope.shape, name);
    }
    return FACT;
  };

  tree.iterate({
    enter(ref) {
      const node = ref.node;
      if (isFilterBody(node) && node.parent !== null) {
        const base = children(node.parent)[0];
        scopes.push({ kind: "item", shape: shapeOf(base).item ?? SCALAR, owner: keyOf(node) });
      }
      if (ref.name === "FunctionDefinition") {
        const call = node.parent?.parent;
        const sorted = call === null || call === undefined ? undefined : argumentsOf(call)[0];
        if (!isSortOrdering(node, text)) {
          problems.push({
            from: node.from,
            message:
              "a 'when' may define a function only as sort's ordering (sort(tools, function(a, b) a.id < b.id)): what any other would cost cannot be bounded before it runs",
          });
        }
        const item = shapeOf(sorted).item ?? SCALAR;
        for (const parameter of node.getChild("FormalParameters")?.getChildren("FormalParameter") ??
          []) {
          const name = parameter.getChild("ParameterName");
          if (name !== null) {
            const owner = keyOf(node);
            scopes.push({
              kind: "name",
              name: nameOf(name.getChild("Name") ?? name, text),
              shape: item,
              owner,
            });
          }
        }
      }
      return !(ref.name === "Type" || ref.name === "LineComment" || ref.name === "BlockComment");
    },
    leave(ref) {
      const node = ref.node;
      const key = keyOf(node);
      const bound = leave(node);
      if (bound !== undefined) bounds.set(key, bound);
      if (ref.name === "InExpression") {
        const [name] = children(node);
        const owner = node.parent?.parent;
        if (name !== undefined && owner !== null && owner !== undefined) {
          const item = shapeOf(node).item ?? SCALAR;
          scopes.push({ kind: "name", name: nameOf(name, text), shape: item, owner: keyOf(owner) });
        }
      } else if (ref.name === "ContextEntry" && node.parent !== null) {
        const label = children(node)[0]?.getChild("Name");
        if (label !== null && label !== undefined) {
          const entry = { kind: "name", name: nameOf(label, text), shape: shapeOf(node) } as const;
          scopes.push({ ...entry, owner: keyOf(node.parent) });
        }
      }
      while (scopes.length > 0 && scopes[scopes.length - 1]?.owner === key) scopes.pop();
    },
  });

  function leave(node: Node): Bound | undefined {
    const parts = children(node);
    switch (node.name) {
      case "NumericLiteral":
      case "BooleanLiteral":
      case "NullLiteral":
        return LEAF;
      case "StringLiteral":
        return { steps: ONE, shape: shape([node.to - node.from]) };
      case "VariableName":
        if (node.parent?.name === "FunctionInvocation" && node.prevSibling === null)
          return undefined;
        // A fact the fact model types as a scalar (a level, an effect, a name) is one value.
        return { steps: ONE, shape: scalar(node) ? SCALAR : lookup(nameOf(node, text)) };
      case "PathExpression": {
        const [base] = parts;
        const step = node.getChild("PathName");
        const of = shapeOf(base);
        const name = step === null ? "" : nameOf(step, text);
        const steps = add(add(stepsOf(base), of.size), ONE);
        return { steps, shape: scalar(node) ? SCALAR : field(of, name) };
      }
      case "FilterExpression": {
        const [base, , body] = parts;
        const of = shapeOf(base);
        const steps = add(stepsOf(base), mul(of.size, add(stepsOf(body), ONE)));
        const indexed = body?.name === "NumericLiteral" || body?.name === "ArithmeticExpression";
        return { steps, shape: indexed ? (of.item ?? SCALAR) : shape(of.size, of.item) };
      }
      case "IterationContext": {
        if (!parts.some((p) => p.name === "..")) return boundOf(parts[0]);
        const [start, , end] = parts;
        const count = rangeSize(start, end, text);
        return { steps: count, shape: shape(count, SCALAR) };
      }
      case "InExpression":
        return boundOf(parts[2]);
      case "ForExpression":
      case "QuantifiedExpression": {
        const clauses = node.getChild("InExpressions")?.getChildren("InExpression") ?? [];
        let times: Poly = ONE;
        let steps: Poly = ZERO;
        for (const clause of clauses) {
          steps = add(steps, mul(times, stepsOf(clause)));
          times = mul(times, shapeOf(clause).size);
        }
        const body = node.lastChild;
        steps = add(steps, mul(times, add(stepsOf(body), ONE)));
        return {
          steps,
          shape: node.name === "ForExpression" ? shape(times, shapeOf(body)) : SCALAR,
        };
      }
      case "IfExpression": {
        const [, test, , yes, , no] = parts;
        const steps = add(add(stepsOf(test), max(stepsOf(yes), stepsOf(no))), ONE);
        return { steps, shape: join(shapeOf(yes), shapeOf(no)) ?? SCALAR };
      }
      case "List": {
        const items = parts.filter((p) => p.name !== "[" && p.name !== "]" && p.name !== ",");
        let item: Shape | undefined;
        for (const i of items) item = join(item, shapeOf(i));
        const steps = add(sum(items.map(stepsOf)), [items.length + 1]);
        return { steps, shape: shape([items.length], item ?? SCALAR) };
      }
      case "Context": {
        const entries = node.getChildren("ContextEntry");
        const fields = new Map<string, Shape>();
        for (const entry of entries) {
          const label = entry.getChild("Key")?.getChild("Name");
          if (label !== null && label !== undefined)
            fields.set(nameOf(label, text), shapeOf(entry));
        }
        return {
          steps: add(sum(entries.map(stepsOf)), ONE),
          shape: shape([entries.length], undefined, fields),
        };
      }
      case "ContextEntry":
        return boundOf(node.lastChild);
      case "FunctionDefinition": {
        const body = node.getChild("FunctionBody");
        return { steps: ONE, shape: { ...SCALAR, call: stepsOf(body) } };
      }
      case "FunctionInvocation": {
        const name = calleeName(node, text);
        const args = argumentsOf(node).map((a) => boundOf(a) ?? LEAF);
        if (name === undefined || scopes.some((s) => s.kind === "name" && s.name === name)) {
          return { steps: INFINITE, shape: UNBOUNDED };
        }
        return builtinBound(name, args);
      }
      case "Comparison":
      case "ArithmeticExpression": {
        const steps = add(
          add(sum(parts.map(stepsOf)), sum(parts.map((p) => shapeOf(p).size))),
          ONE,
        );
        const size = node.name === "Comparison" ? ONE : sum(parts.map((p) => shapeOf(p).size));
        return { steps, shape: shape(size) };
      }
      default: {
        const meaningful = parts.filter((p) => bounds.has(keyOf(p)));
        const steps = add(sum(meaningful.map(stepsOf)), ONE);
        const [only] = meaningful;
        return { steps, shape: meaningful.length === 1 ? shapeOf(only) : SCALAR };
      }
    }
  }

  const top = boundOf(tree.topNode)?.steps ?? INFINITE;
  return { cost: { steps: top, stringLists }, problems };
}
