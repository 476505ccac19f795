import { rule } from "../../../src/bpmn/rules/CAMUNDA_TOOL_EFFECT_UNMAPPED.js";
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
import { aiAgent, effectTool, unmappedTool } from "./ai-agent.js";

const CODE = "CAMUNDA_TOOL_EFFECT_UNMAPPED";
/** A harmless level-4 workflow (it calls no tool). */
const registry = [agentWorkflow("agnt-desk@1.0.0", 4), HELPER];
/** S → A → E. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
const tools = [effectTool("Look", "read"), unmappedTool("Mystery")];
/** What the finding on the unmapped tool says, whatever ref the task names. */
const mystery = {
  ...at(CODE, "A", nodePath(1)),
  data: {
    elementId: "A",
    toolId: "Mystery",
    key: "acme:Mystery:1",
    problem:
      "no btv:toolEffect, toolEffects mapping or agentflow default covers job type 'acme:Mystery:1'",
  },
};

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "a btv ref on a Camunda AI agent whose every tool's effect is stated",
      xml: ungated(aiAgent("A", { ref: "agnt-desk@1.0.0", tools: [effectTool("Look", "read")] })),
      registry,
    },
    ...CAMUNDA_AGENTS.map((variant) => ({
      ...camundaCase(variant, undefined),
      name: `${variant.label} naming its agent: the BPMN draws no tools`,
      xml: ungated(
        variant.xml("A").replace('id="A"', 'id="A" btv:agentWorkflowRef="agnt-desk@1.0.0"'),
      ),
      registry,
    })),
  ],
  invalid: [
    {
      name: "a Camunda AI agent's tool whose effect nothing states",
      xml: ungated(aiAgent("A", { tools })),
      errors: [mystery],
    },
    {
      name: "the same beside a btv:agentTask: the engine runs the tool whatever the ref names",
      xml: ungated(aiAgent("A", { ref: "agnt-desk@1.0.0", tools })),
      registry,
      errors: [mystery],
    },
    {
      name: "the same beside the bare btv:agentWorkflowRef attribute",
      xml: ungated(aiAgent("A", { attrRef: "agnt-desk@1.0.0", tools })),
      registry,
      errors: [mystery],
    },
    {
      name: "the same beside a ref no registry knows",
      xml: ungated(aiAgent("A", { ref: "agnt-nowhere@1.0.0", tools })),
      registry,
      errors: [mystery],
    },
  ],
});
