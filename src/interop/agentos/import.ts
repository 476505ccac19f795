/**
 * Import of an AgentOS `CompiledExecutionGraph` (seed `agentos-orchestration.txt`). Nodes and
 * edges are mapped by `nodes.ts` and `edges.ts`; this file reads the graph's top level, orders
 * the entry node first, and runs the model's own parser on the result.
 */
import type { AgentWorkflow } from "../../model/index.js";
import { buildFlowGraph, pointer, UNKNOWN_PROPERTY } from "../../model/index.js";
import { cloneJson, describeValue, isRecord, own } from "../json.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { entryIds, renamedId, wantedId } from "../ids.js";
import type { Built } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import { dropped, guessed } from "../warnings.js";
import { ID_PREFIX } from "./common.js";
import { readFlow } from "./edges.js";
import { ASSUMED_VERSION, readNode } from "./nodes.js";
import { unfoldToolLoops, wireToolLoops } from "./tool-loop.js";
import type { Draft, MappedNode } from "./types.js";
import { AGENTOS_ID, fail } from "./types.js";

const TOP_LEVEL = new Set(["id", "name", "nodes", "edges", "stateSchema"]);
const SCHEMA_KEYS = new Set(["type", "properties", "required"]);

function requireString(doc: Readonly<Record<string, unknown>>, key: string): string {
  const value = own(doc, key);
  if (typeof value !== "string" || value === "") {
    throw fail(pointer(key), `'${key}' must be a non-empty string, found ${describeValue(value)}`);
  }
  return value;
}

function requireArray(doc: Readonly<Record<string, unknown>>, key: string): readonly unknown[] {
  const value = own(doc, key);
  if (!Array.isArray(value))
    throw fail(pointer(key), `'${key}' must be an array, found ${describeValue(value)}`);
  return value;
}

/**
 * A JSON Schema object (`{type: "object", properties, required}`, as zod lowers a partition) →
 * an agentflow shape: each property keeps its JSON Schema, and a property not listed in
 * `required` gets the `?` suffix. Any other schema keyword is declared.
 */
function toShape(schema: unknown, at: string, warnings: InteropWarning[]): Draft {
  if (schema === undefined) return {};
  if (!isRecord(schema))
    throw fail(at, `a state partition schema must be an object, found ${describeValue(schema)}`);
  const type = own(schema, "type");
  const props = own(schema, "properties") ?? {};
  const required = own(schema, "required") ?? [];
  if ((type !== undefined && type !== "object") || !isRecord(props) || !Array.isArray(required)) {
    throw fail(
      at,
      "a state partition schema must be an object schema with properties and required",
    );
  }
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.has(key))
      warnings.push(
        dropped(
          pointer(...pathTokens(at), key),
          `schema keyword '${key}' has no agentflow shape form`,
          { key },
        ),
      );
  }
  const requiredNames = new Set<unknown>(required);
  return Object.fromEntries(
    Object.entries(props).map(([name, field]) => [
      requiredNames.has(name) ? name : `${name}?`,
      cloneJson(field),
    ]),
  );
}

function pathTokens(at: string): string[] {
  return at.split("/").slice(1);
}

/** A schema that declares no field, so dropping it loses nothing (what the export writes). */
function isEmptySchema(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const props = own(schema, "properties");
  return (
    Object.keys(schema).every((k) => k === "type" || k === "properties") &&
    (props === undefined || (isRecord(props) && Object.keys(props).length === 0))
  );
}

function readSchemas(
  doc: Readonly<Record<string, unknown>>,
  warnings: InteropWarning[],
): [Draft, Draft] {
  const state = own(doc, "stateSchema");
  if (state === undefined) return [{}, {}];
  if (!isRecord(state))
    throw fail("/stateSchema", `'stateSchema' must be an object, found ${describeValue(state)}`);
  for (const key of Object.keys(state)) {
    if (key === "input" || key === "artifacts") continue;
    if (key === "scratch" && isEmptySchema(own(state, key))) continue;
    const why =
      key === "scratch"
        ? "working memory between nodes has no agentflow form"
        : "not a state partition agentflow reads";
    warnings.push(
      dropped(pointer("stateSchema", key), `stateSchema.${key} dropped: ${why}`, { key }),
    );
  }
  return [
    toShape(own(state, "input"), "/stateSchema/input", warnings),
    toShape(own(state, "artifacts"), "/stateSchema/artifacts", warnings),
  ];
}

/** The mapped nodes, keyed by source id; a source id used twice fails loudly. */
function readNodes(
  raw: readonly unknown[],
  warnings: InteropWarning[],
  instructions: Record<string, string>,
): Map<string, MappedNode> {
  const nodes = new Map<string, MappedNode>();
  const ids = entryIds(raw, "id", ID_PREFIX);
  raw.forEach((item, i) => {
    const mapped = readNode(item, i, ids, warnings, instructions);
    if (nodes.has(mapped.sourceId)) {
      throw fail(
        pointer("nodes", i, "id"),
        `node id '${mapped.sourceId}' is used twice`,
        mapped.sourceId,
      );
    }
    nodes.set(mapped.sourceId, mapped);
  });
  return nodes;
}

