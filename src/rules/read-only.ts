/**
 * The read-only view a plugin's rule, code agentflow did not write, is given of the shared
 * context. Its check reads the same workflow, graph, facts, analysis and view the built-in
 * rules read and the policy packs and the verdict read after it: an edit in place (a filtered
 * `nodes`, a spliced tool list, a gate status set) would change what they judge, so one rule
 * could silence another or turn a verdict. Each value is wrapped in a proxy as the rule reaches
 * it: reads see the real value (wrapped in turn), and every write — an assignment, a delete,
 * `Object.defineProperty`, `Object.freeze`, a Map's `set` — throws a `TypeError` naming where,
 * which the run loop turns into `RULE_CRASHED` naming the rule. Nothing is copied up front and
 * nothing of the caller's is frozen: a library must not freeze its user's data. It guards against
 * mistakes, not against hostile code: a plugin runs in-process with the user's rights.
 */

/** The own function-valued properties of `object`. */
function functionsOf(object: object): unknown[] {
  return Reflect.ownKeys(object).flatMap((key) => {
    const value: unknown = Reflect.getOwnPropertyDescriptor(object, key)?.value;
    return typeof value === "function" ? [value] : [];
  });
}

/**
 * Built-ins that work on any receiver through its properties (as `Array.prototype.filter` does):
 * called on a view they read through it, and a write they make is refused by the view. Handed
 * out as they are, so that what they return (a filtered array) is the rule's own to change.
 */
const GENERIC: ReadonlySet<unknown> = new Set([
  ...functionsOf(Object.prototype),
  ...functionsOf(Array.prototype),
  ...functionsOf(Function.prototype),
  ...[Object, Array, Function, String, Number, Boolean, Symbol, BigInt, Map, Set, WeakMap],
  ...[WeakSet, Date, RegExp, Promise, Error, TypeError, RangeError, ArrayBuffer, DataView],
]);

const TYPED_ARRAY = Object.getPrototypeOf(Int8Array.prototype) as object;

/** The `set…` methods of a prototype (Date, DataView). */
function settersOf(proto: object): unknown[] {
  return Reflect.ownKeys(proto)
    .filter((key) => typeof key === "string" && key.startsWith("set"))
    .map((key) => Reflect.get(proto, key) as unknown);
}

/**
 * Built-in methods that change their receiver's internal state, which no proxy trap sees: called
 * through a view they are refused. Other built-in methods run on the real receiver (a Map's
 * `get` needs the Map itself), their results viewed in turn.
 */
/** The functions at `keys` of `object`, as values (never called here). */
function methodsOf(object: object, keys: readonly string[]): unknown[] {
  return keys.map((key) => Reflect.get(object, key) as unknown);
}

const MUTATING: ReadonlySet<unknown> = new Set([
  ...methodsOf(Map.prototype, ["set", "delete", "clear"]),
  ...methodsOf(Set.prototype, ["add", "delete", "clear"]),
  ...methodsOf(WeakMap.prototype, ["set", "delete"]),
  ...methodsOf(WeakSet.prototype, ["add", "delete"]),
  ...methodsOf(TYPED_ARRAY, ["set", "fill", "sort", "reverse", "copyWithin"]),
  ...settersOf(Date.prototype),
  ...settersOf(DataView.prototype),
  ...methodsOf(RegExp.prototype, ["compile"]),
]);

/** Views of one run's context, shared by the rules that run in it. */
export interface ReadOnlyViews {
  /** `value` as a rule may see it; `label` names it in the error a write raises. */
  view<T>(value: T, label: string): T;
}

type Key = string | symbol;

/**
 * What a view stands for: the real value and where the rule reached it. The label is put
 * together only for an error: a rule may reach 100,000 nodes, and writes none.
 */
interface Place {
  readonly real: object;
  readonly parent: Place | undefined;
  /** The key it was read at, `()` for what a call returned; the root's whole label otherwise. */
  readonly key: Key;
}

function labelOf(place: Place): string {
  const { parent, key } = place;
  if (parent === undefined) return String(key);
  const label = labelOf(parent);
  if (typeof key === "symbol") return `${label}[${String(key)}]`;
  if (key === "()") return `${label}(…)`;
  if (/^\d+$/.test(key)) return `${label}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${label}.${key}` : `${label}[${JSON.stringify(key)}]`;
}

function readOnly(place: Place, attempt: string): TypeError {
  return new TypeError(
    `${labelOf(place)} is read-only: a rule is given the shared context to read, never to change (it tried to ${attempt})`,
  );
}

const keyText = (key: Key): string => (typeof key === "symbol" ? String(key) : `'${key}'`);

