/**
 * Import of the documented LangGraph JSON subset (seed A-7). Keys outside the subset are dropped
 * and declared, a node type agentflow does not have fails loudly, and `autonomyLevel` (which the
 * subset lacks) is the level the graph justifies.
 */
import type { Diagnostic } from "../../model/index.js";
import { parseVersion, pointer, pointerTokens } from "../../model/index.js";
import { cloneJson, describeValue, isRecord, own } from "../json.js";
import type { Built, Draft } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { refusal } from "../types.js";
import { dropped, guessed, normalized } from "../warnings.js";
import { renameReserved } from "./subset-reserved.js";
import { LANGGRAPH_SUBSET_ID } from "./subset-types.js";

const TOP_LEVEL_KEYS = new Set([
  "id",
  "name",
  "version",
  "input_schema",
  "output_schema",
  "nodes",
  "edges",
]);
const NODE_KEYS = new Set(["id", "type", "data"]);
const EDGE_KEYS = new Set(["source", "target", "data"]);
const EDGE_DATA_KEYS = new Set(["edgeType", "when"]);
const NODE_TYPES = new Set(["llm", "tool", "decision"]);

const fail = refusal(LANGGRAPH_SUBSET_ID);

function requireString(doc: Readonly<Record<string, unknown>>, key: string): string {
  const value = own(doc, key);
  if (typeof value !== "string" || value === "") {
    throw fail(pointer(key), `'${key}' must be a non-empty string, found ${describeValue(value)}`);
  }
  return value;
}

function requireRecord(doc: Readonly<Record<string, unknown>>, key: string): Draft {
  const value = own(doc, key);
  if (!isRecord(value))
    throw fail(pointer(key), `'${key}' must be an object, found ${describeValue(value)}`);
  return cloneJson(value);
}

function requireArray(doc: Readonly<Record<string, unknown>>, key: string): readonly unknown[] {
  const value = own(doc, key);
  if (!Array.isArray(value))
    throw fail(pointer(key), `'${key}' must be an array, found ${describeValue(value)}`);
  return value;
}

/** An exact version is required; `2` / `2.1` are accepted and normalised, as `parseWorkflow` does. */
function readVersion(doc: Readonly<Record<string, unknown>>, warnings: InteropWarning[]): string {
  const written = requireString(doc, "version");
  const parsed = parseVersion(written);
  if (!parsed.ok) throw fail("/version", parsed.message);
  if (parsed.abbreviated) {
    warnings.push(
      normalized("/version", `version '${written}' was read as '${parsed.version}'`, {
        from: written,
        to: parsed.version,
      }),
    );
  }
  return parsed.version;
}

function dropUnknownKeys(
  item: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  at: readonly (string | number)[],
  what: string,
  warnings: InteropWarning[],
): void {
  for (const key of Object.keys(item)) {
    if (known.has(key)) continue;
    warnings.push(
      dropped(pointer(...at, key), `${what}: key '${key}' is outside the LangGraph subset`, {
        key,
      }),
    );
  }
}

function readNode(raw: unknown, i: number, warnings: InteropWarning[]): Draft {
  if (!isRecord(raw))
    throw fail(pointer("nodes", i), `a node must be an object, found ${describeValue(raw)}`);
  const id = own(raw, "id");
  if (typeof id !== "string" || id === "") {
    throw fail(
      pointer("nodes", i, "id"),
      `a node needs a non-empty string id, found ${describeValue(id)}`,
    );
  }
  const type = own(raw, "type");
  if (typeof type !== "string" || !NODE_TYPES.has(type)) {
    throw fail(
      pointer("nodes", i, "type"),
      `node '${id}' has type ${describeValue(type)}; only llm, tool and decision map to agentflow`,
      id,
    );
  }
  const data = own(raw, "data");
  if (!isRecord(data)) {
    throw fail(
      pointer("nodes", i, "data"),
      `node '${id}' needs a data object, found ${describeValue(data)}`,
      id,
    );
  }
  dropUnknownKeys(raw, NODE_KEYS, ["nodes", i], `node '${id}'`, warnings);
  return { id, type, config: cloneJson(data) };
}

function readEdge(raw: unknown, i: number, warnings: InteropWarning[]): Draft {
  if (!isRecord(raw))
    throw fail(pointer("edges", i), `an edge must be an object, found ${describeValue(raw)}`);
  const ends = ["source", "target"].map((key) => {
    const value = own(raw, key);
    if (typeof value !== "string") {
      throw fail(
        pointer("edges", i, key),
        `an edge needs a string ${key}, found ${describeValue(value)}`,
      );
    }
    return value;
  });
  const [from = "", to = ""] = ends;
  const what = `edge ${i} ('${from}' -> '${to}')`;
  dropUnknownKeys(raw, EDGE_KEYS, ["edges", i], what, warnings);
  const rawData = own(raw, "data") ?? {};
  if (!isRecord(rawData)) {
    throw fail(
      pointer("edges", i, "data"),
      `${what}: data must be an object, found ${describeValue(rawData)}`,
    );
  }
  dropUnknownKeys(rawData, EDGE_DATA_KEYS, ["edges", i, "data"], what, warnings);
  let edgeType = own(rawData, "edgeType");
  if (edgeType === undefined) {
    edgeType = "data";
    warnings.push(
      guessed(
        pointer("edges", i, "data", "edgeType"),
        `${what} has no data.edgeType; it is read as a "data" edge`,
        { assumed: "data" },
      ),
    );
  }
  const when = own(rawData, "when");
  return { from, to, edgeType, ...(when === undefined ? {} : { when: cloneJson(when) }) };
}

