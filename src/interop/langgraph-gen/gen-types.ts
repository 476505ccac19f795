/**
 * The `langgraph-gen` spec YAML (the declarative input of the `langgraph-gen` stub generator) as
 * types. The mapping is listed in `docs/interop/langgraph-gen.md`.
 */
/** The {@link Format.id} of the `langgraph-gen` spec. */
export const LANGGRAPH_GEN_FORMAT_ID = "langgraph-gen";

/** A node of the spec: only its name; what it does lives in the generated stub. */
export interface LangGraphGenNode {
  readonly name: string;
}

/** A plain edge (`to`) or a conditional one (`condition` routes to one of `paths`). */
export interface LangGraphGenEdge {
  readonly from: string;
  readonly to?: string;
  readonly condition?: string;
  readonly paths?: readonly string[];
}

/** A decoded spec: a graph name, its entry node, its nodes and its edges. */
export interface LangGraphGenDocument {
  readonly name: string;
  readonly entrypoint: string;
  readonly nodes: readonly LangGraphGenNode[];
  readonly edges: readonly LangGraphGenEdge[];
}
