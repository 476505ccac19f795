/**
 * The JSON Schema (draft 2020-12) of agentflow's approval predicate, published as
 * `schemas/approval-predicate.schema.json` (`npm run schemas`) for other verifiers, and the one
 * `statementProblems` checks a statement's predicate against. Closed objects throughout: a field
 * the schema does not know is a field no verifier checks, so it is refused rather than carried.
 */
import { PREDICATE_TYPE } from "./types.js";
import { CONTENT_HASH_PATTERN, TIME_PATTERN } from "./internal.js";

const text = (description: string): Record<string, unknown> => ({
  type: "string",
  minLength: 1,
  description,
});

const nullable = (schema: Record<string, unknown>): Record<string, unknown> => ({
  anyOf: [schema, { type: "null" }],
});

const level = (description: string): Record<string, unknown> => ({
  ...nullable({ type: "integer", minimum: 0 }),
  description,
});

const object = (
  properties: Record<string, unknown>,
  optional: readonly string[] = [],
): Record<string, unknown> => ({
  type: "object",
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});

const CONTENT_HASH = { type: "string", pattern: CONTENT_HASH_PATTERN };

/** The predicate's schema. */
export const APPROVAL_PREDICATE_SCHEMA: Readonly<Record<string, unknown>> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: PREDICATE_TYPE,
  title: "agentflow approval predicate",
  description:
    "What an agentflow approval decided: the version and rule set that judged, how the gate was run, each process's decision, and the first approver's claim (docs/approval.md).",
  ...object({
    agentflow: object({ version: text("The agentflow version that made the decisions.") }),
    ruleSet: object({
      digest: text("The rule-set digest the decisions were judged by."),
      preset: text("The workflow rule preset."),
    }),
    inputs: object({
      paths: {
        type: "array",
        items: { type: "string", minLength: 1 },
        description: "The paths approve was given, relative to the repository root.",
      },
      registry: {
        type: "array",
        items: { type: "string", minLength: 1 },
        description: "The registry folders, relative to the repository root.",
      },
      config: {
        ...nullable({ type: "string", minLength: 1 }),
        description: "The config's subject.",
      },
    }),
    processes: {
      type: "array",
      items: { $ref: "#/$defs/process" },
      description: "Each process's decision, sorted by name.",
    },
    approver: { $ref: "#/$defs/claim" },
  }),
  $defs: {
    claim: object(
      {
        role: text("The role the approver signed as."),
        ticket: text("The change ticket the approval belongs to."),
        time: { type: "string", pattern: TIME_PATTERN, description: "ISO 8601 UTC time." },
      },
      ["ticket"],
    ),
    process: object({
      name: text("The process file's subject name."),
      processIds: { type: "array", items: { type: "string", minLength: 1 } },
      allowed: {
        type: "boolean",
        description:
          "The promotion verdict: true in an approval (signing and verifying refuse a blocked promotion).",
      },
      agentTasks: { type: "array", items: { $ref: "#/$defs/task" } },
    }),
    task: object({
      elementId: text("The agent task's BPMN element id."),
      source: { enum: ["btv", "camunda"] },
      ref: nullable({ type: "string", minLength: 1 }),
      declaredLevel: level("The level the agent declares."),
      justifiedLevel: level("The level the resolved workflow's graph justifies."),
      effectiveLevel: level("The stricter of the two: the level the gate was judged on."),
      gate: { enum: ["reached", "bypassed", "missing"] },
      resolution: { enum: ["registry", "snapshot", "unresolved", "derived"] },
      workflow: nullable({ type: "string", minLength: 1 }),
      contentHash: nullable(CONTENT_HASH),
      dependencies: { type: "array", items: { $ref: "#/$defs/dependency" } },
    }),
    dependency: object({
      kind: { enum: ["tool", "delegate"] },
      ref: text("The canonical id@version looked up."),
      name: nullable({ type: "string", minLength: 1 }),
      contentHash: nullable(CONTENT_HASH),
      failure: nullable({ type: "string", minLength: 1 }),
    }),
  },
};
