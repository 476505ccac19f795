/**
 * The AgentOS `CompiledExecutionGraph` IR (seed `agentos-orchestration.txt`) as far as the importer
 * reads it, and its import error. The mapping is listed in `docs/interop/agentos.md`.
 */
import { ImportError } from "../types.js";

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

/** Constructor options of {@link AgentOsImportError}: those of {@link ImportError} minus `format`. */
export interface AgentOsImportErrorOptions {
  readonly path: string;
  readonly reason: string;
  readonly elementId?: string;
  readonly cause?: unknown;
}

/**
 * Every refusal of the AgentOS importer, so that callers who only know the generic contract can
 * catch it as an {@link ImportError} and still tell the format apart by class.
 */
export class AgentOsImportError extends ImportError {
  /** Builds the error with the AgentOS format id. */
  constructor(options: AgentOsImportErrorOptions) {
    super({ ...options, format: AGENTOS_ID });
    this.name = "AgentOsImportError";
  }
}

/** Builds an {@link AgentOsImportError}; `elementId` only when there is one. */
export function fail(path: string, reason: string, elementId?: string): AgentOsImportError {
  return new AgentOsImportError(
    elementId === undefined ? { path, reason } : { path, reason, elementId },
  );
}

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
