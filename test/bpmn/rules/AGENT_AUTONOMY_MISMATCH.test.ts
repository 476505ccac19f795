import { rule } from "../../../src/bpmn/rules/AGENT_AUTONOMY_MISMATCH.js";
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
  snapshot,
  startEvent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_AUTONOMY_MISMATCH";
const registry = [
  agentWorkflow("agnt-two@1.0.0", 2),
  agentWorkflow("agnt-four@1.0.0", 4),
  agentWorkflow("agnt-three-of-one@1.0.0", 3, { justified: 1 }),
  HELPER,
];

/** S → A → G → E with the agent task `A`. */
const gated = (ref: string, level: string | undefined, ext: readonly string[] = []) =>
  processXml(
    startEvent("S"),
    agent("A", { ref, level, ext }),
    gate("G"),
    endEvent("E"),
    chain("S", "A", "G", "E"),
  );
const levelPath = declarationPath(nodePath(1), "autonomyLevel");

await bpmnRuleTester(rule, {
  valid: [
    { name: "the task and the workflow agree (2)", xml: gated("agnt-two@1.0.0", "2"), registry },
    { name: "the task and the workflow agree (4)", xml: gated("agnt-four@1.0.0", "4"), registry },
    {
      name: "the declared levels agree, even above what the graph justifies",
      xml: gated("agnt-three-of-one@1.0.0", "3"),
      registry,
    },
    { name: "the task states no level", xml: gated("agnt-two@1.0.0", undefined), registry },
    {
      name: "the workflow is unresolved: nothing to compare with",
      xml: gated("agnt-elsewhere@1.0.0", "3"),
      registry,
    },
    {
      name: "an unreadable level is AGENT_AUTONOMY_INVALID's",
      xml: gated("agnt-two@1.0.0", "3.0"),
      registry,
    },
  ],
  invalid: [
    {
      name: "the task claims more than the workflow declares",
      xml: gated("agnt-two@1.0.0", "3"),
      registry,
      errors: [
        {
          ...at(CODE, "A", levelPath),
          data: { elementId: "A", ref: "agnt-two@1.0.0", taskLevel: 3, workflowLevel: 2 },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "the task claims less than the workflow declares",
      xml: gated("agnt-four@1.0.0", "1"),
      registry,
      errors: [{ ...at(CODE, "A", levelPath), data: { taskLevel: 1, workflowLevel: 4 } }],
    },
    {
      name: "compared with the embedded snapshot when the registry lacks the ref",
      xml: gated("agnt-snap@1.0.0", "2", [snapshot("1.0.0", agentWorkflow("agnt-snap@1.0.0", 3))]),
      registry,
      errors: [
        {
          ...at(CODE, "A", levelPath),
          data: { ref: "agnt-snap@1.0.0", taskLevel: 2, workflowLevel: 3 },
        },
      ],
    },
    {
      name: "an abbreviated ref is named in full",
      xml: gated("agnt-two@1", "0"),
      registry,
      errors: [{ ...at(CODE, "A", levelPath), data: { ref: "agnt-two@1.0.0", taskLevel: 0 } }],
    },
  ],
});
