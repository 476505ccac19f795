/**
 * How much work one evaluation of a `when` may do, bounded before it runs. feelin evaluates
 * eagerly and cannot be stopped: a `for` over a list a context entry holds, quantifiers nested
 * over a process's agent tasks, a list doubled by `concatenate` in each of thirty context
 * entries, or `replace` with a `$'` replacement hang the process or exhaust its heap, which V8
 * answers by aborting it.
 *
 * One walk gives every node an upper bound on the steps one evaluation of it takes, on the size
 * of the value it gives (a list's length, a string's) and on all that value holds (`deep`: what
 * `string()`, `distinct values` or `=` go through), each a polynomial in two sizes of the facts
 * the rule reads: L, the longest list (or the most keys of a record), and T, all they hold (every
 * value, and every character of every string). The judge evaluates the polynomial on each
 * subject's facts and leaves a subject undecided when the bound passes {@link MAX_WHEN_STEPS}
 * (feel.ts); a bound past it at L = T = 1 is a compile problem. Comparing two strings counts as
 * one step. A function may be defined only as `sort`'s ordering, whose parameters are the sorted
 * list's items: the bound of any other function's body would depend on arguments met after it.
 * Written by hand: no FEEL tool bounds an evaluation.
 */
import type { parseExpression } from "feelin";
import type { FactType } from "./fact-types.js";
import { BUILTINS } from "./feel-builtins.js";
import {
  argumentsOf,
  callOf,
  calleeName,
  children,
  contextKey,
  isFilterBody,
  isSortOrdering,
  keyOf,
  nameOf,
  type Node,
  PARAMETERS,
  stringValue,
} from "./feel-tree.js";

/**
 * The most steps an evaluation may take. A step of the bound is a node evaluated once or a value
 * copied; feelin took 0.2 to 0.7 s per four million of them on iteration-heavy rules (nested
 * `for`, filters over 100,000 tools), so this keeps one evaluation to a second or two while a
 * filter over a list of 100,000 still runs.
 */
export const MAX_WHEN_STEPS = 10_000_000;

/** Coefficients by degree: `p[i][j]` multiplies L^i·T^j; all ≥ 0, possibly Infinity. */
type Poly = readonly (readonly number[])[];

/** An upper bound on a `when`'s steps, for {@link stepsAt}. */
export interface WhenCost {
  readonly steps: Poly;
}

/** The sizes of a subject's facts the bound is evaluated at. */
export interface FactsSize {
  /** The longest list, or the most keys of a record. */
  readonly length: number;
  /** Every value the facts hold, and every character of every string. */
  readonly total: number;
}

const ZERO: Poly = [];
const ONE: Poly = [[1]];
const LENGTH: Poly = [[0], [1]];
const TOTAL: Poly = [[0, 1]];
const INFINITE: Poly = [[Number.POSITIVE_INFINITY]];
/** `sort` compares about n·log2(n) pairs; 64 bounds log2(n) for any list that fits in memory. */
const SORT_FACTOR = 64;
/** Shapes nest no deeper than this; a deeper one is of unbounded size (never met in a rule). */
const MAX_DEPTH = 8;

function combine(a: Poly, b: Poly, f: (x: number, y: number) => number): Poly {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => {
    const ra = a[i] ?? [];
    const rb = b[i] ?? [];
    return Array.from({ length: Math.max(ra.length, rb.length) }, (_, j) =>
      f(ra[j] ?? 0, rb[j] ?? 0),
    );
  });
}

const add = (a: Poly, b: Poly): Poly => combine(a, b, (x, y) => x + y);
/** At least both, for L, T ≥ 1 (every coefficient is ≥ 0). */
const max = (a: Poly, b: Poly): Poly => combine(a, b, Math.max);