/** Where each agentflow edge field lives in a LangGraph edge. */
const EDGE_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ["from", ["source"]],
  ["to", ["target"]],
  ["edgeType", ["data", "edgeType"]],
  ["when", ["data", "when"]],
]);

/** Workflow pointer → the pointer of the same value in the LangGraph source. */
function sourcePath(path: string): string {
  const [head, index, field, ...rest] = pointerTokens(path);
  if (head === "inputSchema") return pointer("input_schema", ...pointerTokens(path).slice(1));
  if (head === "outputSchema") return pointer("output_schema", ...pointerTokens(path).slice(1));
  if (index === undefined || field === undefined) return path;
  if (head === "nodes" && field === "config") return pointer("nodes", index, "data", ...rest);
  if (head !== "edges") return path;
  return pointer("edges", index, ...(EDGE_FIELDS.get(field) ?? [field]), ...rest);
}

/**
 * The model's message, its leading workflow pointer replaced by the source pointer: the reader
 * wrote the LangGraph document, not the workflow it was mapped to.
 */
function reasonOf(d: Diagnostic): string {
  const prefix = `${d.path}: `;
  if (d.path === "" || !d.message.startsWith(prefix)) return d.message;
  return `${sourcePath(d.path)}: ${d.message.slice(prefix.length)}`;
}

/** The id of the node a workflow pointer lies in, for {@link ImportError.elementId}. */
function nodeIdAt(draft: Draft, path: string): string | undefined {
  const [head, index] = pointerTokens(path);
  if (head !== "nodes" || index === undefined) return undefined;
  const nodes = draft.nodes;
  const node: unknown = Array.isArray(nodes) ? nodes[Number(index)] : undefined;
  const id = isRecord(node) ? own(node, "id") : undefined;
  return typeof id === "string" ? id : undefined;
}

function build(doc: unknown, warnings: InteropWarning[]): Built {
  if (!isRecord(doc))
    throw fail("", `a LangGraph document must be an object, found ${describeValue(doc)}`);
  for (const key of Object.keys(doc)) {
    if (TOP_LEVEL_KEYS.has(key)) continue;
    warnings.push(
      dropped(pointer(key), `top-level key '${key}' is outside the LangGraph subset`, { key }),
    );
  }
  const id = requireString(doc, "id");
  const name = requireString(doc, "name");
  const version = readVersion(doc, warnings);
  const inputSchema = requireRecord(doc, "input_schema");
  const outputSchema = requireRecord(doc, "output_schema");
  const nodes = requireArray(doc, "nodes").map((n, i) => readNode(n, i, warnings));
  const edges = requireArray(doc, "edges").map((e, i) => readEdge(e, i, warnings));
  renameReserved(nodes, edges, warnings);
  const draft: Draft = {
    kind: "AgentWorkflow",
    id,
    version,
    name,
    autonomyLevel: 1,
    inputSchema,
    outputSchema,
    nodes,
    edges,
  };
  // A structural error is refused at its source path: the reader wrote the LangGraph document.
  const refuse = (d: Diagnostic) => fail(sourcePath(d.path), reasonOf(d), nodeIdAt(draft, d.path));
  return { draft, refuse };
}

const importSubset = defineImport({
  format: LANGGRAPH_SUBSET_ID,
  build,
  // A property the model does not know (inside a node's `data`) is dropped and declared rather
  // than carried along unseen.
  dropUnknownAt: sourcePath,
});

/**
 * Imports a document of the documented LangGraph JSON subset. Throws only
 * {@link ImportError} (of format `langgraph-subset`): for a node type outside llm / tool /
 * decision (naming the node) and for a malformed document (naming the path).
 *
 * @example
 * ```ts
 * import { ImportError, importLangGraph } from "agentflow/interop";
 *
 * const source = {
 *   id: "agnt-faq",
 *   name: "FAQ",
 *   version: "1.0.0",
 *   input_schema: { question: "text" },
 *   output_schema: { answer: "text" },
 *   checkpointer: { type: "memory" },
 *   nodes: [{ id: "llm-1", type: "llm", data: { model: "gpt-4o", promptRef: "prm:faq@1.0.0" } }],
 *   edges: [],
 * };
 * const { workflow, warnings } = importLangGraph(source);
 * workflow.autonomyLevel; // → 1
 * warnings.map((w) => `${w.code} ${w.path}`); // → ["FIELD_DROPPED /checkpointer"]
 *
 * try {
 *   importLangGraph({ ...source, nodes: [{ id: "sub", type: "subgraph", data: {} }] });
 * } catch (error) {
 *   if (!(error instanceof ImportError)) throw error;
 *   error.path; // → "/nodes/0/type"
 *   error.reason; // → "node 'sub' has type 'subgraph'; only llm, tool and decision map to agentflow"
 * }
 * ```
 */
export function importLangGraph(doc: unknown): ImportResult {
  return importSubset(doc);
}
