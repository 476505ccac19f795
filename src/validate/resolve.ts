/**
 * Resolution of what a workflow references (tool contracts, prompts, delegate workflows) through
 * injected resolvers, before any rule runs. Resolvers may be synchronous or return promises; the
 * same generator drives both, so `validateSync` and `validate` cannot drift apart. Resolved
 * documents are parsed: a registry returning garbage is a failed resolution, not a crash.
 */
import {
  flowGraph,
  NODE_KIND,
  parseRef,
  parseToolContract,
  parseWorkflow,
} from "../model/index.js";
import type { AgentWorkflow, RefParseResult, ToolContract } from "../model/index.js";
import { nodeRefsOf } from "./facts.js";
import type { ResolvedRefs, Resolution, Resolvers } from "./types.js";

/** How many delegate workflows are resolved transitively at most, so a registry cannot loop us. */
export const MAX_DELEGATES = 1000;

type Settled =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };
type Step = Generator<readonly unknown[], ResolvedRefs, readonly Settled[]>;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A resolver that threw synchronously; kept as data so both drivers can report it. */
interface Thrown {
  readonly thrown: string;
}

function isThrown(value: unknown): value is Thrown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, "thrown");
}

function call(fn: (ref: string) => unknown, ref: string): unknown {
  try {
    return fn(ref);
  } catch (error) {
    const thrown: Thrown = { thrown: describe(error) };
    return thrown;
  }
}

function canonicalRefs(values: readonly unknown[], prefix?: string): string[] {
  const out = new Set<string>();
  for (const value of values) {
    const parsed = parseRef(value);
    if (parsed.ok && (prefix === undefined || parsed.ref.id.startsWith(prefix)))
      out.add(parsed.canonical);
  }
  return [...out];
}

function toResolution<T>(
  key: string,
  settled: Settled,
  parse: (v: unknown) => T | string,
): Resolution<T> {
  if (!settled.ok) return { status: "failed", error: settled.error };
  if (settled.value === undefined || settled.value === null) return { status: "unknown" };
  const parsed = parse(settled.value);
  if (typeof parsed === "string") return { status: "failed", error: parsed };
  // A registry answering with another document than the one asked for would make the review
  // name one thing and check another.
  const { id, version } = parsed as { id?: unknown; version?: unknown };
  if (typeof id === "string" && typeof version === "string" && `${id}@${version}` !== key) {
    return { status: "failed", error: `the registry returned ${id}@${version} for ${key}` };
  }
  return { status: "resolved", value: parsed };
}

function parseTool(value: unknown): ToolContract | string {
  const result = parseToolContract(value);
  return (
    result.contract ??
    `the registry returned an invalid tool contract (${result.diagnostics[0]?.message ?? "?"})`
  );
}

function parseDelegate(value: unknown): AgentWorkflow | string {
  const result = parseWorkflow(value);
  return (
    result.workflow ??
    `the registry returned an invalid workflow (${result.diagnostics[0]?.message ?? "?"})`
  );
}

function* resolveKind<T>(
  keys: readonly string[],
  resolver: ((ref: string) => unknown) | undefined,
  parse: (v: unknown) => T | string,
  into: Map<string, Resolution<T>>,
): Generator<readonly unknown[], void, readonly Settled[]> {
  const pending = keys.filter((k) => !into.has(k));
  if (resolver === undefined) {
    for (const k of pending) into.set(k, { status: "no-resolver" });
    return;
  }
  if (pending.length === 0) return;
  const settled = yield pending.map((k) => call(resolver, k));
  pending.forEach((k, i) => {
    const s = settled[i] ?? { ok: false, error: "no result" };
    into.set(k, toResolution(k, s, parse));
  });
}

/**
 * The distinct canonical tool and prompt refs among the nodes' parsed refs (`refs[i]` of node `i`);
 * tool refs only with the `tool:` prefix. Reads no node: the refs were parsed once, for the facts.
 */
function distinctRefs(
  refs: readonly (RefParseResult | undefined)[],
  kind: Uint8Array,
): { toolRefs: string[]; promptRefs: string[] } {
  const tools = new Set<string>();
  const prompts = new Set<string>();
  refs.forEach((parsed, i) => {
    if (parsed?.ok !== true) return;
    if (kind[i] === NODE_KIND.tool) {
      if (parsed.ref.id.startsWith("tool:")) tools.add(parsed.canonical);
    } else if (kind[i] === NODE_KIND.llm) prompts.add(parsed.canonical);
  });
  return { toolRefs: [...tools], promptRefs: [...prompts] };
}

/** Each resolved delegate's parsed node refs (`nodeRefsOf`), by canonical `id@x.y.z`. */
export type DelegateNodeRefs = Map<string, readonly (RefParseResult | undefined)[]>;

/**
 * The tool and prompt refs of every resolved delegate, resolved into `tools` and `prompts` (one
 * wave per kind, each ref once), and each delegate's parsed node refs recorded in `into`: what
 * judging the delegates by their own rules needs (DELEGATE_INVALID).
 */
