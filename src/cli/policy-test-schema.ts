/**
 * The JSON Schema (draft 2020-12) of a policy test file (`*.policytest.yaml`), published as
 * `schemas/policy-test.schema.json` (`npm run schemas`) for editors, and the shape every test
 * file is checked against before it runs. What a schema cannot say well (a real calendar date, a
 * subject's grammar, which rules a pack has) is checked after it (policy-test-read.ts).
 */
import {
  DATE_PATTERN,
  PACK_NAME_PATTERN,
  RULE_ID_PATTERN,
  WAIVER_SCHEMA,
} from "../policy/pack-schema.js";
import { configProperties } from "./config-schema.js";

/** A rule as a result names it: `<id>` or `<pack>/<id>`. */
export const RESULT_RULE_PATTERN = `^(${PACK_NAME_PATTERN.slice(1, -1)}/)?${RULE_ID_PATTERN.slice(1)}`;

/** A non-empty list of non-empty strings: paths, or subjects. */
const strings = (description: string): Record<string, unknown> => ({
  type: "array",
  minItems: 1,
  items: { type: "string", minLength: 1 },
  description,
});

/**
 * The config's settings a test may give too, with the config's own schemas: one shape for both,
 * so a selector the config accepts is one a test accepts, and the other way round.
 */
const { gates: GATES, toolEffects: TOOL_EFFECTS } = configProperties();

/** The schema of a policy test file. */
export const POLICY_TEST_SCHEMA: Readonly<Record<string, unknown>> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://agentflow.dev/schemas/policy-test.schema.json",
  title: "PolicyTest",
  description:
    "Test cases for policy packs: inputs (BPMN processes, workflows), and per rule the subjects that must fail it and those that must pass it (agentflow policy test, docs/policies.md).",
  type: "object",
  required: ["kind", "name", "policies", "inputs", "results"],
  properties: {
    $schema: { type: "string" },
    kind: { const: "PolicyTest" },
    name: { type: "string", minLength: 1, description: "What the cases test." },
    description: { type: "string" },
    policies: strings("The policy pack files under test, relative to this file."),
    registry: strings(
      "Folders of workflows and tool contracts that resolve the inputs' references (as --registry), relative to this file.",
    ),
    inputs: strings(
      "The inputs judged: BPMN processes (.bpmn, .bpmn20.xml) and workflows (.json, .yaml, .yml), relative to this file.",
    ),
    today: {
      type: "string",
      pattern: DATE_PATTERN,
      description: "YYYY-MM-DD: the day waivers are judged on (default: the UTC date now).",
    },
    gates: {
      ...GATES,
      description:
        "Gate selectors, as the config's gates (docs/bpmn.md), applied to every BPMN input of this test (the config itself is not read).",
    },
    toolEffects: {
      ...TOOL_EFFECTS,
      description:
        "Effects of Camunda AI agents' tools, as the config's toolEffects (docs/bpmn.md), applied to every BPMN input of this test (the config itself is not read).",
    },
    waivers: {
      type: "array",
      items: { $ref: "#/$defs/waiver" },
      description: "Waivers the run grants besides the packs' own, as the config's waivers.",
    },
    results: {
      type: "array",
      minItems: 1,
      items: { $ref: "#/$defs/result" },
      description: "The expected results, per rule.",
    },
  },
  additionalProperties: false,
  $defs: {
    result: {
      type: "object",
      required: ["rule"],
      // The rule and at least one list of subjects (no other key is allowed).
      minProperties: 2,
      properties: {
        rule: {
          type: "string",
          pattern: RESULT_RULE_PATTERN,
          description: "A rule of the packs under test: its id, or <pack>/<id>.",
        },
        fail: strings("Subjects the rule must report a finding on (waived or not)."),
        pass: strings("Subjects the rule must report no finding on."),
        waived: strings("Subjects the rule must report a finding on that a waiver covers."),
      },
      additionalProperties: false,
    },
    waiver: WAIVER_SCHEMA,
  },
};
