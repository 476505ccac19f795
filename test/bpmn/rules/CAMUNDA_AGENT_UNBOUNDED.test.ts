import { rule } from "../../../src/bpmn/rules/CAMUNDA_AGENT_UNBOUNDED.js";
import {
  agentWorkflow,
  CAMUNDA_AGENTS,
  camundaCase,
  chain,
  endEvent,
  HELPER,
  nodePath,
  processXml,
  startEvent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";
import { aiAgent, effectTool } from "./ai-agent.js";

const CODE = "CAMUNDA_AGENT_UNBOUNDED";
/** A harmless level-4 workflow with a budget of its own (it binds nothing the engine runs). */
const registry = [agentWorkflow("agnt-desk@1.0.0", 4), HELPER];
/** S → A → E. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
const tools = [effectTool("Look", "read")];

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "a btv ref on a Camunda AI agent with a static maximum of model calls",
      xml: ungated(aiAgent("A", { ref: "agnt-desk@1.0.0", tools })),
      registry,
    },
    ...CAMUNDA_AGENTS.map((variant) => ({
      ...camundaCase(variant, undefined),
      name: `${variant.label} naming its agent: the BPMN draws no loop`,
      xml: ungated(
        variant.xml("A").replace('id="A"', 'id="A" btv:agentWorkflowRef="agnt-desk@1.0.0"'),
      ),
      registry,
    })),
  ],
  invalid: [
    {
      name: "a Camunda AI agent with tools and no maximum of model calls",
      xml: ungated(aiAgent("A", { maxModelCalls: null, tools })),
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { elementId: "A", tools: 1 } }],
    },
    {
      name: "the same beside a btv:agentTask whose workflow states a budget: the engine runs the BPMN's loop",
      xml: ungated(aiAgent("A", { ref: "agnt-desk@1.0.0", maxModelCalls: null, tools })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { elementId: "A", tools: 1 } }],
    },
    {
      name: "beside the bare attribute, a maximum given as FEEL",
      xml: ungated(
        aiAgent("A", { attrRef: "agnt-desk@1.0.0", maxModelCalls: "=limits.calls", tools }),
      ),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "feel",
          data: { source: "=limits.calls", input: "data.limits.maxModelCalls" },
        },
      ],
    },
  ],
});