function* resolveDelegateRefs(
  delegates: ReadonlyMap<string, Resolution<AgentWorkflow>>,
  resolvers: Resolvers,
  tools: Map<string, Resolution<ToolContract>>,
  prompts: Map<string, Resolution<true>>,
  into: DelegateNodeRefs,
): Generator<readonly unknown[], void, readonly Settled[]> {
  const toolRefs = new Set<string>();
  const promptRefs = new Set<string>();
  for (const [key, r] of delegates) {
    if (r.status !== "resolved") continue;
    const graph = flowGraph(r.value);
    const refs = nodeRefsOf(r.value, graph);
    into.set(key, refs);
    const distinct = distinctRefs(refs, graph.kind);
    for (const ref of distinct.toolRefs) toolRefs.add(ref);
    for (const ref of distinct.promptRefs) promptRefs.add(ref);
  }
  yield* resolveKind([...toolRefs], resolvers.resolveTool, parseTool, tools);
  yield* resolveKind([...promptRefs], resolvers.resolvePrompt, () => true as const, prompts);
}

function* resolution(
  wf: AgentWorkflow,
  resolvers: Resolvers,
  refs: readonly (RefParseResult | undefined)[],
  delegateRefs: DelegateNodeRefs | undefined,
): Step {
  const tools = new Map<string, Resolution<ToolContract>>();
  const prompts = new Map<string, Resolution<true>>();
  const delegates = new Map<string, Resolution<AgentWorkflow>>();
  const graph = flowGraph(wf);
  const { toolRefs, promptRefs } = distinctRefs(refs, graph.kind);
  yield* resolveKind(toolRefs, resolvers.resolveTool, parseTool, tools);
  yield* resolveKind(promptRefs, resolvers.resolvePrompt, () => true as const, prompts);
  // Delegates are resolved in waves: each wave's workflows name the next wave's refs.
  // The graph lists the delegate edges: the other edges are never loaded.
  let wave = canonicalRefs(Array.from(graph.delegateEdges, (k) => wf.edges[k]?.to));
  while (wave.length > 0 && delegates.size < MAX_DELEGATES) {
    const batch = wave.filter((k) => !delegates.has(k)).slice(0, MAX_DELEGATES - delegates.size);
    yield* resolveKind(batch, resolvers.resolveDelegate, parseDelegate, delegates);
    const next: unknown[] = [];
    for (const key of batch) {
      const r = delegates.get(key);
      if (r?.status !== "resolved") continue;
      for (const e of r.value.edges) if (e.edgeType === "delegate") next.push(e.to);
    }
    wave = canonicalRefs(next).filter((k) => !delegates.has(k));
  }
  if (delegateRefs !== undefined) {
    yield* resolveDelegateRefs(delegates, resolvers, tools, prompts, delegateRefs);
  }
  return { tools, prompts, delegates };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Resolves synchronously. A resolver that returns a promise is API misuse here (use
 * {@link resolveReferences}) and throws a `TypeError`; a resolver that throws is a failed
 * resolution. With `delegateRefs`, the delegates' own tools and prompts are resolved too, and
 * each delegate's parsed node refs recorded there.
 */
export function resolveReferencesSync(
  wf: AgentWorkflow,
  resolvers: Resolvers,
  refs: readonly (RefParseResult | undefined)[] = nodeRefsOf(wf, flowGraph(wf)),
  delegateRefs?: DelegateNodeRefs,
): ResolvedRefs {
  const steps = resolution(wf, resolvers, refs, delegateRefs);
  let step = steps.next([]);
  while (step.done !== true) {
    const settled: Settled[] = step.value.map((value) => {
      if (isThrown(value)) return { ok: false, error: value.thrown } as const;
      if (isThenable(value)) {
        throw new TypeError("a resolver returned a Promise: use validate(), not validateSync()");
      }
      return { ok: true, value } as const;
    });
    step = steps.next(settled);
  }
  return step.value;
}

/**
 * Resolves with sync or async resolvers; each wave of lookups runs in parallel. `delegateRefs` as
 * for {@link resolveReferencesSync}.
 */
export async function resolveReferences(
  wf: AgentWorkflow,
  resolvers: Resolvers,
  refs: readonly (RefParseResult | undefined)[] = nodeRefsOf(wf, flowGraph(wf)),
  delegateRefs?: DelegateNodeRefs,
): Promise<ResolvedRefs> {
  const steps = resolution(wf, resolvers, refs, delegateRefs);
  let step = steps.next([]);
  while (step.done !== true) {
    const results = await Promise.allSettled(step.value.map((v) => Promise.resolve(v)));
    const settled = results.map((r): Settled => {
      if (r.status === "rejected") return { ok: false, error: describe(r.reason) };
      return isThrown(r.value)
        ? { ok: false, error: r.value.thrown }
        : { ok: true, value: r.value };
    });
    step = steps.next(settled);
  }
  return step.value;
}