function mul(a: Poly, b: Poly): Poly {
  const out: number[][] = [];
  for (const [i, row] of a.entries()) {
    for (const [j, x] of row.entries()) {
      if (x === 0) continue;
      for (const [k, other] of b.entries()) {
        for (const [m, y] of other.entries()) {
          if (y === 0) continue;
          while (out.length <= i + k) out.push([]);
          const r = out[i + k] ?? [];
          while (r.length <= j + m) r.push(0);
          r[j + m] = (r[j + m] ?? 0) + x * y;
        }
      }
    }
  }
  return out;
}

const sum = (polys: readonly Poly[]): Poly => polys.reduce(add, ZERO);
const times = (p: Poly, k: number): Poly => mul(p, [[k]]);

/** The bound's value on facts of `size` (each at least 1, so Infinity is never times 0). */
export function stepsAt(cost: WhenCost, size: FactsSize): number {
  const l = Math.max(1, size.length);
  const t = Math.max(1, size.total);
  let total = 0;
  cost.steps.forEach((row, i) => {
    row.forEach((c, j) => {
      if (c !== 0) total += c * l ** i * t ** j;
    });
  });
  return total;
}

/** A number of steps in words: `1,200,000`, or `unboundedly many`. */
export function stepsText(steps: number): string {
  return Number.isFinite(steps) && steps < 1e15
    ? Math.ceil(steps).toLocaleString("en-US")
    : "unboundedly many";
}

/** L and T of the facts an evaluation reads (see {@link FactsSize}): one iterative walk. */
export function factsSize(facts: unknown): FactsSize {
  let length = 0;
  let total = 0;
  const stack: unknown[] = [facts];
  while (stack.length > 0) {
    const value = stack.pop();
    total += 1;
    if (typeof value === "string") {
      total += value.length;
    } else if (Array.isArray(value)) {
      length = Math.max(length, value.length);
      for (const item of value as unknown[]) stack.push(item);
    } else if (typeof value === "object" && value !== null) {
      const values = Object.values(value);
      length = Math.max(length, values.length);
      for (const item of values) stack.push(item);
    }
  }
  return { length, total };
}

/** A value's size, what its items or fields are, and all it holds. */
interface Shape {
  readonly size: Poly;
  readonly item?: Shape;
  readonly fields?: ReadonlyMap<string, Shape>;
  /** All it holds, when more than its items' and fields' sizes say (a fact holds up to T). */
  readonly deep?: Poly;
  /** For `sort`'s ordering: the steps of one call. */
  readonly call?: Poly;
  readonly depth: number;
}

const SCALAR: Shape = { size: ONE, depth: 0 };
const UNBOUNDED: Shape = { size: INFINITE, deep: INFINITE, depth: 0 };
/** A fact the fact model types as a string or an object: one value, holding up to T. */
const FACT_VALUE: Shape = { size: ONE, deep: TOTAL, depth: 0 };
/** Any other fact: a list of at most L items (or a record of at most L keys), holding up to T. */
const FACT: Shape = { size: LENGTH, item: FACT_VALUE, deep: TOTAL, depth: 1 };

function shape(size: Poly, item?: Shape, fields?: ReadonlyMap<string, Shape>, deep?: Poly): Shape {
  let inner = item?.depth ?? -1;
  for (const f of fields?.values() ?? []) inner = Math.max(inner, f.depth);
  const depth = inner + 1;
  if (depth > MAX_DEPTH) return UNBOUNDED;
  return {
    size,
    depth,
    ...(item === undefined ? {} : { item }),
    ...(fields === undefined ? {} : { fields }),
    ...(deep === undefined ? {} : { deep }),
  };
}

/** A shape at least as large as both, in size, items, fields and all they hold. */
function join(a: Shape | undefined, b: Shape | undefined): Shape | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  let fields: Map<string, Shape> | undefined;
  if (a.fields !== undefined || b.fields !== undefined) {
    fields = new Map(a.fields);
    for (const [name, f] of b.fields ?? []) fields.set(name, join(fields.get(name), f) ?? f);
  }
  const deep =
    a.deep === undefined && b.deep === undefined ? undefined : max(deepSize(a), deepSize(b));
  return shape(max(a.size, b.size), join(a.item, b.item), fields, deep);
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
  if (of.item !== undefined) return shape(of.size, field(of.item, name), undefined, of.deep);
  return of.deep === undefined ? SCALAR : FACT;
}

