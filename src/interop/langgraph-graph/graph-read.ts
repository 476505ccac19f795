/**
 * Reading and checking the nodes and edges of a drawable graph, before anything is built: every
 * malformed element fails here with its JSON Pointer, and every key that is not read is declared.
 */
import { pointer } from "../../model/index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { refusal } from "../types.js";
import { dropped, guessed } from "../warnings.js";
import { LANGGRAPH_GRAPH_ID } from "./graph-types.js";

/** A node of the source, checked: `sentinel` for `__start__` / `__end__`. */
export interface SourceNode {
  readonly index: number;
  readonly rawId: string | number;
  /**
   * The LangGraph id as text: a node keeps it as its `name` whenever its agentflow id differs.
   * `data.name` never replaces it (a compiled subgraph's is the class name `LangGraph`).
   */
  readonly name: string;
  /** `data.name` when it is a string that says more than the id (see {@link nameIsId}). */
  readonly dataName?: string;
  /**
   * The number LangGraph.js gave a node drawn with a generated id (`toJSON` numbers them), when
   * its runnable name is read as its LangGraph name instead (the functional API's entrypoint).
   */
  readonly numbered?: number;
  /** `start` / `end`: the graph's own sentinels; `entry` / `exit`: a subgraph's (`x:__start__`). */
  readonly sentinel?: "start" | "end" | "entry" | "exit";
  readonly data: unknown;
}

/** An edge of the source, checked, with its endpoints resolved. */
export interface SourceEdge {
  readonly index: number;
  readonly from: SourceNode;
  readonly to: SourceNode;
  readonly label?: string;
  readonly conditional: boolean;
  /** A branch the drawing leaves out, read in by `hidden-routes.ts` (no index of its own). */
  readonly hidden?: true;
}

const NODE_KEYS = new Set(["id", "type", "data", "metadata"]);
const EDGE_KEYS = new Set(["source", "target", "data", "conditional"]);
const RUNNABLE_DATA_KEYS = new Set(["id", "name"]);
/** Keys of a sentinel's `data` that carry no content: a bare `$schema`, or its own class path. */
const EMPTY_SENTINEL_DATA_KEYS = new Set(["$schema", "id", "name"]);
const NATIVE_TYPES = new Set(["runnable", "unknown"]);
/** A subgraph's sentinel as xray draws it: `<subgraph id>:__start__` / `:__end__`. */
export const SUBGRAPH_SENTINEL = /^.+:__(start|end)__$/;

/** The drawable graph's refusal: an ImportError of format `langgraph-graph` at `path`. */
export const fail = refusal(LANGGRAPH_GRAPH_ID);

function dropKeys(
  item: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  at: readonly (string | number)[],
  what: string,
  warnings: InteropWarning[],
): void {
  for (const key of Object.keys(item)) {
    if (known.has(key)) continue;
    warnings.push(dropped(pointer(...at, key), `${what}: key '${key}' is not read`, { key }));
  }
}

function readMetadata(
  raw: Readonly<Record<string, unknown>>,
  i: number,
  id: string,
  warnings: InteropWarning[],
): void {
  const metadata = own(raw, "metadata");
  if (metadata === undefined) return;
  if (!isRecord(metadata)) {
    warnings.push(
      dropped(pointer("nodes", i, "metadata"), `node '${id}': metadata is not read`, {
        nodeId: id,
        key: "metadata",
      }),
    );
    return;
  }
  for (const [key, value] of Object.entries(metadata)) {
    const path = pointer("nodes", i, "metadata", key);
    if (key === "__interrupt") {
      warnings.push(
        dropped(
          path,
          `node '${id}': the human pause (interrupt ${describeValue(value)}) is not modelled: agentflow has no pause step, and it is not a gate (no tool contract is authorised by it)`,
          { nodeId: id, key, interrupt: value },
        ),
      );
    } else {
      warnings.push(
        dropped(path, `node '${id}': metadata '${key}' is not read`, { nodeId: id, key }),
      );
    }
  }
}

function readSentinelData(data: unknown, i: number, id: string, warnings: InteropWarning[]): void {
  if (data === undefined || data === id) return;
  if (isRecord(data) && Object.keys(data).every((k) => EMPTY_SENTINEL_DATA_KEYS.has(k))) return;
  warnings.push(
    dropped(
      pointer("nodes", i, "data"),
      `sentinel '${id}': its state schema is not read; the workflow schemas are synthesised`,
      { nodeId: id, key: "data" },
    ),
  );
}

/** Whether `data.name` says nothing the id does not: the id itself or its last `x:` segment. */
export function nameIsId(name: unknown, id: string): boolean {
  return name === undefined || name === id || name === id.slice(id.lastIndexOf(":") + 1);
}

function readRunnableData(data: unknown, i: number, id: string, warnings: InteropWarning[]): void {
  if (data === undefined) return;
  if (!isRecord(data)) {
    warnings.push(
      dropped(
        pointer("nodes", i, "data"),
        `node '${id}': data ${describeValue(data)} is not read`,
        { nodeId: id, key: "data" },
      ),
    );
    return;
  }
  dropKeys(data, RUNNABLE_DATA_KEYS, ["nodes", i, "data"], `node '${id}'`, warnings);
}

