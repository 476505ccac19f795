/**
 * The `langgraph-gen` spec YAML (the declarative input of the `langgraph-gen` stub generator) as
 * types, and the import error of this format. The mapping is listed in
 * `docs/interop/langgraph-gen.md`.
 */
import { ImportError } from "../types.js";

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

/** Constructor options of {@link LangGraphGenImportError}: those of ImportError, minus `format`. */
export interface LangGraphGenImportErrorOptions {
  readonly path: string;
  readonly reason: string;
  readonly elementId?: string;
  readonly cause?: unknown;
}

/** The {@link ImportError} of the `langgraph-gen` format, so callers can tell formats apart. */
export class LangGraphGenImportError extends ImportError {
  /** Builds the error with this format's id. */
  constructor(options: LangGraphGenImportErrorOptions) {
    super({ ...options, format: LANGGRAPH_GEN_FORMAT_ID });
    this.name = "LangGraphGenImportError";
  }
}
