import { rule } from "../../../src/bpmn/rules/AGENT_REF_INVALID.js";
import {
  agent,
  agentWorkflow,
  chain,
  declarationPath,
  element,
  endEvent,
  gate,
  gateMarker,
  agentTaskMarker,
  nodePath,
  processXml,
  startEvent,
  task,
  zeebeAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_REF_INVALID";
const registry = [agentWorkflow("agnt-research@2.1.0", 2)];

/** S → A → G → E with the agent task `A` declaring `ref`. */
const withRef = (ref: string | undefined) =>
  processXml(
    startEvent("S"),
    agent("A", { ref, level: "2" }),
    gate("G"),
    endEvent("E"),
    chain("S", "A", "G", "E"),
  );
const refPath = declarationPath(nodePath(1), "agentWorkflowRef");

await bpmnRuleTester(rule, {
  valid: [
    { name: "an exact id@x.y.z ref", xml: withRef("agnt-research@2.1.0"), registry },
    {
      name: "an abbreviated version is normalised (2.1 → 2.1.0)",
      xml: withRef("agnt-research@2.1"),
      registry,
    },
    {
      name: "an unresolved but valid ref is AGENT_UNRESOLVED's",
      xml: withRef("agnt-other@1.0.0"),
      registry,
    },
    { name: "a Camunda agent has no ref to check", xml: processXml(zeebeAgent("A")) },
    { name: "a task without an agent declaration", xml: processXml(task("A")) },
  ],
  invalid: [
    {
      name: "no agentWorkflowRef at all",
      xml: withRef(undefined),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: { elementId: "A", ref: null },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "an empty ref",
      xml: withRef(""),
      registry,
      errors: [{ ...at(CODE, "A", refPath), data: { ref: "" } }],
    },
    {
      name: "no version",
      xml: withRef("agnt-research"),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            ref: "agnt-research",
            reason: "'agnt-research' has no '@version' (expected id@x.y.z)",
          },
        },
      ],
    },
    {
      name: "a version range",
      xml: withRef("agnt-research@2.x"),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            ref: "agnt-research@2.x",
            reason: "'2.x' is a version range; a reference must name one exact version",
          },
        },
      ],
    },
    {
      name: "a 'v' before the version",
      xml: withRef("agnt-research@v2.1.0"),
      registry,
      errors: [{ ...at(CODE, "A", refPath), data: { ref: "agnt-research@v2.1.0" } }],
    },
    {
      name: "an id with a space",
      xml: withRef("agnt research@2.1.0"),
      registry,
      errors: [{ ...at(CODE, "A", refPath), data: { ref: "agnt research@2.1.0" } }],
    },
    {
      name: "a very long ref is previewed, not copied",
      xml: withRef("x".repeat(200)),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: { ref: `${"x".repeat(80)}… (200 characters)` },
        },
      ],
    },
    {
      name: "the path counts the extension values before the declaration",
      xml: processXml(
        element("serviceTask", "A", {
          ext: [gateMarker(), agentTaskMarker({ ref: "agnt-research" })],
        }),
      ),
      registry,
      errors: [
        at(CODE, "A", "/rootElements/0/flowElements/0/extensionElements/values/1/agentWorkflowRef"),
      ],
    },
    {
      name: "each agent task, in document order",
      xml: processXml(
        agent("A1", { ref: "agnt-research@2" }),
        agent("A2", { ref: "@1.0.0" }),
        agent("A3", { ref: "agnt-research@" }),
      ),
      registry,
      errors: [
        at(CODE, "A2", declarationPath(nodePath(1), "agentWorkflowRef")),
        at(CODE, "A3", declarationPath(nodePath(2), "agentWorkflowRef")),
      ],
    },
  ],
});
