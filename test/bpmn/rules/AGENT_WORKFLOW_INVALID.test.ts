import { rule } from "../../../src/bpmn/rules/AGENT_WORKFLOW_INVALID.js";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { decision, edge, llm, tool, workflow } from "../../validate/builders.js";
import {
  agent,
  agentWorkflow,
  chain,
  declarationPath,
  endEvent,
  gate,
  nodePath,
  processXml,
  snapshot,
  startEvent,
  toolContract,
  zeebeAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_WORKFLOW_INVALID";
const withoutBudget = (wf: AgentWorkflow): AgentWorkflow =>
  Object.fromEntries(Object.entries(wf).filter(([key]) => key !== "budget")) as AgentWorkflow;
const registry = [
  agentWorkflow("agnt-ok@1.0.0", 2),
  agentWorkflow("agnt-five@1.0.0", 5),
  withoutBudget(agentWorkflow("agnt-no-budget@1.0.0", 2)),
  agentWorkflow("agnt-understated@1.0.0", 1, { justified: 3 }),
  workflow(
    [
      llm("a"),
      decision("d", "output.confidence > 0.8", "end", "end"),
      tool("t", "tool:pay@1.0.0", { params: { q: "x" } }),
    ],
    [edge("a", "d"), edge("missing", "t")],
    { id: "agnt-broken", version: "1.0.0" },
  ),
  toolContract("tool:pay@1.0.0", "external-commitment", "automatic"),
  { kind: "AgentWorkflow", id: "agnt-stub", version: "1.0.0" },
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
const refPath = declarationPath(nodePath(1), "agentWorkflowRef");

await bpmnRuleTester(rule, {
  valid: [
    { name: "a valid workflow", xml: gated("agnt-ok@1.0.0", "2"), registry },
    {
      name: "warnings only (level 5 is always warned about) do not block",
      xml: gated("agnt-five@1.0.0", "5"),
      registry,
    },
    {
      name: "a missing budget is a warning only",
      xml: gated("agnt-no-budget@1.0.0", "2"),
      registry,
    },
    {
      name: "an unresolved workflow has nothing to validate",
      xml: gated("agnt-gone@1.0.0", "2"),
      registry,
    },
    { name: "a Camunda agent has no workflow", xml: processXml(zeebeAgent("A")) },
  ],
  invalid: [
    {
      name: "the workflow declares less autonomy than its graph justifies",
      xml: gated("agnt-understated@1.0.0", "1"),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            elementId: "A",
            ref: "agnt-understated@1.0.0",
            count: 1,
            codes: ["AUTONOMY_INCOHERENT"],
            errors: [{ code: "AUTONOMY_INCOHERENT", path: "/autonomyLevel" }],
          },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "several errors, distinct codes listed once each",
      xml: gated("agnt-broken@1.0.0", "1"),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            ref: "agnt-broken@1.0.0",
            codes: ["EDGE_ENDPOINT_MISSING", "DECISION_IMPLICIT_METRIC", "TOOL_EFFECT_UNGATED"],
          },
        },
      ],
    },
    {
      name: "the registry answers with something that is not a workflow",
      xml: gated("agnt-stub@1.0.0", "1"),
      registry,
      errors: [{ ...at(CODE, "A", refPath), data: { count: 6, codes: ["STRUCTURE_INVALID"] } }],
    },
    {
      name: "an embedded snapshot is validated like a registry workflow",
      xml: gated("agnt-snap@1.0.0", "1", [
        snapshot("1.0.0", agentWorkflow("agnt-snap@1.0.0", 1, { justified: 3 })),
      ]),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: { ref: "agnt-snap@1.0.0", codes: ["AUTONOMY_INCOHERENT"] },
        },
      ],
    },
  ],
});
