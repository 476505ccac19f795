/**
 * Resolving tool params (SPEC 2.9, 5): `{{node.output.path}}` reads that node's last output and
 * `{{input.field}}` the run's input. A string that is one whole template takes the value with its
 * type; templates inside text are interpolated. A template that cannot be resolved keeps its
 * text and is listed with its reason, as the seed engine passes it through; with `strictParams`
 * the first one stops the run instead (calling a tool with a hole in its arguments is a guess).
 */
import { forEachTemplateString, scanTemplates } from "../model/index.js";
import type { TemplateRef } from "../model/index.js";
import type { FlowContext } from "./context.js";
import { jsonText } from "./json.js";
import { setOwn } from "./options.js";
import type { Plan } from "./plan.js";
import { nodeAt } from "./table.js";
import type { JsonObject, UnresolvedTemplate } from "./types.js";

/**
 * The resolved params, with the templates kept as text (none when all resolved); or, under
 * `strictParams`, the first template that could not be resolved and why.
 */
export type ParamsResult =
  | { readonly params: JsonObject; readonly unresolved: readonly UnresolvedTemplate[] }
  | { readonly template: string; readonly reason: string };

const NONE: readonly UnresolvedTemplate[] = Object.freeze([]);

type Lookup = { readonly value: unknown } | { readonly missing: string };

function walk(root: unknown, path: readonly string[], what: string): Lookup {
  let current = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] ?? "";
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) {
      return { missing: `${what} has no field "${path.slice(0, i + 1).join(".")}"` };
    }
    current = (current as Readonly<Record<string, unknown>>)[key];
  }
  return current === undefined ? { missing: `${what} has no value` } : { value: current };
}

function lookup(plan: Plan, ctx: FlowContext, ref: TemplateRef): Lookup {
  if (ref.kind === "syntax") return { missing: `it is not a readable template (${ref.problem})` };
  if (ref.kind === "input") return walk(ctx.input, [ref.field, ...ref.path], "the input");
  const k = plan.graph.index.get(ref.nodeId);
  if (k === undefined) return { missing: `"${ref.nodeId}" is not a node` };
  const last = nodeAt(ctx.nodes, k).last;
  if (last === null) return { missing: `"${ref.nodeId}" has not produced an output yet` };
  return walk(last, ref.path, `the last output of "${ref.nodeId}"`);
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  return jsonText(value) ?? "";
}

/** Scanned templates per plan and param string: a run resolves the same strings at every visit. */
const scans = new WeakMap<Plan, Map<string, readonly TemplateRef[]>>();

function templatesIn(plan: Plan, text: string): readonly TemplateRef[] {
  let byText = scans.get(plan);
  if (byText === undefined) {
    byText = new Map();
    scans.set(plan, byText);
  }
  let refs = byText.get(text);
  if (refs === undefined) {
    refs = scanTemplates(text, (id) => plan.graph.index.has(id));
    byText.set(text, refs);
  }
  return refs;
}

/**
 * The string with its templates resolved. A template that cannot be resolved keeps its text and
 * goes to `unresolved`; under `strict` the first one is returned as the failure instead.
 */
function resolveString(
  plan: Plan,
  ctx: FlowContext,
  text: string,
  unresolved: UnresolvedTemplate[],
): { readonly value: unknown } | UnresolvedTemplate {
  const refs = templatesIn(plan, text);
  let out = "";
  let from = 0;
  for (const ref of refs) {
    const found = lookup(plan, ctx, ref);
    const template = text.slice(ref.start, ref.end);
    if ("missing" in found) {
      if (ctx.strictParams) return { template, reason: found.missing };
      unresolved.push({ template, reason: found.missing });
    }
    const value = "missing" in found ? template : found.value;
    if (refs.length === 1 && ref.start === 0 && ref.end === text.length) return { value };
    out += text.slice(from, ref.start) + asText(value);
    from = ref.end;
  }
  return { value: out + text.slice(from) };
}

/** Distinct template strings per params object, in document order (workflows are immutable). */
const texts = new WeakMap<object, readonly string[]>();

/** The distinct strings holding `{{` in `params`, in document order, once per params object. */
export function templateTexts(params: object): readonly string[] {
  const hit = texts.get(params);
  if (hit !== undefined) return hit;
  const distinct = new Set<string>();
  forEachTemplateString(params, (text) => distinct.add(text));
  const out = [...distinct];
  texts.set(params, out);
  return out;
}

type Container = Record<string, unknown> | unknown[];

/**
 * Resolves a tool node's params. Params without templates are returned as they are; otherwise
 * they are copied with an explicit stack, so deeply nested params cannot overflow the call stack.
 */
export function resolveParams(plan: Plan, ctx: FlowContext, k: number): ParamsResult {
  const node = plan.graph.nodes[k];
  if (node?.type !== "tool") return { params: {}, unresolved: NONE };
  const raw: unknown = node.config.params;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { params: {}, unresolved: NONE };
  }
  const strings = templateTexts(raw);
  if (strings.length === 0) return { params: raw as JsonObject, unresolved: NONE };
  // Resolve in document order first, so the failure reported is the first one an author reads.
  const values = new Map<string, unknown>();
  const unresolved: UnresolvedTemplate[] = [];
  for (const text of strings) {
    const resolved = resolveString(plan, ctx, text, unresolved);
    if ("template" in resolved) return resolved;
    values.set(text, resolved.value);
  }
  const root: Record<string, unknown> = {};
  const stack: { from: object; to: Container }[] = [{ from: raw, to: root }];
  const seen = new Set<object>([raw]);
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const entries: [string, unknown][] = Object.entries(item.from);
    for (const [key, value] of entries) {
      let copy: unknown = value;
      if (typeof value === "string" && values.has(value)) {
        copy = values.get(value);
      } else if (typeof value === "object" && value !== null && !seen.has(value)) {
        seen.add(value);
        const to: Container = Array.isArray(value) ? [] : {};
        stack.push({ from: value, to });
        copy = to;
      }
      if (Array.isArray(item.to)) item.to.push(copy);
      else setOwn(item.to, key, copy);
    }
  }
  return { params: root, unresolved: unresolved.length === 0 ? NONE : unresolved };
}
