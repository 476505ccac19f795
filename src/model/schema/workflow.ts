/**
 * The published JSON Schemas, kept as TypeScript data so that the library needs no JSON import
 * and no file access; `schemas/*.json` are written from these objects (`npm run schemas`) and a
 * test keeps the two identical. The schemas check structure and types only: everything a rule
 * checks stays a rule, so that a document with a bad ref or a dangling edge still parses and gets
 * the precise rule diagnostic.
 */

/** Base of the `$id`s: an identifier, not a download location (see docs/model.md). */
export const SCHEMA_BASE = "https://agentflow.dev/schemas/";

const shape = {
  description: 'Field name → type expression ("text", "Item[1..6]") or a JSON Schema object',
  type: "object",
  additionalProperties: { type: ["string", "object"] },
} as const;

const route = {
  type: "object",
  required: ["next"],
  properties: {
    next: { type: "string", minLength: 1 },
    maxRetries: { type: "integer", minimum: 0 },
  },
  additionalProperties: false,
} as const;

const conditionLanguage = { enum: ["feel", "text"] } as const;

const llmConfig = {
  type: "object",
  required: ["model", "promptRef"],
  properties: {
    model: { type: "string", minLength: 1 },
    promptRef: { type: "string" },
    structuredOutput: { type: "boolean" },
    outputSchema: { $ref: "#/$defs/shape" },
    provider: { type: "string" },
    fallbackModel: { type: "string" },
    temperature: { type: "number", minimum: 0, maximum: 2 },
    maxOutputTokens: { type: "integer", minimum: 1 },
  },
  additionalProperties: false,
} as const;

const toolConfig = {
  type: "object",
  required: ["usesTool"],
  properties: {
    usesTool: { type: "string" },
    params: { type: "object" },
    timeoutMs: { type: "integer", minimum: 0 },
  },
  additionalProperties: false,
} as const;

const binaryDecision = {
  type: "object",
  required: ["condition", "onTrue", "onFalse"],
  properties: {
    condition: { type: "string" },
    onTrue: { $ref: "#/$defs/route" },
    onFalse: { $ref: "#/$defs/route" },
    conditionLanguage,
  },
  additionalProperties: false,
} as const;

const multiwayDecision = {
  type: "object",
  required: ["cases", "otherwise"],
  properties: {
    cases: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["condition", "next"],
        properties: {
          condition: { type: "string" },
          next: { type: "string", minLength: 1 },
          maxRetries: { type: "integer", minimum: 0 },
        },
        additionalProperties: false,
      },
    },
    otherwise: { $ref: "#/$defs/route" },
    conditionLanguage,
  },
  additionalProperties: false,
} as const;

/** `then` applies to an object whose `type` is `type`; typed so that checks can pick a branch. */
function whenType<T extends string, S extends object>(
  type: T,
  then: S,
): {
  readonly if: {
    readonly type: "object";
    readonly required: readonly ["type"];
    readonly properties: { readonly type: { readonly const: T } };
  };
  readonly then: S;
} {
  return {
    if: { type: "object", required: ["type"], properties: { type: { const: type } } },
    then,
  };
}

const decorator = {
  type: "object",
  required: ["type"],
  properties: { type: { enum: ["memory", "planner", "errorBoundary"] } },
  allOf: [
    whenType("memory", {
      required: ["scope"],
      properties: {
        type: true,
        scope: { enum: ["short", "long"] },
        expiry: { type: "string" },
      },
      additionalProperties: false,
    }),
    whenType("planner", {
      properties: { type: true, strategy: { enum: ["static", "dynamic"], default: "static" } },
      additionalProperties: false,
    }),
    whenType("errorBoundary", {
      required: ["maxRetries"],
      properties: {
        type: true,
        maxRetries: { type: "integer", minimum: 0 },
        backoff: { enum: ["fixed", "exponential"], default: "fixed" },
      },
      additionalProperties: false,
    }),
  ],
} as const;