/**
 * The entry agentflow computes must be the `__START__` target; a cycle is kept but declared,
 * because AgentOS runs each node at most once (the seed) while agentflow reads a loop that may
 * repeat, so the workflow allows more than the AgentOS runtime does.
 */
function checkFlow(imported: AgentWorkflow, warnings: InteropWarning[]): void {
  // A gmi node's tool loop runs inside the node, which still runs once: it is no cycle here.
  const workflow = unfoldToolLoops(imported).wf;
  const graph = buildFlowGraph(workflow);
  if (graph.entry !== 0) {
    throw fail(
      "/edges",
      `agentflow would not start at the __START__ target '${workflow.nodes[0]?.id ?? ""}'`,
    );
  }
  const looping = workflow.nodes.filter((_n, i) => graph.cyclic[i] === 1).map((n) => n.id);
  if (looping.length === 0) return;
  warnings.push(
    guessed(
      "/edges",
      `the graph has a cycle through ${looping.map((id) => `'${id}'`).join(", ")}; AgentOS runs each node at most once, agentflow reads it as a loop that may repeat`,
      { nodeIds: looping },
    ),
  );
}

function build(doc: unknown, warnings: InteropWarning[]): Built {
  if (!isRecord(doc))
    throw fail("", `an AgentOS graph must be an object, found ${describeValue(doc)}`);
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL.has(key))
      warnings.push(dropped(pointer(key), `top-level key '${key}' has no agentflow form`, { key }));
  }
  const sourceId = requireString(doc, "id");
  // The graph's own id is no route target: only the characters are rewritten.
  const id = wantedId(sourceId, ID_PREFIX);
  if (id !== sourceId) warnings.push(renamedId("/id", "graph id", sourceId, id));
  const name = requireString(doc, "name");
  warnings.push(
    guessed("", `the IR has no version; '${ASSUMED_VERSION}' is assumed`, {
      field: "version",
      assumed: ASSUMED_VERSION,
    }),
  );
  const [inputSchema, outputSchema] = readSchemas(doc, warnings);
  const instructions: Record<string, string> = {};
  const nodes = readNodes(requireArray(doc, "nodes"), warnings, instructions);
  const flow = readFlow(requireArray(doc, "edges"), nodes, warnings);
  const taken = new Set([...nodes.values()].map((n) => n.nodeId));
  for (const inserted of flow.inserted) {
    const did = String(inserted.id);
    if (taken.has(did))
      throw fail("/nodes", `the inserted decision id '${did}' is already a node id`, did);
    taken.add(did);
  }
  const ordered = [...nodes.values()].sort(
    (a, b) => Number(b.sourceId === flow.entry) - Number(a.sourceId === flow.entry),
  );
  const loops = ordered.flatMap((n) =>
    n.toolLoop === undefined ? [] : [{ nodeId: n.nodeId, max: n.toolLoop.max }],
  );
  const wired = wireToolLoops(
    [...ordered.map((n) => n.node), ...flow.inserted],
    flow.edges,
    loops,
    taken,
  );
  const draft: Draft = {
    kind: "AgentWorkflow",
    id,
    version: ASSUMED_VERSION,
    name,
    autonomyLevel: 1,
    inputSchema,
    outputSchema,
    nodes: wired.nodes,
    edges: wired.edges,
    ...(Object.keys(instructions).length === 0 ? {} : { metadata: { agentos: { instructions } } }),
  };
  return { draft };
}

const importGraph = defineImport({
  format: AGENTOS_ID,
  build,
  // The draft is built from known keys: an unknown property would be a mapping bug.
  blocks: (d) => d.severity === "error" || d.code === UNKNOWN_PROPERTY,
  check: checkFlow,
});

/**
 * Imports an AgentOS `CompiledExecutionGraph` (decoded JSON). Throws only
 * {@link ImportError} (of format `agentos`): for a construct whose loss would change what the graph can do
 * (voice nodes, guardrail reroutes, a `__START__` edge that is not static) and for a malformed
 * graph, naming the JSON Pointer and element. An `addConditionalEdge` placeholder and a subgraph
 * node are imported, declared (`docs/interop/agentos.md`), and so is what AgentOS runs after a
 * router's route: the nodes after the targets it skips, to which the route leads on, and never
 * those targets (an edge into one from another node only makes it wait, and is read as none).
 *
 * @example
 * ```ts
 * import { importAgentOs } from "agentflow/interop";
 *
 * const { workflow } = importAgentOs({
 *   id: "summarize",
 *   name: "Summarize",
 *   nodes: [{ id: "summarize", type: "gmi", executorConfig: { type: "gmi", instructions: "Summarise the article." } }],
 *   edges: [
 *     { id: "e1", source: "__START__", target: "summarize", type: "static" },
 *     { id: "e2", source: "summarize", target: "__END__", type: "static" },
 *   ],
 *   stateSchema: {
 *     input: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
 *     artifacts: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
 *   },
 * });
 * workflow.inputSchema; // → { url: { type: "string" } }
 * workflow.nodes[0]?.config; // → { model: "agentos-host", promptRef: "prm:agentos.summarize@1.0.0" }
 * workflow.metadata; // → { agentos: { instructions: { summarize: "Summarise the article." } } }
 * ```
 */
export function importAgentOs(doc: unknown): ImportResult {
  return importGraph(doc);
}
