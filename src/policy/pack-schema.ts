/**
 * The JSON Schema (draft 2020-12) of a policy pack, published as
 * `schemas/policy-pack.schema.json` (`npm run schemas`) for editors, and the shape every pack is
 * checked against before its rules are compiled. What a schema cannot say well (a real calendar
 * date, a waiver's subject, FEEL, the fact names) is checked after it, with the same places.
 */

/** A pack's name: it prefixes its rules' codes (`acme-bank/four-eyes`), as a plugin's does. */
export const PACK_NAME_PATTERN = "^[a-z0-9][a-z0-9._-]*$";

/** A rule's id: letters, digits, `_` and `-` (a rule code's last part). */
export const RULE_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_-]*$";

/** `YYYY-MM-DD`; whether the day exists is checked in `waivers.ts`. */
export const DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

const text = (description: string): Record<string, unknown> => ({
  type: "string",
  minLength: 1,
  description,
});

const count = (description: string): Record<string, unknown> => ({
  type: "integer",
  minimum: 0,
  description,
});

/** The schema of one waiver, shared with the config's `waivers`. */
export const WAIVER_SCHEMA: Readonly<Record<string, unknown>> = {
  type: "object",
  description:
    "A finding the organisation accepts for a time on one subject: a process (and an element of it) or a workflow (id@version), not both.",
  required: ["rule", "reason", "grantedBy", "expires"],
  properties: {
    rule: text(
      "The rule: a built-in code, <plugin>/<CODE>, or a pack rule's id with or without <pack>/.",
    ),
    process: text("The id of the BPMN process the waiver covers."),
    element: text("An element of that process (an agent task); absent: the whole process."),
    workflow: text("A workflow subject, id@version."),
    reason: text("Why the organisation accepts the finding."),
    grantedBy: text("Who granted the waiver."),
    expires: {
      type: "string",
      pattern: DATE_PATTERN,
      description: "YYYY-MM-DD: the last day the waiver holds.",
    },
  },
  dependentRequired: { element: ["process"] },
  additionalProperties: false,
};

/**
 * The Ajv options the pack schema is compiled with (shape.ts): strict as the config is checked,
 * every error, and the failing data in each error for the wording. The Modeler plug-in's build
 * precompiles the schema with the same options and hands that validator out only for them.
 */
export const PACK_SCHEMA_AJV_OPTIONS = Object.freeze({
  strict: true,
  allErrors: true,
  verbose: true,
});

/** The schema of a policy pack. */
export const POLICY_PACK_SCHEMA: Readonly<Record<string, unknown>> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://agentflow.dev/schemas/policy-pack.schema.json",
  title: "PolicyPack",
  description:
    "An organisation's policy as data: rules over agent tasks, workflows, tools and processes (agentflow, docs/policies.md).",
  type: "object",
  required: ["kind", "name", "version", "rules"],
  properties: {
    $schema: { type: "string" },
    kind: { const: "PolicyPack" },
    name: {
      type: "string",
      pattern: PACK_NAME_PATTERN,
      description: "Lowercase letters, digits, '.', '_' and '-'; it prefixes the rule codes.",
    },
    version: text("The pack's version, as its owners release it (1.2.0)."),
    description: { type: "string" },
    rules: { type: "array", items: { $ref: "#/$defs/rule" } },
    waivers: { type: "array", items: { $ref: "#/$defs/waiver" } },
  },
  additionalProperties: false,
  $defs: {
    rule: {
      type: "object",
      required: ["id", "severity", "for"],
      properties: {
        id: { type: "string", pattern: RULE_ID_PATTERN, description: "Unique in the pack." },
        severity: { enum: ["error", "warning", "info"] },
        for: {
          enum: ["agentTask", "workflow", "tool", "process"],
          description: "The subject the rule judges.",
        },
        when: text("A FEEL expression over the subject's facts; absent: every subject."),
        message: text("The finding's words; {{name}} shows a fact (dotted names read into it)."),
        description: text("One line: what the rule finds."),
        remediation: text("What to do about a finding; a template like message."),
        docs: text("Where the rule is explained (a URL)."),
        require: {
          type: "object",
          description: "Path predicates every path from the agent task to an end must meet.",
          required: ["gates"],
          properties: { gates: { $ref: "#/$defs/gates" } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    gates: {
      type: "object",
      minProperties: 1,
      properties: {
        min: count("Every path passes at least this many approval gates."),
        distinctRoles: count(
          "Every path passes at least this many gates no one group, user or assignee may approve two of.",
        ),
        roles: {
          type: "array",
          minItems: 1,
          uniqueItems: true,
          items: { type: "string", minLength: 1 },
          description: "Every path passes a gate of each of these approver roles.",
        },
      },
      additionalProperties: false,
    },
    waiver: WAIVER_SCHEMA,
  },
};
