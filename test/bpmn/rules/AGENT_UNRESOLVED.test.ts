import { rule } from "../../../src/bpmn/rules/AGENT_UNRESOLVED.js";
import {
  agent,
  agentTaskMarker,
  agentWorkflow,
  chain,
  declarationPath,
  element,
  endEvent,
  gate,
  nodePath,
  processXml,
  snapshot,
  startEvent,
  zeebeAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_UNRESOLVED";
const research = agentWorkflow("agnt-research@2.1.0", 2);
const registry = [research];

/** S → A → G → E with the agent task `A`. */
const gated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, gate("G"), endEvent("E"), chain("S", "A", "G", "E"));
const refPath = declarationPath(nodePath(1), "agentWorkflowRef");
const withSnapshot = (ref: string, body: unknown, version = "2.1.0") =>
  gated(agent("A", { ref, level: "2", ext: [snapshot(version, body)] }));

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "the registry knows the ref",
      xml: gated(agent("A", { ref: "agnt-research@2.1.0", level: "2" })),
      registry,
    },
    {
      name: "an abbreviated ref is looked up in canonical form",
      xml: gated(agent("A", { ref: "agnt-research@2.1", level: "2" })),
      registry,
    },
    {
      name: "the registry wins over an embedded snapshot",
      xml: withSnapshot("agnt-research@2.1.0", agentWorkflow("agnt-research@2.1.0", 3)),
      registry,
    },
    {
      name: "an invalid ref is AGENT_REF_INVALID's (nothing to ask the registry)",
      xml: gated(agent("A", { ref: "agnt-research", level: "2" })),
      registry,
    },
    { name: "a Camunda agent has no ref to resolve", xml: gated(zeebeAgent("A")), registry },
    {
      name: "a ref the registry holds two documents for is AGENT_REF_CONFLICT's (said once)",
      xml: gated(agent("A", { ref: "agnt-research@2.1.0", level: "2" })),
      registry: [research, agentWorkflow("agnt-research@2.1.0", 2, { justified: 1 })],
    },
  ],
  invalid: [
    {
      name: "the registry does not know the ref, and there is no snapshot",
      xml: gated(agent("A", { ref: "agnt-other@1.0.0", level: "2" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: { elementId: "A", ref: "agnt-other@1.0.0", fallback: "none" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "no workflow resolver at all",
      xml: gated(agent("A", { ref: "agnt-research@2.1.0", level: "2" })),
      errors: [{ ...at(CODE, "A", refPath), data: { fallback: "none" } }],
    },
    {
      name: "an abbreviated unknown ref is reported in canonical form",
      xml: gated(agent("A", { ref: "agnt-other@1", level: "2" })),
      registry,
      errors: [{ ...at(CODE, "A", refPath), data: { ref: "agnt-other@1.0.0" } }],
    },
    {
      name: "the embedded snapshot is used when the registry lacks the ref (a degraded read)",
      xml: withSnapshot("agnt-research@2.1.0", research),
      registry: [],
      errors: [
        { ...at(CODE, "A", refPath), data: { ref: "agnt-research@2.1.0", fallback: "snapshot" } },
      ],
    },
    {
      name: "a snapshot of another version is refused",
      xml: withSnapshot("agnt-research@2.1.0", agentWorkflow("agnt-research@2.2.0", 2)),
      registry: [],
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            fallback: "none",
            snapshotProblem: "the snapshot is agnt-research@2.2.0, not agnt-research@2.1.0",
          },
        },
      ],
    },
    {
      name: "a snapshot of another workflow is refused",
      xml: withSnapshot("agnt-research@2.1.0", agentWorkflow("agnt-summary@2.1.0", 2)),
      registry: [],
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            fallback: "none",
            snapshotProblem: "the snapshot is agnt-summary@2.1.0, not agnt-research@2.1.0",
          },
        },
      ],
    },
    {
      name: "a snapshot that is not JSON is refused",
      xml: gated(
        agent("A", {
          ref: "agnt-research@2.1.0",
          level: "2",
          ext: [
            '<btv:agentWorkflowSnapshot version="2.1.0"><![CDATA[{ not json]]></btv:agentWorkflowSnapshot>',
          ],
        }),
      ),
      registry: [],
      errors: [{ ...at(CODE, "A", refPath), data: { fallback: "none" } }],
    },
    {
      name: "the snapshot may come before the declaration (the path is the declaration's)",
      xml: gated(
        element("serviceTask", "A", {
          ext: [
            snapshot("2.1.0", research),
            agentTaskMarker({ ref: "agnt-research@2.1.0", level: "2" }),
          ],
        }),
      ),
      registry: [],
      errors: [
        {
          ...at(
            CODE,
            "A",
            "/rootElements/0/flowElements/1/extensionElements/values/1/agentWorkflowRef",
          ),
          data: { fallback: "snapshot" },
        },
      ],
    },
    {
      name: "each agent task, in document order",
      xml: processXml(
        agent("A1", { ref: "agnt-x@1.0.0" }),
        agent("A2", { ref: "agnt-research@2.1.0" }),
        agent("A3", { ref: "agnt-y@1.0.0" }),
      ),
      registry,
      errors: [
        {
          ...at(CODE, "A1", declarationPath(nodePath(0), "agentWorkflowRef")),
          data: { ref: "agnt-x@1.0.0" },
        },
        {
          ...at(CODE, "A3", declarationPath(nodePath(2), "agentWorkflowRef")),
          data: { ref: "agnt-y@1.0.0" },
        },
      ],
    },
  ],
});
