import { rule } from "../../../src/bpmn/rules/AGENT_SELF_MODIFYING.js";
import {
  agent,
  agentWorkflow,
  CAMUNDA_AGENTS,
  camundaCase,
  chain,
  endEvent,
  gate,
  HELPER,
  nodePath,
  processXml,
  startEvent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_SELF_MODIFYING";
const registry = [agentWorkflow("agnt-four@1.0.0", 4), agentWorkflow("agnt-five@1.0.0", 5), HELPER];

/** S → A → E. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
/** S → A → G → E. */
const gated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, gate("G"), endEvent("E"), chain("S", "A", "G", "E"));

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "level 4: its gate is AGENT_GATE_OPTIONAL's to recommend",
      xml: ungated(agent("A", { ref: "agnt-four@1.0.0", level: "4" })),
      registry,
    },
    // The `ignore` policy makes no gate needed for an agent of unknown level: no level 5.
    ...CAMUNDA_AGENTS.map((variant) => ({
      ...camundaCase(variant, "ignore"),
      xml: ungated(variant.xml("A")),
    })),
  ],
  invalid: [
    {
      // Red team: `check` warned, `gate` said nothing, though the scale's warning is permanent.
      name: "level 5 without a gate",
      xml: ungated(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { elementId: "A", level: 5, gate: "missing" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "level 5 with a gate after it: the warning is permanent",
      xml: gated(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 5, gate: "reached" } }],
    },
    {
      name: "level 5 from the workflow when the task states none",
      xml: ungated(agent("A", { ref: "agnt-five@1.0.0" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 5 } }],
    },
    {
      // Red team: a caller declaring 5 for a planner in its delegate justifies 4 (gate optional).
      name: "the task says 5 but its workflow says 4: stricter gates apply, and the warning stands",
      xml: ungated(agent("A", { ref: "agnt-four@1.0.0", level: "5" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 5, gate: "missing" } }],
    },
    {
      name: "a task that says 5 whose workflow cannot be read (a gate is required too)",
      xml: ungated(agent("A", { ref: "agnt-elsewhere@1.0.0", level: "5" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { level: 5 } }],
    },
    {
      name: "raised to an error by a rule setting",
      xml: ungated(agent("A", { ref: "agnt-five@1.0.0", level: "5" })),
      registry,
      severity: "error",
      errors: [{ ...at(CODE, "A", nodePath(1)), severity: "error" }],
    },
  ],
});