/** All a value holds, counted down its items and fields (or as its `deep` says). */
function deepSize(of: Shape): Poly {
  if (of.deep !== undefined) return of.deep;
  let total = of.size;
  for (const f of of.fields?.values() ?? []) total = add(total, deepSize(f));
  if (of.item !== undefined) total = add(total, mul(of.size, deepSize(of.item)));
  return total;
}

/** Whether a value may hold others (a list, a context, a fact that is not a scalar). */
const holds = (of: Shape): boolean =>
  of.item !== undefined || of.fields !== undefined || of.deep !== undefined;

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

/** The bound of a call of the built-in `name` on arguments bounded by `args`, in order. */
function builtinBound(
  name: string,
  args: readonly Bound[],
  replacement: string | undefined,
): Bound {
  const [first, second, third] = args.map((a) => a.shape);
  const own = sum(args.map((a) => a.steps));
  const sizes = sum(args.map((a) => a.shape.size));
  const held = sum(args.map((a) => deepSize(a.shape)));
  const size0 = first?.size ?? ONE;
  const deep0 = first === undefined ? ONE : deepSize(first);
  const pattern = second === undefined ? ONE : deepSize(second);
  const result = (work: Poly, out: Shape): Bound => ({
    steps: add(add(own, work), ONE),
    shape: out,
  });
  switch (name) {
    case "sort": {
      const work = mul(times(size0, SORT_FACTOR), add(second?.call ?? INFINITE, ONE));
      return result(work, shape(size0, first?.item, undefined, first?.deep));
    }
    case "flatten":
      return result(deep0, shape(deep0, first === undefined ? undefined : innermost(first)));
    case "string":
      return result(deep0, shape(deep0));
    case "string join": {
      const out = add(deep0, mul(size0, second === undefined ? ONE : deepSize(second)));
      return result(out, shape(out));
    }
    case "replace": {
      // `$'` and `` $` `` insert what lies after or before each match: a string as long as the
      // input per match. A replacement not written out may hold them.
      const copies =
        replacement === undefined || /\$['`]/.test(replacement)
          ? add(deep0, ONE)
          : add(third === undefined ? ONE : deepSize(third), ONE);
      const out = mul(deep0, copies);
      // A safe pattern (feel-patterns.ts) is tried at each place of the input.
      return result(add(out, mul(deep0, add(pattern, ONE))), shape(out));
    }
    case "split": {
      // Parts as many as the characters at most, each as long as the input, all together as long.
      const parts = shape(add(deep0, ONE), shape(deep0), undefined, add(times(deep0, 2), ONE));
      return result(mul(deep0, add(pattern, ONE)), parts);
    }
    case "concatenate":
    case "union":
    case "append":
    case "insert before":
    case "list replace":
    case "sublist":
    case "remove":
    case "reverse": {
      // Lists of their list arguments' items, and of any other argument as an item.
      const items = joinAll(args.map((a) => a.shape.item ?? a.shape));
      const quadratic = name === "union" ? mul(held, held) : held;
      return result(quadratic, shape(add(sizes, [[args.length]]), items));
    }
    case "distinct values":
    case "duplicate values":
    case "mode":
    case "list contains":
    case "index of": {
      // Each item is compared, in depth, with the items before it (or with the one looked for).
      const work = mul(held, held);
      const items = joinAll(args.map((a) => a.shape.item ?? a.shape));
      return result(work, shape(add(sizes, ONE), items));
    }
    case "min":
    case "max":
      // One of the items (or of the arguments).
      return result(held, joinAll(args.map((a) => a.shape.item ?? a.shape)) ?? SCALAR);
    default: {
      if (BUILTINS.get(name)?.fixedSize === true) return result(held, SCALAR);
      // Any other built-in gives a scalar, or a list, string or context drawn from its arguments
      // (`get value`, `get entries`, `context put`, `substring`, `upper case`…): never more than
      // they hold together, and its items are theirs, their parts, or themselves.
      const item = joinAll(
        args.flatMap((a) => [a.shape, a.shape.item, ...(a.shape.fields?.values() ?? [])]),
      );
      return result(held, shape(add(held, [[args.length]]), item));
    }
  }
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
  if (start?.name === "StringLiteral" || end?.name === "StringLiteral") return [[52]];
  if (start?.name !== "NumericLiteral" || end?.name !== "NumericLiteral") return INFINITE;
  const from = Number(text.slice(start.from, start.to).replace(/\s+/g, ""));
  const to = Number(text.slice(end.from, end.to).replace(/\s+/g, ""));
  return Number.isFinite(from) && Number.isFinite(to) ? [[Math.abs(to - from) + 1]] : INFINITE;
}

/**
 * Bounds `when`'s work (see the module comment); `tree` is feelin's parse of `text`, without
 * syntax errors, and `typeOf` the fact model's type of a node (feel-check.ts). One iterative walk:
 * no recursion on the input's depth.
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

  /** A fact the fact model types: a scalar or an object is one value; a list has typed items. */
  const typed = (node: Node): Shape | undefined => {
    const type = typeOf(node);
    if (type.kind === "scalar") return type.base === "string" ? FACT_VALUE : SCALAR;
    if (type.kind === "object") return FACT_VALUE;
    return type.kind === "list" ? FACT : undefined;
  };
  /**
   * What a bare name holds: the nearest name bound, and inside a filter also the item's field of
   * that name (feelin looks there first, then outside); a fact when nothing binds it.
   */
  const lookup = (name: string): Shape => {
    let found: Shape | undefined;
    for (let i = scopes.length - 1; i >= 0; i -= 1) {
      const scope = scopes[i];
      if (scope?.kind === "name" && scope.name === name) return join(found, scope.shape) ?? FACT;
      if (scope?.kind === "item") {
        found = join(found, name === "item" ? scope.shape : field(scope.shape, name));
        if (name === "item") return found ?? FACT;
      }
    }
    return join(found, FACT) ?? FACT;
  };
  const argumentBounds = (call: Node, name: string): Bound[] =>
    argumentsOf(call, PARAMETERS.get(name), text).map((a) => boundOf(a) ?? LEAF);

  tree.iterate({
    enter(ref) {
      const node = ref.node;
      if (isFilterBody(node) && node.parent !== null) {
        const base = children(node.parent)[0];
        scopes.push({ kind: "item", shape: shapeOf(base).item ?? SCALAR, owner: keyOf(node) });
      }
      if (ref.name === "FunctionDefinition") {
        const call = callOf(node);
        const sorted =
          call === undefined ? undefined : argumentsOf(call, PARAMETERS.get("sort"), text)[0];
        if (!isSortOrdering(node, text)) {
          problems.push({
            from: node.from,
            message:
              "a 'when' may define a function only as sort's ordering (sort(tools, function(a, b) a.id < b.id)): what any other would cost cannot be bounded before it runs",
          });
        }
        const item = shapeOf(sorted).item ?? SCALAR;
        const parameters = node.getChild("FormalParameters")?.getChildren("FormalParameter") ?? [];
        for (const parameter of parameters) {
          const name = parameter.getChild("ParameterName");
          if (name === null) continue;
          const bound = nameOf(name.getChild("Name") ?? name, text);
          scopes.push({ kind: "name", name: bound, shape: item, owner: keyOf(node) });
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
        const label = contextKey(node, text);
        if (label !== undefined) {
          const entry = { kind: "name", name: label, shape: shapeOf(node) } as const;
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
      case "null":
        return LEAF;
      case "StringLiteral":
        return { steps: ONE, shape: shape([[node.to - node.from]]) };
      case "VariableName":
        if (node.parent?.name === "FunctionInvocation" && node.prevSibling === null)
          return undefined;
        {
          // The fact model's type holds for a fact, not for a name the expression binds.
          const name = nameOf(node, text);
          const bound = scopes.some((scope) => scope.kind === "name" && scope.name === name);
          return { steps: ONE, shape: (bound ? undefined : typed(node)) ?? lookup(name) };
        }
      case "PathExpression": {
        const [base] = parts;
        const step = node.getChild("PathName");
        const of = shapeOf(base);
        const name = step === null ? "" : nameOf(step, text);
        const steps = add(add(stepsOf(base), of.size), ONE);
        // A step into a fact takes the fact model's type; into a value the expression made, not.
        const fact = of.deep !== undefined && of.fields === undefined;
        return { steps, shape: (fact ? typed(node) : undefined) ?? field(of, name) };
      }
      case "FilterExpression": {
        const [base, , body] = parts;
        const of = shapeOf(base);
        const steps = add(stepsOf(base), mul(of.size, add(stepsOf(body), ONE)));
        const indexed = body?.name === "NumericLiteral" || body?.name === "ArithmeticExpression";
        return {
          steps,
          shape: indexed ? (of.item ?? SCALAR) : shape(of.size, of.item, undefined, of.deep),
        };
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
        let count: Poly = ONE;
        let steps: Poly = ZERO;
        for (const clause of clauses) {
          steps = add(steps, mul(count, stepsOf(clause)));
          count = mul(count, shapeOf(clause).size);
        }
        const body = node.lastChild;
        steps = add(steps, mul(count, add(stepsOf(body), ONE)));
        const list = node.name === "ForExpression";
        return { steps, shape: list ? shape(count, shapeOf(body)) : SCALAR };
      }
      case "IfExpression": {
        const [, test, , yes, , no] = parts;
        const steps = add(add(stepsOf(test), max(stepsOf(yes), stepsOf(no))), ONE);
        return { steps, shape: join(shapeOf(yes), shapeOf(no)) ?? SCALAR };
      }
      case "List": {
        const items = parts.filter((p) => p.name !== "[" && p.name !== "]" && p.name !== ",");
        const item = joinAll(items.map(shapeOf));
        const steps = add(sum(items.map(stepsOf)), [[items.length + 1]]);
        return { steps, shape: shape([[items.length]], item ?? SCALAR) };
      }
      case "Context": {
        const entries = node.getChildren("ContextEntry");
        const fields = new Map<string, Shape>();
        for (const entry of entries) {
          const label = contextKey(entry, text);
          if (label !== undefined) fields.set(label, shapeOf(entry));
        }
        const steps = add(sum(entries.map(stepsOf)), ONE);
        return { steps, shape: shape([[entries.length]], undefined, fields) };
      }
      case "ContextEntry":
        return boundOf(node.lastChild);
      case "FunctionDefinition": {
        const body = node.getChild("FunctionBody");
        return { steps: ONE, shape: { ...SCALAR, call: stepsOf(body) } };
      }
      case "FunctionInvocation": {
        const name = calleeName(node, text);
        if (name === undefined || scopes.some((s) => s.kind === "name" && s.name === name)) {
          return { steps: INFINITE, shape: UNBOUNDED };
        }
        const replacement =
          name === "replace"
            ? stringValue(argumentsOf(node, PARAMETERS.get(name), text)[2], text)
            : undefined;
        return builtinBound(name, argumentBounds(node, name), replacement);
      }
      case "Comparison": {
        // Lists and objects compare in depth, unless with null; two strings count as one step.
        const withNull = parts.some((p) => p.name === "null");
        const depth = (p: Node): Poly =>
          withNull || typeOf(p).kind === "scalar" || !holds(shapeOf(p))
            ? ONE
            : deepSize(shapeOf(p));
        const steps = add(add(sum(parts.map(stepsOf)), sum(parts.map(depth))), ONE);
        return { steps, shape: SCALAR };
      }
      case "ArithmeticExpression": {
        // `+` of two strings is as long as both.
        const size = sum(parts.map((p) => deepSize(shapeOf(p))));
        return { steps: add(add(sum(parts.map(stepsOf)), size), ONE), shape: shape(size) };
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
  return { cost: { steps: top }, problems };
}