const node = {
  type: "object",
  required: ["id", "type", "config"],
  properties: {
    id: { type: "string", minLength: 1 },
    type: { enum: ["llm", "tool", "decision"] },
    name: { type: "string" },
    config: { type: "object" },
    decorators: { type: "array", items: { $ref: "#/$defs/decorator" } },
  },
  additionalProperties: false,
  allOf: [
    whenType("llm", { properties: { config: { $ref: "#/$defs/llmConfig" } } }),
    whenType("tool", { properties: { config: { $ref: "#/$defs/toolConfig" } } }),
    whenType("decision", { properties: { config: { $ref: "#/$defs/decisionConfig" } } }),
  ],
} as const;

const edge = {
  type: "object",
  required: ["from", "to", "edgeType"],
  properties: {
    from: { type: "string" },
    to: { type: "string" },
    edgeType: { enum: ["toolCall", "data", "delegate"] },
    when: { type: "string" },
  },
  additionalProperties: false,
} as const;

const budget = {
  type: "object",
  properties: {
    maxSteps: { type: "integer", minimum: 1 },
    maxTokens: { type: "integer", minimum: 1 },
    maxWallTimeMs: { type: "number", minimum: 0 },
  },
  patternProperties: { "^maxCost[A-Z]{3}$": { type: "number", minimum: 0 } },
  additionalProperties: false,
} as const;

/** Pattern of workflow and tool-contract ids. */
export const ID_PATTERN_SOURCE = "^[A-Za-z][A-Za-z0-9._:-]*$";

/** JSON Schema (draft 2020-12) of an AgentWorkflow document. */
export const agentWorkflowSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `${SCHEMA_BASE}agent-workflow.schema.json`,
  title: "AgentWorkflow",
  description: "A governed AI-agent sub-workflow (agentflow).",
  type: "object",
  required: [
    "kind",
    "id",
    "version",
    "name",
    "autonomyLevel",
    "inputSchema",
    "outputSchema",
    "nodes",
    "edges",
  ],
  properties: {
    $schema: { type: "string" },
    kind: { const: "AgentWorkflow" },
    id: { type: "string", pattern: ID_PATTERN_SOURCE },
    version: { type: "string", minLength: 1 },
    name: { type: "string" },
    description: { type: "string" },
    autonomyLevel: { type: "integer", minimum: 0, maximum: 5 },
    inputSchema: { $ref: "#/$defs/shape" },
    outputSchema: { $ref: "#/$defs/shape" },
    types: { type: "object", additionalProperties: { $ref: "#/$defs/shape" } },
    nodes: { type: "array", items: { $ref: "#/$defs/node" } },
    edges: { type: "array", items: { $ref: "#/$defs/edge" } },
    budget: { $ref: "#/$defs/budget" },
    metadata: { type: "object" },
  },
  additionalProperties: false,
  $defs: {
    shape,
    route,
    llmConfig,
    toolConfig,
    decisionConfig: {
      type: "object",
      if: { required: ["cases"] },
      then: { $ref: "#/$defs/multiwayDecision" },
      else: { $ref: "#/$defs/binaryDecision" },
    },
    binaryDecision,
    multiwayDecision,
    decorator,
    node,
    edge,
    budget,
  },
} as const;

/** JSON Schema (draft 2020-12) of a ToolContract document. */
export const toolContractSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: `${SCHEMA_BASE}tool-contract.schema.json`,
  title: "ToolContract",
  description: "A versioned contract of a tool an agent may call (agentflow).",
  type: "object",
  required: [
    "kind",
    "id",
    "version",
    "name",
    "inputSchema",
    "outputSchema",
    "effect",
    "authorization",
  ],
  properties: {
    $schema: { type: "string" },
    kind: { const: "ToolContract" },
    id: { type: "string", pattern: "^tool:[A-Za-z0-9._:-]+$" },
    version: { type: "string", minLength: 1 },
    name: { type: "string" },
    description: { type: "string" },
    inputSchema: { $ref: "#/$defs/shape" },
    outputSchema: { $ref: "#/$defs/shape" },
    effect: {
      enum: [
        "read",
        "propose",
        "notify",
        "write-reversible",
        "write-irreversible",
        "external-commitment",
      ],
    },
    authorization: { enum: ["automatic", "gate", "forbidden"] },
  },
  additionalProperties: false,
  $defs: { shape },
} as const;
