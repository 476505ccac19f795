/**
 * LangGraph's native drawable graph (`get_graph().to_json()`, LangGraph.js
 * `getGraphAsync().toJSON()`, the Platform's `/assistants/{id}/graph`) as types. The
 * mapping is listed in `docs/interop/langgraph-graph.md`.
 */
/** The {@link Format.id} of the native drawable graph. */
export const LANGGRAPH_GRAPH_ID = "langgraph-graph";
/** The {@link Format.id} of the `langgraph-gen` spec. */
export const LANGGRAPH_GEN_ID = "langgraph-gen";

/** The version of every synthesised tool and prompt ref: `0.0.0` says "not reviewed yet". */
export const PLACEHOLDER_VERSION = "0.0.0";

/** A node of the drawable graph; ids are numbers when LangGraph replaced anonymous UUIDs. */
export interface LangGraphGraphNode {
  readonly id: string | number;
  readonly type?: "runnable" | "schema" | "unknown";
  /** Runnables: `{ id: class path, name }`; sentinels: a JSON Schema, a string, or nothing. */
  readonly data?: unknown;
  /** `__interrupt: "before" | "after"` when the graph was compiled with interrupts. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** An edge of the drawable graph: `data` is the branch label of a conditional edge. */
export interface LangGraphGraphEdge {
  readonly source: string | number;
  readonly target: string | number;
  readonly data?: string;
  readonly conditional?: boolean;
}

/** A whole drawable graph document. */
export interface LangGraphGraphDocument {
  readonly nodes: readonly LangGraphGraphNode[];
  readonly edges: readonly LangGraphGraphEdge[];
}
