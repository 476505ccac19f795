import { rule } from "../../../src/bpmn/rules/AGENT_AUTONOMY_INVALID.js";
import {
  agent,
  agentWorkflow,
  chain,
  declarationPath,
  endEvent,
  gate,
  HELPER,
  nodePath,
  processXml,
  startEvent,
  zeebeAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_AUTONOMY_INVALID";
const levels = [0, 1, 2, 3, 4, 5] as const;
const registry = [...levels.map((l) => agentWorkflow(`agnt-l${l}@1.0.0`, l)), HELPER];

/** S → A → G → E with the agent task `A` declaring `level`. */
const withLevel = (level: string | undefined, ref = "agnt-l2@1.0.0") =>
  processXml(
    startEvent("S"),
    agent("A", { ref, level }),
    gate("G"),
    endEvent("E"),
    chain("S", "A", "G", "E"),
  );
const levelPath = declarationPath(nodePath(1), "autonomyLevel");

await bpmnRuleTester(rule, {
  valid: [
    ...levels.map((l) => ({
      name: `level "${l}"`,
      xml: withLevel(String(l), `agnt-l${l}@1.0.0`),
      registry,
    })),
    { name: "no level: the workflow's is used", xml: withLevel(undefined), registry },
    { name: "a Camunda agent states no level", xml: processXml(zeebeAgent("A")) },
  ],
  invalid: [
    ...["6", "-1", "2.0", " 2", "02", "two", "1e0", ""].map((value) => ({
      name: `level ${JSON.stringify(value)}`,
      xml: withLevel(value),
      registry,
      errors: [{ ...at(CODE, "A", levelPath), data: { elementId: "A", value } }],
    })),
    {
      name: "checked even when the workflow is unresolved",
      xml: withLevel("high", "agnt-missing@1.0.0"),
      registry,
      errors: [
        {
          ...at(CODE, "A", levelPath),
          data: { value: "high" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "a very long value is previewed",
      xml: withLevel("9".repeat(100)),
      registry,
      errors: [
        { ...at(CODE, "A", levelPath), data: { value: `${"9".repeat(80)}… (100 characters)` } },
      ],
    },
  ],
});
