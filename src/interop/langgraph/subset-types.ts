/**
 * The documented LangGraph JSON subset (seed A-7) as types. Only these fields map; the mapping is
 * listed in `docs/interop/langgraph.md`.
 */
import type {
  DecisionConfig,
  EdgeType,
  LlmConfig,
  NodeType,
  SchemaShape,
  ToolConfig,
} from "../../model/index.js";

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
