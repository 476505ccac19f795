import { rule } from "../../../src/bpmn/rules/AGENT_REF_CONFLICT.js";
import { contentHash } from "../../../src/model/index.js";
import {
  agent,
  agentTaskMarker,
  agentWorkflow,
  chain,
  declarationPath,
  element,
  endEvent,
  gate,
  HELPER,
  nodePath,
  processXml,
  startEvent,
  toolCaller,
  toolContract,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "AGENT_REF_CONFLICT";
const research = agentWorkflow("agnt-research@2.1.0", 2);
// The same id@version, another graph: what an impostor file would hold.
const impostor = agentWorkflow("agnt-research@2.1.0", 2, { justified: 1 });
const reads = toolContract("tool:lookup@1.0.0", "read");
const pays = toolContract("tool:lookup@1.0.0", "external-commitment");
const caller = toolCaller("agnt-caller@1.0.0", "tool:lookup@1.0.0");
const planner = agentWorkflow("agnt-planner@1.0.0", 4);
const otherHelper = agentWorkflow("agnt-helper@1.0.0", 2);

/** S → A → G → E with the agent task `A`. */
const gated = (ref: string, level: string) =>
  processXml(
    startEvent("S"),
    agent("A", { ref, level }),
    gate("G"),
    endEvent("E"),
    chain("S", "A", "G", "E"),
  );
const refPath = declarationPath(nodePath(1), "agentWorkflowRef");

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "one document per id@version",
      xml: gated("agnt-research@2.1.0", "2"),
      registry: [research],
    },
    {
      name: "the same document twice is no conflict",
      xml: gated("agnt-research@2.1.0", "2"),
      registry: [research, structuredClone(research)],
    },
    {
      name: "the short-form attribute beside a btv:agentTask of the same ref",
      xml: processXml(
        startEvent("S"),
        agent("A", {
          ref: "agnt-research@2.1.0",
          level: "2",
          attrs: { "btv:agentWorkflowRef": "agnt-research@2.1.0" },
        }),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
      ),
      registry: [research],
    },
    {
      // Red team: the properties panel writes this beside the template's attribute for a level.
      name: "a btv:agentTask that names no agent beside the short-form attribute takes its ref",
      xml: processXml(
        startEvent("S"),
        element("serviceTask", "A", {
          attrs: { "btv:agentWorkflowRef": "agnt-research@2.1.0" },
          ext: ['<btv:agentTask autonomyLevel="2" />'],
        }),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
      ),
      registry: [research],
    },
    {
      name: "a contested ref no task uses does not concern the process",
      xml: gated("agnt-caller@1.0.0", "1"),
      registry: [caller, reads, research, impostor],
    },
  ],
  invalid: [
    {
      name: "the task's own workflow has two documents",
      xml: gated("agnt-research@2.1.0", "2"),
      registry: [research, impostor],
      errors: [
        {
          ...at(CODE, "A", refPath),
          data: {
            elementId: "A",
            ref: "agnt-research@2.1.0",
            agent: "agnt-research@2.1.0",
            sources: ["doc 0", "doc 1"],
            contentHashes: [contentHash(research), contentHash(impostor)],
          },
        },
      ],
    },
    {
      name: "a tool the workflow calls has two contracts (one that pays)",
      xml: gated("agnt-caller@1.0.0", "1"),
      registry: [caller, reads, pays],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            ref: "tool:lookup@1.0.0",
            agent: "agnt-caller@1.0.0",
            contentHashes: [contentHash(reads), contentHash(pays)],
          },
        },
      ],
    },
    {
      name: "the task declares its agent twice (the second was ignored)",
      xml: processXml(
        startEvent("S"),
        agent("A", {
          ref: "agnt-research@2.1.0",
          level: "2",
          ext: [agentTaskMarker({ ref: "agnt-planner@1.0.0", level: "4" })],
        }),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
      ),
      registry: [research, planner],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "declarations",
          data: {
            elementId: "A",
            count: 2,
            refs: ["agnt-research@2.1.0", "agnt-planner@1.0.0"],
            levels: ["2", "4"],
            paths: ["/extensionElements/values/0", "/extensionElements/values/1"],
          },
        },
      ],
    },
    {
      // Red team: the element won, and the attribute's agent (one that pays) was never named.
      name: "the short-form attribute names another agent than the btv:agentTask",
      xml: processXml(
        startEvent("S"),
        agent("A", {
          ref: "agnt-planner@1.0.0",
          level: "4",
          attrs: { "btv:agentWorkflowRef": "agnt-research@2.1.0" },
        }),
        gate("G"),
        endEvent("E"),
        chain("S", "A", "G", "E"),
      ),
      registry: [research, planner],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "declarations",
          data: {
            elementId: "A",
            count: 2,
            refs: ["agnt-research@2.1.0", "agnt-planner@1.0.0"],
            levels: [null, "4"],
            paths: ["", "/extensionElements/values/0"],
          },
        },
      ],
    },
    {
      name: "a delegate has two documents",
      xml: gated("agnt-planner@1.0.0", "4"),
      registry: [planner, HELPER, otherHelper],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { ref: "agnt-helper@1.0.0", agent: "agnt-planner@1.0.0" },
        },
      ],
    },
  ],
});
