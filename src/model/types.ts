/**
 * The AgentWorkflow document model (SPEC 2.1). These types describe a document that has passed
 * structural parsing; semantic problems (bad refs, dangling edges, empty schemas) are still
 * possible and are reported by the validation rules, not by the types.
 */

/** One field type: a type-expression string (`"text"`, `"WorkItem[1..6]"`) or a JSON Schema object. */
export type FieldType = string | JsonSchemaField;

/**
 * A JSON Schema (draft 2020-12) used as a field type. A boolean `required` inside it is the older
 * way of saying "this field is required" and is stripped when the shape is compiled.
 */
export type JsonSchemaField = Readonly<Record<string, unknown>>;

/** Field name → field type. A name ending in `?` marks an optional field. */
export type SchemaShape = Readonly<Record<string, FieldType>>;

/** The autonomy levels of the normative scale (SPEC 4). */
export type AutonomyLevel = 0 | 1 | 2 | 3 | 4 | 5;

/** A route out of a decision: the next node id (or `"end"`) and an optional retry bound. */
export interface Route {
  readonly next: string;
  readonly maxRetries?: number;
}

/** A multi-way decision case, evaluated in order. */
export interface DecisionCase extends Route {
  readonly condition: string;
}

/** How a decision's conditions are written: FEEL (simulable subset S-FEEL) or natural language. */
export type ConditionLanguage = "feel" | "text";

/** The seed's binary decision form. */
export interface BinaryDecisionConfig {
  readonly condition: string;
  readonly onTrue: Route;
  readonly onFalse: Route;
  readonly conditionLanguage?: ConditionLanguage;
}

/** The multi-way decision form importers need for routers with N targets. */
export interface MultiwayDecisionConfig {
  readonly cases: readonly DecisionCase[];
  readonly otherwise: Route;
  readonly conditionLanguage?: ConditionLanguage;
}

/** Either decision form; {@link decisionRoutes} turns both into one ordered list. */
export type DecisionConfig = BinaryDecisionConfig | MultiwayDecisionConfig;

/** Configuration of an `llm` node. */
export interface LlmConfig {
  readonly model: string;
  readonly promptRef: string;
  readonly structuredOutput?: boolean;
  readonly outputSchema?: SchemaShape;
  readonly provider?: string;
  readonly fallbackModel?: string;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
}

/** Configuration of a `tool` node. */
export interface ToolConfig {
  readonly usesTool: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly timeoutMs?: number;
}

/** Memory decorator: the node keeps context for the short or long term. */
export interface MemoryDecorator {
  readonly type: "memory";
  readonly scope: "short" | "long";
  readonly expiry?: string;
}

/**
 * Planner decorator: `dynamic` means the agent rewrites its own plan (autonomy 5). A document
 * may leave `strategy` out; parsing writes the default, `static`.
 */
export interface PlannerDecorator {
  readonly type: "planner";
  readonly strategy: "static" | "dynamic";
}

/**
 * Error boundary decorator: failed executions are retried with a logical-time backoff. A
 * document may leave `backoff` out; parsing writes the default, `fixed`.
 */
export interface ErrorBoundaryDecorator {
  readonly type: "errorBoundary";
  readonly maxRetries: number;
  readonly backoff: "fixed" | "exponential";
}

/** Decorators are properties of a node, never nodes of their own. */
export type Decorator = MemoryDecorator | PlannerDecorator | ErrorBoundaryDecorator;

/** What every node has: an id, its type, its configuration, and optional name and decorators. */
export interface NodeBase<T extends string, C> {
  readonly id: string;
  readonly type: T;
  readonly name?: string;
  readonly config: C;
  readonly decorators?: readonly Decorator[];
}

/** A model call. */
export type LlmNode = NodeBase<"llm", LlmConfig>;
/** A call to a tool bound by a versioned contract. */
export type ToolNode = NodeBase<"tool", ToolConfig>;
/** A routing point. */
export type DecisionNode = NodeBase<"decision", DecisionConfig>;

/** Exactly three node types, never a fourth. */
export type AgentNode = LlmNode | ToolNode | DecisionNode;

/** The node type names. */
export type NodeType = AgentNode["type"];

/** How an edge relates its endpoints; `delegate` edges point at another agent workflow. */
export type EdgeType = "toolCall" | "data" | "delegate";

/** A directed edge. For `delegate` edges `to` is a versioned agent ref, not a node id. */
export interface AgentEdge {
  readonly from: string;
  readonly to: string;
  readonly edgeType: EdgeType;
  readonly when?: string;
}

/**
 * Run limits. Cost limits carry an ISO 4217 currency code in the key (`maxCostUSD`, `maxCostBRL`).
 */
export interface Budget {
  readonly maxSteps?: number;
  readonly maxTokens?: number;
  readonly maxWallTimeMs?: number;
  readonly [maxCostCurrency: `maxCost${string}`]: number | undefined;
}

/** The canonical agentflow document. */
export interface AgentWorkflow {
  readonly $schema?: string;
  readonly kind: "AgentWorkflow";
  readonly id: string;
  readonly version: string;
  readonly name: string;
  readonly description?: string;
  readonly autonomyLevel: AutonomyLevel;
  readonly inputSchema: SchemaShape;
  readonly outputSchema: SchemaShape;
  readonly types?: Readonly<Record<string, SchemaShape>>;
  readonly nodes: readonly AgentNode[];
  readonly edges: readonly AgentEdge[];
  readonly budget?: Budget;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** What a tool does to the world; the last two need an approval gate. */
export type ToolEffect =
  "read" | "propose" | "notify" | "write-reversible" | "write-irreversible" | "external-commitment";

/** Whether a tool may run on its own, only behind a gate, or never. */
export type ToolAuthorization = "automatic" | "gate" | "forbidden";

/** A versioned tool contract (SPEC 2.5), resolved by an injected `resolveTool(ref)`. */
export interface ToolContract {
  readonly $schema?: string;
  readonly kind: "ToolContract";
  readonly id: string;
  readonly version: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: SchemaShape;
  readonly outputSchema: SchemaShape;
  readonly effect: ToolEffect;
  readonly authorization: ToolAuthorization;
}
