/**
 * A placeholder input for a workflow, built from its `inputSchema`, so that a simulation or an
 * exploration without a user-supplied input can still resolve `{{input.x}}` templates. Values are
 * plain and fixed (`"example"`, `0`, `false`, one-element arrays at their minimum length), so the
 * same workflow always gets the same input.
 */
import type { AgentNode, AgentWorkflow, TypeNode } from "../model/index.js";
import { flowGraph, resolveShape, scanTemplates } from "../model/index.js";
import { templateTexts } from "./params.js";
import type { Fixtures, JsonObject, NodeFixture } from "./types.js";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Nested types deeper than this become `null`: a recursive type must not recurse forever. */
const MAX_DEPTH = 8;

function sample(type: TypeNode, depth: number): Json {
  if (depth > MAX_DEPTH) return null;
  switch (type.kind) {
    case "primitive":
      if (type.name === "text" || type.name === "path") return "example";
      if (type.name === "bool") return false;
      return 0;
    case "array": {
      const count = Math.min(type.minItems ?? 0, 3);
      return Array.from({ length: count }, () => sample(type.element, depth + 1));
    }
    case "object": {
      const out: Record<string, Json> = {};
      for (const field of type.fields) {
        if (!field.optional) define(out, field.name, sample(field.type, depth + 1));
      }
      return out;
    }
    case "member":
      return "member-1";
    default:
      return null;
  }
}

/**
 * The required fields of the workflow's input, each with a fixed placeholder value.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { sampleInput } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * sampleInput(research); // → { query: "example" }
 * ```
 */
export function sampleInput(wf: AgentWorkflow): JsonObject {
  const { type } = resolveShape(wf.inputSchema, wf.types, "/inputSchema");
  return sample(type, 0) as JsonObject;
}

/** Output fields that tool params read by template (`{{node.output.field}}`, path `[field]`), by node id. */
function fieldsReadByTemplates(wf: AgentWorkflow): Map<string, Set<string>> {
  // The graph's id index, built once per workflow and shared with validation and simulation.
  const ids = flowGraph(wf).index;
  const out = new Map<string, Set<string>>();
  for (const node of wf.nodes) {
    if (node.type !== "tool") continue;
    const params: unknown = node.config.params;
    if (typeof params !== "object" || params === null) continue;
    for (const text of templateTexts(params)) {
      for (const ref of scanTemplates(text, (id) => ids.has(id))) {
        const field = ref.kind === "node" ? ref.path[0] : undefined;
        if (ref.kind !== "node" || field === undefined) continue;
        const set = out.get(ref.nodeId) ?? new Set<string>();
        set.add(field);
        out.set(ref.nodeId, set);
      }
    }
  }
  return out;
}

function define(target: object, key: string, value: unknown): void {
  // defineProperty: a key named `__proto__` stays data, it does not set the prototype.
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Placeholder fixtures: every llm node with an `outputSchema` outputs one fixed value of that
 * schema; a structured llm without one outputs a value of the workflow's `outputSchema` (what its
 * decisions most likely read); and any output field a tool param reads by template is present.
 * Enough for `explore` to walk every route of a workflow nobody wrote fixtures for (explore
 * forces the routes; the values themselves decide nothing).
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { sampleFixtures } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * sampleFixtures(research);
 * // → { "llm-1": { outputs: [{ answer: "example", sources: [], is_complete: false, query: "example" }] } }
 * ```
 */
export function sampleFixtures(wf: AgentWorkflow): Fixtures {
  const read = fieldsReadByTemplates(wf);
  const out: Record<string, NodeFixture> = {};
  for (const node of wf.nodes) {
    const fixture = nodeSample(wf, node, read);
    if (fixture !== undefined) define(out, node.id, fixture);
  }
  return out;
}

/** The placeholder fixture of one node (see {@link sampleFixtures}), if it needs one. */
function nodeSample(
  wf: AgentWorkflow,
  node: AgentNode,
  read: ReadonlyMap<string, ReadonlySet<string>>,
): NodeFixture | undefined {
  let schema;
  if (node.type === "llm") {
    schema =
      node.config.outputSchema ??
      (node.config.structuredOutput === true ? wf.outputSchema : undefined);
  }
  const fields = read.get(node.id);
  if (schema === undefined && fields === undefined) return undefined;
  const output = (
    schema === undefined ? {} : sample(resolveShape(schema, wf.types, "/outputSchema").type, 0)
  ) as Record<string, Json>;
  for (const field of fields ?? []) {
    if (!Object.hasOwn(output, field)) define(output, field, "example");
  }
  return { outputs: [output] };
}

/**
 * Template reads by workflow object, as the simulator caches its plans: the runs of every
 * `simulate` and `explore` call on one workflow share them.
 */
const readsOf = new WeakMap<AgentWorkflow, ReadonlyMap<string, ReadonlySet<string>>>();

/**
 * The placeholder fixture of a node of `wf`, built on first use: what `simulate` and `explore`
 * read with `sampleOutputs` for a node with no fixture. The template reads are collected once,
 * when the first node is sampled.
 */
export function lazySamples(wf: AgentWorkflow): (node: AgentNode) => NodeFixture | undefined {
  let read: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  const made = new Map<AgentNode, NodeFixture | undefined>();
  return (node) => {
    if (made.has(node)) return made.get(node);
    if (read === undefined) {
      read = readsOf.get(wf) ?? fieldsReadByTemplates(wf);
      readsOf.set(wf, read);
    }
    const fixture = nodeSample(wf, node, read);
    made.set(node, fixture);
    return fixture;
  };
}
