/**
 * The names a `langgraph-gen` spec may hold, as langgraph-gen 0.0.6 (`langchain-ai/langgraph-gen-py`,
 * `generate.py` and its Jinja templates) uses them. It pastes the spec's `name` unchanged as the
 * stub function's name (`def <name>(` in Python, `export function <name>(` in TypeScript); it
 * maps each node name to an implementation name by `re.sub(r"\W", "_", name)` and writes that
 * as a Python function (`def <impl>(state)`) and a key of one `impl` table shared with the
 * conditions; it pastes each `condition` unchanged as a function name in the same table; and it
 * writes node names inside `"…"` for LangGraph's `add_node`, which refuses `:` and `|` in a node
 * name. So the graph name must be an identifier of both languages and not a name the stub module
 * binds; implementation names (node ids mapped, and conditions) must be Python identifiers, not
 * keywords, not what the generated implementation module calls (`print`, `SomeState`), and
 * unique; node names must keep clear of `:`. And the router function a decision's cases were
 * imported from, to write it back. docs/interop/langgraph-gen.md.
 */

import type { DecisionRoute } from "../../model/index.js";
import { mapIds } from "../ids.js";
import { LANGGRAPH_ID_PREFIX } from "../langgraph-graph/ids.js";
import type { LangGraphGenEdge } from "./gen-types.js";

/** The spec's end of the run, never renamed. */
const END = "__end__";

/** Python 3 keywords: none can name a function (`def None(` is a syntax error). */
const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while " +
    "with yield"
  ).split(" "),
);

/** TypeScript's reserved words in a module (strict mode), which cannot name a function either. */
const TS_RESERVED: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if import in instanceof new null return super switch this throw " +
    "true try typeof var void while with implements interface let package private protected " +
    "public static yield await arguments eval"
  ).split(" "),
);

/** What the generated stub modules import or define beside the stub (a stub of that name shadows it). */
const STUB_BINDINGS: ReadonlySet<string> = new Set([
  "Any",
  "Callable",
  "Optional",
  "Type",
  "StateGraph",
  "START",
  "END",
  "AnnotationRoot",
  "AnyAnnotationRoot",
]);

/**
 * What the generated implementation module uses after defining one function per node and router:
 * a node function named so replaces it (`def print(state): print(...)` recurses forever, a
 * `SomeState` function is passed as the state schema).
 */
const IMPLEMENTATION_BINDINGS: ReadonlySet<string> = new Set(["print", "SomeState"]);

/** An ASCII identifier of Python and TypeScript alike. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** langgraph-gen's implementation name of a node name: `\W` → `_` (ASCII names here). */
export function implementationName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/** Whether a name can name a function in the Python stub (an identifier, not a keyword). */
export function isPythonName(name: string): boolean {
  return IDENTIFIER.test(name) && !PYTHON_KEYWORDS.has(name);
}

/** Whether a node's or router's implementation may have this name: see the bindings above. */
function isImplementationName(name: string): boolean {
  return isPythonName(name) && !IMPLEMENTATION_BINDINGS.has(name);
}

/** Whether a spec `name` is one langgraph-gen writes as a working stub in both languages. */
export function isStubName(name: string): boolean {
  return isPythonName(name) && !TS_RESERVED.has(name) && !STUB_BINDINGS.has(name);
}

/**
 * The stub name for a workflow name: the name itself when it is one, else each run of other
 * characters as one `_`, trimmed (`Research Agent` → `Research_Agent`); `create_agent`
 * (langgraph-gen's own default) when nothing is left; `agent_` before a leading digit, `_agent`
 * after a reserved word.
 */
export function stubName(name: string): string {
  if (isStubName(name)) return name;
  let mapped = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  if (mapped === "") mapped = "create_agent";
  if (/^[0-9]/.test(mapped)) mapped = `agent_${mapped}`;
  return isStubName(mapped) ? mapped : `${mapped}_agent`;
}

/**
 * The node name an id maps to before clashes: characters other than `A-Za-z0-9.-` (`:` and `|`
 * among them, which LangGraph refuses) become `-`, `n-` comes before a leading non-letter, and
 * `-node` after a name whose implementation name is a Python keyword or a name the generated
 * implementation module uses (`if` → `if-node`, `print` → `print-node`). An
 * import maps such a name back to itself.
 */
export function nodeBase(id: string): string {
  let base = id.replace(/[^A-Za-z0-9.-]/g, "-");
  if (!/^[A-Za-z]/.test(base)) base = `n-${base}`;
  return isImplementationName(implementationName(base)) ? base : `${base}-node`;
}

/**
 * Allocates the names of one spec: the stub name first, then node names, then conditions, each
 * claiming its implementation name so that no two share one. Deterministic: the same workflow
 * always gets the same names.
 */
export class SpecNames {
  readonly #taken = new Set<string>();
  readonly #shared = new Map<string, string>();

  /** Reserves the stub name, whose import the implementation module holds beside the functions. */
  constructor(stub: string) {
    this.#taken.add(stub);
  }

