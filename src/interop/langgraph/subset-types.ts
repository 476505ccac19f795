/**
 * The documented LangGraph JSON subset (seed A-7) as types, and its import error. Only these
 * fields map; the mapping is listed in `docs/interop/langgraph.md`.
 */
import type {
  DecisionConfig,
  EdgeType,
  LlmConfig,
  NodeType,
  SchemaShape,
  ToolConfig,
} from "../../model/index.js";
import { ImportError } from "../types.js";

/** The {@link Format.id} of the subset. */
export const LANGGRAPH_SUBSET_ID = "langgraph-subset";

/** A node of the subset: `data` is the agentflow node `config`, unchanged. */
export interface LangGraphSubsetNode {
  readonly id: string;
  readonly type: NodeType;
  readonly data: LlmConfig | ToolConfig | DecisionConfig;
}

/** The `data` of an edge: its agentflow edge type and optional label. */
export interface LangGraphSubsetEdgeData {
  readonly edgeType: EdgeType;
  readonly when?: string;
}

/** An edge of the subset. */
export interface LangGraphSubsetEdge {
  readonly source: string;
  readonly target: string;
  readonly data: LangGraphSubsetEdgeData;
}

/** A whole subset document, as {@link exportLangGraph} writes it. */
export interface LangGraphSubsetDocument {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly input_schema: SchemaShape;
  readonly output_schema: SchemaShape;
  readonly nodes: readonly LangGraphSubsetNode[];
  readonly edges: readonly LangGraphSubsetEdge[];
}

/** Constructor options of {@link LangGraphImportError}: those of {@link ImportError} minus `format`. */
export interface LangGraphImportErrorOptions {
  readonly path: string;
  readonly reason: string;
  readonly elementId?: string;
  readonly cause?: unknown;
}

/**
 * The seed's `LangGraphImportError`: every refusal of the subset importer, so that callers who
 * only know the generic contract can still catch it as an {@link ImportError}.
 */
export class LangGraphImportError extends ImportError {
  /** Builds the error with the subset's format id. */
  constructor(options: LangGraphImportErrorOptions) {
    super({ ...options, format: LANGGRAPH_SUBSET_ID });
    this.name = "LangGraphImportError";
  }
}