function readNode(
  raw: unknown,
  i: number,
  roles: ReadonlyMap<number, "start" | "end">,
  warnings: InteropWarning[],
): SourceNode {
  if (!isRecord(raw))
    throw fail(pointer("nodes", i), `a node must be an object, found ${describeValue(raw)}`);
  const rawId = own(raw, "id");
  if (typeof rawId !== "string" && (typeof rawId !== "number" || !Number.isFinite(rawId))) {
    throw fail(
      pointer("nodes", i, "id"),
      `a node needs a string or numeric id, found ${describeValue(rawId)}`,
    );
  }
  const id = String(rawId);
  const data = own(raw, "data");
  const name = id;
  dropKeys(raw, NODE_KEYS, ["nodes", i], `node '${id}'`, warnings);
  readMetadata(raw, i, id, warnings);
  if (rawId === "__start__" || rawId === "__end__") {
    readSentinelData(data, i, id, warnings);
    return { index: i, rawId, name, sentinel: rawId === "__start__" ? "start" : "end", data };
  }
  const role = roles.get(i);
  if (role !== undefined) {
    const message = `node '${id}' is a schema node with ${role === "start" ? "no edge into it" : "no edge out of it"}: LangGraph.js draws a graph without named sentinels (the functional API's entrypoint) this way; it is read as __${role}__`;
    warnings.push(
      guessed(pointer("nodes", i, "id"), message, { nodeId: rawId, assumed: `__${role}__` }),
    );
    readSentinelData(data, i, id, warnings);
    return { index: i, rawId, name, sentinel: role, data };
  }
  // xray draws a subgraph it cannot trim to one first / last node with its own sentinels,
  // prefixed by the subgraph's node id (`writer_team:__start__`): its entry and exit.
  const sub = SUBGRAPH_SENTINEL.exec(id);
  if (sub !== null) {
    readSentinelData(data, i, id, warnings);
    return { index: i, rawId, name, sentinel: sub[1] === "start" ? "entry" : "exit", data };
  }
  const type = own(raw, "type");
  if (type !== undefined && (typeof type !== "string" || !NATIVE_TYPES.has(type))) {
    throw fail(
      pointer("nodes", i, "type"),
      `node '${id}' has type ${describeValue(type)}; only runnable and unknown nodes are steps (schema nodes are the __start__ / __end__ sentinels)`,
      id,
    );
  }
  readRunnableData(data, i, id, warnings);
  const dataName = isRecord(data) ? own(data, "name") : undefined;
  const named = typeof dataName === "string" && dataName !== "" && !nameIsId(dataName, id);
  if (named && typeof rawId === "number") {
    // LangGraph.js numbers what it drew with a generated id: the runnable's name is its name.
    const message = `node ${id} has a number for id, which LangGraph.js gives a node it drew with a generated id; its runnable name '${dataName}' is read as its LangGraph name`;
    warnings.push(guessed(pointer("nodes", i, "id"), message, { number: rawId, name: dataName }));
    return { index: i, rawId, name: dataName, numbered: rawId, data };
  }
  return { index: i, rawId, name, data, ...(named ? { dataName } : {}) };
}

/** Reads every node; duplicate ids fail at the second one. */
export function readNodes(
  raw: readonly unknown[],
  roles: ReadonlyMap<number, "start" | "end">,
  warnings: InteropWarning[],
): Map<string | number, SourceNode> {
  const nodes = new Map<string | number, SourceNode>();
  raw.forEach((item, i) => {
    const node = readNode(item, i, roles, warnings);
    if (nodes.has(node.rawId)) {
      throw fail(
        pointer("nodes", i, "id"),
        `duplicate node id ${describeValue(node.rawId)}`,
        String(node.rawId),
      );
    }
    nodes.set(node.rawId, node);
  });
  return nodes;
}

function endpoint(
  raw: Readonly<Record<string, unknown>>,
  key: string,
  i: number,
  nodes: ReadonlyMap<string | number, SourceNode>,
): SourceNode {
  const value = own(raw, key);
  const node =
    typeof value === "string" || typeof value === "number" ? nodes.get(value) : undefined;
  if (node === undefined) {
    throw fail(
      pointer("edges", i, key),
      `an edge ${key} must be the id of a node, found ${describeValue(value)}`,
    );
  }
  return node;
}

/** Reads every edge: endpoints must be node ids; nothing leaves `__end__` or enters `__start__`. */
export function readEdges(
  raw: readonly unknown[],
  nodes: ReadonlyMap<string | number, SourceNode>,
  warnings: InteropWarning[],
): SourceEdge[] {
  return raw.map((item, i) => {
    if (!isRecord(item))
      throw fail(pointer("edges", i), `an edge must be an object, found ${describeValue(item)}`);
    const from = endpoint(item, "source", i, nodes);
    const to = endpoint(item, "target", i, nodes);
    if (from.sentinel === "end")
      throw fail(pointer("edges", i, "source"), "no edge may leave __end__");
    if (to.sentinel === "start")
      throw fail(pointer("edges", i, "target"), "no edge may enter __start__");
    const label = own(item, "data");
    if (label !== undefined && label !== null && typeof label !== "string") {
      throw fail(
        pointer("edges", i, "data"),
        `an edge's data must be a branch label (a string), found ${describeValue(label)}`,
      );
    }
    const conditional = own(item, "conditional") ?? false;
    if (typeof conditional !== "boolean") {
      throw fail(
        pointer("edges", i, "conditional"),
        `'conditional' must be a boolean, found ${describeValue(conditional)}`,
      );
    }
    dropKeys(
      item,
      EDGE_KEYS,
      ["edges", i],
      `edge ${String(i)} ('${from.name}' -> '${to.name}')`,
      warnings,
    );
    return { index: i, from, to, conditional, ...(typeof label === "string" ? { label } : {}) };
  });
}
