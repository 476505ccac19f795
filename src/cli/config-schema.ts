/**
 * The JSON Schema of `agentflow.config.json`, published as `schemas/agentflow-config.schema.json`
 * (written by `npm run schemas`) so that editors complete and check the file, and used by the CLI
 * to validate it. Rule codes are listed, so a misspelt code is caught with its pointer.
 */
import { BPMN_RULES, TOOL_EFFECTS, UNKNOWN_LEVEL_POLICIES } from "../bpmn/index.js";
import { PACK_NAME_PATTERN, WAIVER_SCHEMA } from "../policy/pack-schema.js";
import { PRESET_NAMES, RULES } from "../validate/index.js";

/** Where the config schema is published, as its `$id`. */
export const CONFIG_SCHEMA_ID = "https://agentflow.dev/schemas/agentflow-config.schema.json";

/** The settings a rule can be given in the config file. */
export const RULE_LEVELS = ["off", "warn", "error"] as const;

/**
 * A plugin's or a policy pack's rule code, `<name>/<CODE>`: which names exist is known only once
 * the config's plugins and packs are loaded (`extensions.ts` refuses a code none defines).
 */
export const NAMESPACED_CODE_PATTERN = "^[a-z0-9][a-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$";

/** A plugin's name in the config: what its rules are prefixed with. */
export const PLUGIN_NAME_PATTERN = PACK_NAME_PATTERN;

/** Every built-in rule code the config file may name, sorted. */
export function configurableRuleCodes(): string[] {
  return [...RULES, ...BPMN_RULES].map((r) => r.meta.code).sort();
}

/** Builds the schema (a function, so that loading the module compiles nothing). */
export function configSchema(): Readonly<Record<string, unknown>> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: CONFIG_SCHEMA_ID,
    title: "agentflow configuration",
    description:
      "agentflow.config.json: settings for `agentflow check` and `agentflow gate` in a repository. Command-line flags win over it.",
    type: "object",
    additionalProperties: false,
    properties: configProperties(),
  };
}

/**
 * The schema's `properties`: every setting the file may hold (no other is allowed), with the
 * schema of each. The Modeler plug-in, which checks the file by hand, reads the names from here.
 */
export function configProperties(): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  return {
    $schema: { type: "string", description: "The schema of this file, for editors." },
    preset: {
      enum: [...PRESET_NAMES],
      description: "The rule preset (default recommended).",
    },
    rules: {
      type: "object",
      description:
        'Per-rule settings by code: "off", "warn" or "error". A plugin\'s rules are <plugin>/<CODE> and a policy pack\'s <pack>/<id>; those may also be ["error", { options }].',
      propertyNames: {
        anyOf: [{ enum: configurableRuleCodes() }, { pattern: NAMESPACED_CODE_PATTERN }],
      },
      patternProperties: {
        [NAMESPACED_CODE_PATTERN]: {
          oneOf: [
            { enum: [...RULE_LEVELS] },
            {
              type: "array",
              prefixItems: [{ enum: [...RULE_LEVELS] }, { type: "object" }],
              items: false,
              minItems: 2,
            },
          ],
        },
      },
      additionalProperties: { enum: [...RULE_LEVELS] },
    },
    plugins: {
      type: "object",
      description:
        "Plugins by the name their rules are prefixed with: a path to an ES module (relative to this file) or an npm package name, resolved from this file's folder and inside the repository. Loading a plugin runs its code (docs/policies.md).",
      propertyNames: { pattern: PLUGIN_NAME_PATTERN },
      additionalProperties: { type: "string", minLength: 1 },
    },
    extends: {
      description:
        'Configs this file applies over, in order, later ones winning and this file last: a shared config by path ("./org.config.json", relative to this file) or by npm package ("@org/agentflow-config", its agentflow.config.json; "org-config/strict.json", a file in it), or a plugin\'s config ("<plugin>/<config>", e.g. "acme/recommended"). rules merge by code, plugins, toolEffects and policy by key; every other setting is replaced whole.',
      oneOf: [
        { type: "string", minLength: 1 },
        { type: "array", items: { type: "string", minLength: 1 } },
      ],
    },
    policies: {
      type: "array",
      description:
        "Policy packs (YAML or JSON, docs/policies.md), relative to this file and inside the repository; their rules are <pack>/<id>.",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
    },
    waivers: {
      type: "array",
      description:
        "Findings the organisation accepts for a time: each names the rule, one subject (a process and an optional element, or a workflow id@version), a reason, who granted it and its last day. A waived finding is still shown but no longer blocks; an expired waiver is itself a finding.",
      items: WAIVER_SCHEMA,
    },
    registry: {
      description:
        "A folder, or a non-empty list of folders, of workflows and tool contracts, relative to this file.",
      oneOf: [
        { type: "string", minLength: 1 },
        { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
      ],
    },
    ignores: {
      type: "array",
      description:
        "Glob patterns (relative to this file) of files and folders that globs and folder walks pass over.",
      items: { type: "string", minLength: 1 },
    },
    toolEffects: {
      type: "object",
      description:
        'Effects of Camunda AI agents\' tools, by job type or element template id: an effect, or effects by the value of the operation selector input ("$input" names it where agentflow knows none; "*" is any other value). See docs/bpmn.md.',
      propertyNames: { minLength: 1 },
      additionalProperties: {
        oneOf: [
          { enum: [...TOOL_EFFECTS] },
          {
            type: "object",
            minProperties: 1,
            properties: { $input: { type: "string", minLength: 1 } },
            additionalProperties: { enum: [...TOOL_EFFECTS] },
          },
        ],
      },
    },
    gates: {
      type: "array",
      description:
        "Which flow nodes are approval gates besides those marked <btv:gate/>: each selector matches an element when every criterion it names holds (a candidate group of its zeebe:assignmentDefinition, its element template, a zeebe:property, its id); role names the approver role when btv:approverRole does not. See docs/bpmn.md.",
      items: {
        type: "object",
        additionalProperties: false,
        minProperties: 1,
        properties: {
          id: { type: "string", minLength: 1 },
          candidateGroup: { type: "string", minLength: 1 },
          template: { type: "string", minLength: 1 },
          property: {
            type: "object",
            additionalProperties: false,
            required: ["name"],
            properties: {
              name: { type: "string", minLength: 1 },
              value: { type: "string" },
            },
          },
          role: { type: "string", minLength: 1 },
        },
      },
    },
    policy: {
      type: "object",
      additionalProperties: false,
      description: "What the command-line policy flags set.",
      properties: {
        camundaAgents: {
          enum: [...UNKNOWN_LEVEL_POLICIES],
          description:
            "How Camunda AI agents (unknown autonomy level) are governed (--camunda-agents).",
        },
      },
    },
  };
}
