/**
 * The AgentOS `CompiledExecutionGraph` IR (seed `agentos-orchestration.txt`) as far as the importer
 * reads it, and its refusal. The mapping is listed in `docs/interop/agentos.md`.
 */
import { refusal } from "../types.js";

/** The {@link Format.id} of the AgentOS CompiledExecutionGraph format. */
export const AGENTOS_ID = "agentos";

/** The IR's entry sentinel: an edge from it names the node a run starts with. */
export const START = "__START__";
/** The IR's exit sentinel: an edge to it ends the run (agentflow route target `"end"`). */
export const END = "__END__";
/**
 * The placeholder target `AgentGraph.addConditionalEdge()` stores: the real target is chosen by
 * a JS function that did not survive serialisation, so AgentOS (0.9.164) reads the edge as able
 * to lead to every node or `__END__`, and so does the import.
 */
export const CONDITIONAL = "__CONDITIONAL__";

/** The AgentOS importer's refusal: an ImportError of format `agentos` at `path`. */
export const fail = refusal(AGENTOS_ID);

/** A workflow fragment under construction: plain data, checked by `parseWorkflow` at the end. */
export type Draft = Record<string, unknown>;

/** An imported node: the agentflow node draft and the index of the source node it came from. */
export interface MappedNode {
  /** The source node's id, as written. */
  readonly sourceId: string;
  /** The node's workflow id (the importers' one mapper: `end` and invalid ids are renamed). */
  readonly nodeId: string;
  /** Index in the source `nodes` array, for error paths. */
  readonly index: number;
  /** The source node's `type` (`gmi`, `tool`, `router`, ...). */
  readonly sourceType: string;
  /** The agentflow node; a router's `config` is filled in from its edges. */
  readonly node: Draft;
  /** A router's expression condition, quoted in the text conditions of its routes. */
  readonly routerExpr?: string;
  /** A gmi node's tool loop and its bound (`undefined`: none agentflow can read). */
  readonly toolLoop?: { readonly max: number | undefined };
}

/** One source edge, read: its index, ends and type, and the raw object for its other keys. */
export interface Edge {
  readonly i: number;
  readonly source: string;
  readonly target: string;
  readonly type: string;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Maps an edge end (a node id or `__END__`) to a workflow id or `"end"`, or fails at `key`. */
export type Resolve = (name: string, edge: Edge, key?: string) => string;

/** A choice read as a decision; `skipped.ts` (`leadOnPastSkips`) rewrites its routes' `next` in place. */
export interface Choice {
  /** The source node whose out-edges the choice picks among. */
  readonly node: MappedNode;
  /** The workflow id of the decision that holds the routes. */
  readonly decisionId: string;
  /** How the warning names it: `router 'r'`, `the personality decision 'a.personality'`. */
  readonly label: string;
  /** Workflow ids of the source node's out-edge targets (`"end"`): those a route may skip. */
  readonly targets: readonly string[];
  /** The decision's routes: drafts whose `next` is the workflow id of a target, or `"end"`. */
  readonly routes: readonly Draft[];
  /**
   * Where the decision's data edges documenting its routes end, in the flow's edges (a router's
   * do); `undefined` when it has none. A route that leads elsewhere is documented there too.
   */
  readonly documentedAt: number | undefined;
}