/** An object or a function: what a view is made for. */
function isReference(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/**
 * Where a stand-in keeps its {@link Place}: a property of the stand-in itself, which the traps
 * read without a map lookup (configurable, so no invariant reports it).
 */
const PLACE: unique symbol = Symbol("place");
/** What a view answers with its real value; known to this module only. */
const REAL: unique symbol = Symbol("real");

type Shadow = object & { [PLACE]: Place };

/**
 * A fresh set of views. `mutating` names more functions to refuse when called through a view
 * (bpmn-moddle's `set`, which writes through the real element).
 */
export function readOnlyViews(mutating: (fn: unknown) => boolean = () => false): ReadOnlyViews {
  // One view per value, so that identity holds among what a rule reads (a node reached by the
  // graph is the node reached by the workflow).
  const views = new WeakMap<object, object>();

  const realOf = (value: object): object | undefined => (value as { [REAL]?: object })[REAL];
  const unwrap = (value: unknown): unknown =>
    isReference(value) ? (realOf(value) ?? value) : value;

  function make(value: object, parent: Place | undefined, key: Key): object {
    // The proxies' targets are empty stand-ins, so that a view of a frozen value may still hand
    // out views of its members (the proxy invariants bind what a trap reports to the target's
    // own properties). An arrow stands in for a function: callable, and without a
    // non-configurable `prototype`.
    const shadow = (
      Array.isArray(value) ? [] : typeof value === "function" ? () => undefined : {}
    ) as Shadow;
    shadow[PLACE] = { real: value, parent, key };
    const proxy = new Proxy(shadow, handler);
    views.set(value, proxy);
    return proxy;
  }

  /** `value` seen from `parent` at `key`: a view when it is an object or a function. */
  const viewAt = (value: unknown, parent: Place | undefined, key: Key): unknown => {
    if (!isReference(value)) return value;
    const known = views.get(value);
    if (known !== undefined) return known;
    if (typeof value === "function" && GENERIC.has(value)) return value;
    return realOf(value) === undefined ? make(value, parent, key) : value;
  };

  /** A function of the rule's, handed to a function of the context: what it is given is viewed. */
  const callback = (fn: (...args: unknown[]) => unknown, place: Place) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const given = args.map((a) => viewAt(a, place, "()"));
      return unwrap(Reflect.apply(fn, viewAt(this, place, "()"), given));
    };

  const handler: ProxyHandler<Shadow> = {
    get(shadow, key) {
      const place = shadow[PLACE];
      if (key === REAL) return place.real;
      return viewAt(Reflect.get(place.real, key, place.real), place, key);
    },
    getOwnPropertyDescriptor(shadow, key) {
      const place = shadow[PLACE];
      const found = Reflect.getOwnPropertyDescriptor(place.real, key);
      if (found === undefined) return undefined;
      if ("value" in found) found.value = viewAt(found.value, place, key);
      if (found.get !== undefined) found.get = viewAt(found.get, place, key) as () => unknown;
      if (found.set !== undefined)
        found.set = viewAt(found.set, place, key) as (v: unknown) => void;
      // An array's stand-in has a `length` of its own that cannot be reported configurable.
      if (Array.isArray(shadow) && key === "length") return { ...found, writable: true };
      return { ...found, configurable: true };
    },
    has: (shadow, key) => Reflect.has(shadow[PLACE].real, key),
    ownKeys: (shadow) => Reflect.ownKeys(shadow[PLACE].real),
    getPrototypeOf: (shadow) => Reflect.getPrototypeOf(shadow[PLACE].real),
    set(shadow, key) {
      throw readOnly(shadow[PLACE], `set ${keyText(key)}`);
    },
    defineProperty(shadow, key) {
      throw readOnly(shadow[PLACE], `define ${keyText(key)}`);
    },
    deleteProperty(shadow, key) {
      throw readOnly(shadow[PLACE], `delete ${keyText(key)}`);
    },
    setPrototypeOf(shadow) {
      throw readOnly(shadow[PLACE], "change its prototype");
    },
    preventExtensions(shadow) {
      throw readOnly(shadow[PLACE], "freeze, seal or close it");
    },
    apply(shadow, self, args: unknown[]) {
      const place = shadow[PLACE];
      const fn = place.real as (...a: unknown[]) => unknown;
      if (MUTATING.has(fn) || mutating(fn)) throw readOnly(place, "call a method that changes it");
      const given = args.map((a) =>
        typeof a === "function" && realOf(a) === undefined
          ? callback(a as (...xs: unknown[]) => unknown, place)
          : unwrap(a),
      );
      // Run on the real receiver: a method may read private fields or key a map by it.
      return viewAt(Reflect.apply(fn, unwrap(self), given), place, "()");
    },
  };
  return { view: (value, label) => viewAt(value, undefined, label) as typeof value };
}
