/**
 * The OpenAgentFlow IR (seed `openagentflow-ir-schema.txt`) as types, and its refusal. Only
 * the fields listed in `docs/interop/openagentflow.md` map; everything else is declared.
 */
import { refusal } from "../types.js";
import { OAF_RUNTIME_DEFAULT_MODEL } from "../../model/internal.js";

/** The {@link Format.id} of the OpenAgentFlow IR. */
export const OPENAGENTFLOW_ID = "openagentflow";

/** The IR version export writes: the seed's current version. Import accepts any `0.x.y`. */
export const OAF_IR_VERSION = "0.1.0";

/**
 * The llm `model` of an agent whose IR `model` is `null` ("the runtime's default model"): an
 * llm node needs a model string, so the import names the default and the export writes `null`
 * back for it. A source model literally called this is therefore exported as `null` too.
 */
export const RUNTIME_DEFAULT_MODEL = OAF_RUNTIME_DEFAULT_MODEL;

/**
 * The condition of the decision an import puts where an agent continues unconditionally both
 * back into a loop and to `end` under `config.max_iterations`: the loop the compiler means, taken
 * while iterations remain, then the end (the route carries no `maxRetries`: the compiler's
 * runtime never enforces `max_iterations`, so the loop is read unbounded). Natural
 * language (`conditionLanguage: "text"`): nothing in the run's output says how many iterations
 * remain. The export writes such a route back as the unconditional edge it came from.
 */
export const OAF_LOOP_CONDITION = "iterations remain under config.max_iterations";

/**
 * The version of the tool ref an agent's in-agent tool is bound to: the IR names a tool only, so
 * `0.0.0` ("not reviewed"); a contract of that id and version states what it does.
 */
export const OAF_TOOL_VERSION = "0.0.0";

/** The tool ref an agent's tool `name` is bound to: `tool:<name>@0.0.0`. */
export function oafToolRef(name: string): string {
  return `tool:${name}@${OAF_TOOL_VERSION}`;
}

/**
 * The condition of the case of an agent's `<agent>-tools` decision that calls tool `name`:
 * natural language, since the model chooses; the export recognises it to write the tool back.
 */
export function oafToolCondition(name: string): string {
  return `the agent calls its tool '${name}'`;
}

/** A node of an IR condition tree, as the OAF compiler writes it (`when` clauses of the flow). */
export type OafExpr =
  | {
      readonly type: "UnaryExpr";
      readonly operator: "not";
      readonly right: OafExpr;
    }
  | {
      readonly type: "LogicalExpr";
      readonly operator: "and" | "or";
      readonly left: OafExpr;
      readonly right: OafExpr;
    }
  | {
      readonly type: "BinaryExpr";
      readonly operator: "==" | "!=" | "<" | "<=" | ">" | ">=";
      readonly left: OafExpr;
      readonly right: OafExpr;
    }
  | { readonly type: "IdentifierExpr"; readonly name: string }
  | { readonly type: "LiteralExpr"; readonly value: string | number | boolean | null };

/** One option (decorator) of a state variable, `@required` or `@reducer("add")`. */
export interface OafOption {
  readonly name: string;
  readonly args: readonly unknown[];
}

/** One state variable with its type descriptor (`list<string>`, `map<string,int>`). */
export interface OafVariable {
  readonly name: string;
  readonly type: string;
  readonly options: readonly OafOption[];
}

/** One agent declaration. */
export interface OafAgent {
  readonly id: string;
  readonly instructions: string;
  readonly model: string | null;
  readonly provider: string | null;
  readonly temperature: number | null;
  readonly tools: readonly string[];
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/** An agent-to-agent edge, optionally guarded by a condition tree. */
export interface OafEdge {
  readonly source: string;
  readonly target: string;
  readonly condition: OafExpr | null;
}

/** An agent that connects to `end`, optionally guarded by a condition tree. */
export interface OafTerminal {
  readonly source: string;
  readonly condition: OafExpr | null;
}

/** A whole IR document, as {@link exportOpenAgentFlow} writes it. */
export interface OafDocument {
  readonly version: string;
  readonly workflow: { readonly name: string; readonly config: Readonly<Record<string, unknown>> };
  readonly state: { readonly variables: readonly OafVariable[] };
  readonly agents: readonly OafAgent[];
  readonly graph: {
    readonly edges: readonly OafEdge[];
    readonly entrypoint: string;
    readonly terminals: readonly OafTerminal[];
  };
}

/** The IR importer's refusal: an ImportError of format `openagentflow` at `path`. */
export const fail = refusal(OPENAGENTFLOW_ID);