  /**
   * Whether a node id may stay its node name: it is its own {@link nodeBase} and its
   * implementation name is free (then claimed).
   */
  claimAsIs(id: string): boolean {
    const impl = implementationName(id);
    if (nodeBase(id) !== id || this.#taken.has(impl)) return false;
    this.#taken.add(impl);
    return true;
  }

  /** Claims a node name written as it is (a kept original name): whether its implementation name was free. */
  claimName(name: string): boolean {
    const impl = implementationName(name);
    if (this.#taken.has(impl)) return false;
    this.#taken.add(impl);
    return true;
  }

  /** A node name for an id that cannot stay: its {@link nodeBase}, then `-2`, `-3`… if taken. */
  nodeName(id: string): string {
    return this.#free(nodeBase(id), "-");
  }

  /**
   * A condition name: `base` with other characters as `_` (`route` when nothing is left, `route_`
   * before a leading digit, `_route` after a keyword or `print`), then `_2`, `_3`… when a node or another
   * condition has it. With
   * `shared`, a name read from an import (the same router function on several edges) stays one
   * name for all of them.
   */
  condition(base: string, shared: boolean): string {
    const known = shared ? this.#shared.get(base) : undefined;
    if (known !== undefined) return known;
    let name = implementationName(base);
    if (name === "") name = "route";
    else if (/^[0-9]/.test(name)) name = `route_${name}`;
    if (!isImplementationName(name)) name = `${name}_route`;
    const free = this.#free(name, "_");
    if (shared) this.#shared.set(base, free);
    return free;
  }

  #free(base: string, separator: string): string {
    let name = base;
    for (let k = 2; this.#taken.has(implementationName(name)); k++)
      name = `${base}${separator}${String(k)}`;
    this.#taken.add(implementationName(name));
    return name;
  }
}

/**
 * Whether a node's kept `name` (an import's original spec name) can be written as its spec node
 * name: printable ASCII without the characters that break the `"…"` langgraph-gen writes it in
 * or that LangGraph refuses (`"`, `\\`, `:`, `|`), starting with a letter (so never `__start__`
 * or `__end__`), whose implementation name a node's function may have.
 */
export function isWritableName(name: string): boolean {
  return (
    /^[A-Za-z][\x20-\x7e]*$/.test(name) &&
    !/["\\:|]/.test(name) &&
    isImplementationName(implementationName(name))
  );
}

/** A step to name: its id, and the name it would rather be written as (its kept `name`). */
export interface Step {
  readonly id: string;
  readonly wanted?: string | undefined;
}

/** One pass of {@link nodeNames}: the names, their table, and which steps got their wanted name. */
interface Allocation {
  readonly list: string[];
  readonly names: SpecNames;
  readonly written: ReadonlySet<number>;
}

function allocate(steps: readonly Step[], stub: string, wanted: ReadonlySet<number>): Allocation {
  const names = new SpecNames(stub);
  const out: (string | undefined)[] = steps.map((s, k) =>
    wanted.has(k) ? undefined : names.claimAsIs(s.id) ? s.id : undefined,
  );
  const written = new Set<number>();
  for (const k of wanted) {
    const step = steps[k];
    if (step?.wanted === undefined) continue;
    if (names.claimName(step.wanted)) {
      out[k] = step.wanted;
      written.add(k);
    } else if (names.claimAsIs(step.id)) out[k] = step.id;
  }
  return { names, written, list: steps.map((s, k) => out[k] ?? names.nodeName(s.id)) };
}

/**
 * Each written step's node name, in order, and the {@link SpecNames} they were claimed in. The
 * ids that may stay claim theirs first, then each step's wanted name (the original an import
 * kept) is written where it is free and an import maps it back to the step's id; the rest are
 * renamed. A wanted name that the import would map elsewhere (a clash moves a suffix) is given
 * up: at most three passes, the last one as if no step wanted a name.
 */
export function nodeNames(
  steps: readonly Step[],
  stub: string,
): { names: string[]; specNames: SpecNames; written: ReadonlySet<number> } {
  let wanted = new Set(
    steps.flatMap((s, k) =>
      s.wanted !== undefined && s.wanted !== s.id && isWritableName(s.wanted) ? [k] : [],
    ),
  );
  for (let pass = 0; ; pass++) {
    const got = allocate(steps, stub, wanted);
    const back = mapIds(got.list.keys(), LANGGRAPH_ID_PREFIX, (k) => got.list[k] ?? "");
    const wrong = [...got.written].filter((k) => back.get(k) !== steps[k]?.id);
    if (wrong.length === 0) return { names: got.list, specNames: got.names, written: got.written };
    wanted = pass === 0 ? new Set([...wanted].filter((k) => !wrong.includes(k))) : new Set();
  }
}

/** An edge with its node names in place of the ids it was built with. */
export function named(edge: LangGraphGenEdge, nameOf: (id: string) => string): LangGraphGenEdge {
  const from = nameOf(edge.from);
  if (edge.paths !== undefined)
    return {
      from,
      condition: edge.condition ?? "",
      paths: edge.paths.map((p) => (p === END ? p : nameOf(p))),
    };
  return {
    from,
    to: edge.to === undefined || edge.to === END ? (edge.to ?? END) : nameOf(edge.to),
  };
}

/** What the importer writes for the i-th path of a conditional edge: `<condition> returns '<path>'`. */
const RETURNS = /^(.*) returns '([^']*)'$/s;

/**
 * The router function's name: the one every case condition was imported from, if they agree.
 * The importer quotes the path as the spec spelled it, and a node whose id had to change keeps
 * that spelling as its `name`: a case names its route's target by the target's id or kept name
 * (`'__end__'` for the end).
 */
export function routerName(
  routes: readonly DecisionRoute[],
  paths: readonly string[],
  keptName: (id: string) => string | undefined,
): string | undefined {
  let name: string | undefined;
  for (const [k, r] of routes.slice(0, -1).entries()) {
    const m = RETURNS.exec(r.condition ?? "");
    if (m === null || (name !== undefined && m[1] !== name)) return undefined;
    const [, fn = "", quoted] = m;
    if (quoted !== paths[k] && (r.next === "end" || quoted !== keptName(r.next))) return undefined;
    name = fn;
  }
  return name === "" ? undefined : name;
}
