import { rule } from "../../../src/bpmn/rules/AGENT_GATE_OPTIONAL.js";
import {
  agent,
  CAMUNDA_AGENTS,
  camundaCase,
  agentWorkflow,
  chain,
  endEvent,
  exclusiveGateway,
  flow,
  gate,
  HELPER,
  nodePath,
  processXml,
  startEvent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_GATE_OPTIONAL";
const registry = [
  agentWorkflow("agnt-two@1.0.0", 2),
  agentWorkflow("agnt-four@1.0.0", 4),
  agentWorkflow("agnt-five@1.0.0", 5),
  agentWorkflow("agnt-four-loop@1.0.0", 4, { justified: 2 }),
  HELPER,
];
const level4 = agent("A", { ref: "agnt-four@1.0.0", level: "4" });

/** S → A → E. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "level 4 with a gate after it",
      xml: processXml(startEvent("S"), level4, gate("G"), endEvent("E"), chain("S", "A", "G", "E")),
      registry,
    },
    {
      name: "level 4 with a gate on one branch: a gate exists downstream",
      xml: processXml(
        startEvent("S"),
        level4,
        exclusiveGateway("X"),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "X", "G", "E"),
        flow("X", "E"),
      ),
      registry,
    },
    {
      name: "level 2 without a gate is AGENT_GATE_UNREACHABLE's (an error, not this warning)",
      xml: ungated(agent("A", { ref: "agnt-two@1.0.0", level: "2" })),
      registry,
    },
    {
      name: "level 5 without a gate: nothing to recommend structurally",
      xml: ungated(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
    },
    {
      name: "strictest level: the task says 4 but the workflow's graph justifies 2, so the gate is required",
      xml: ungated(agent("A", { ref: "agnt-four-loop@1.0.0", level: "4" })),
      registry,
    },
    ...CAMUNDA_AGENTS.flatMap((variant) =>
      ([undefined, "gate-required", "ignore"] as const).map((policy) => ({
        ...camundaCase(variant, policy),
        xml: ungated(variant.xml("A")),
      })),
    ),
    {
      name: "level 4 stated by the task, workflow unresolved: a gate is required (AGENT_GATE_UNREACHABLE's), not optional",
      xml: ungated(agent("A", { ref: "agnt-elsewhere@1.0.0", level: "4" })),
      registry,
    },
    {
      name: "a btv agent that cannot be reviewed needs a gate whatever the policy for Camunda agents",
      xml: ungated(agent("A", { ref: "agnt-elsewhere@1.0.0" })),
      registry,
      policy: { camundaAgents: "gate-optional" },
    },
  ],
  invalid: [
    {
      name: "level 4 (a delegating workflow) without a gate: a warning only",
      xml: ungated(level4),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { elementId: "A", level: 4, source: "btv" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "level 4 from the workflow when the task states none",
      xml: ungated(agent("A", { ref: "agnt-four@1.0.0" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 4 } }],
    },
    ...CAMUNDA_AGENTS.map((variant) => ({
      ...camundaCase(variant, "gate-optional"),
      xml: ungated(variant.xml("A")),
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { elementId: "A", level: "unknown", source: "camunda" },
        },
      ],
    })),
    {
      name: "raised to an error by a rule setting",
      xml: ungated(level4),
      registry,
      severity: "error",
      errors: [{ ...at(CODE, "A", nodePath(1)), severity: "error" }],
    },
  ],
});
