import { rule } from "../../../src/bpmn/rules/TOOL_EFFECT_NEEDS_GATE.js";
import type { AgentNode, ToolContract } from "../../../src/model/index.js";
import { edge, llm, tool, workflow } from "../../validate/builders.js";
import {
  agent,
  agentWorkflow,
  chain,
  element,
  HELPER,
  endEvent,
  exclusiveGateway,
  flow,
  gate,
  nodePath,
  processXml,
  snapshot,
  startEvent,
  toolCaller,
  toolContract,
  zeebeAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";
import { aiAgent, effectTool, unmappedTool } from "./ai-agent.js";

const CODE = "TOOL_EFFECT_NEEDS_GATE";

/** A level-5 workflow (a dynamic planner) calling the given tools in order, nodes t1, t2, ... */
const selfModifying = (ref: string, ...tools: string[]) => {
  const [id = "", version = ""] = ref.split("@");
  const nodes: AgentNode[] = [
    llm("plan", {}, { decorators: [{ type: "planner", strategy: "dynamic" }] }),
    ...tools.map((t, i) => tool(`t${i + 1}`, t, { params: { q: "x" } })),
  ];
  const edges = nodes.slice(1).map((n, i) => edge(nodes[i]?.id ?? "", n.id));
  return workflow(nodes, edges, { id, version, autonomyLevel: 5, budget: { maxSteps: 9 } });
};

const contracts = [
  toolContract("tool:pay@1.0.0", "external-commitment"),
  toolContract("tool:delete@1.0.0", "write-irreversible"),
  toolContract("tool:search@1.0.0", "read"),
  toolContract("tool:draft@1.0.0", "propose"),
  toolContract("tool:email@1.0.0", "notify"),
  toolContract("tool:update@1.0.0", "write-reversible"),
];
const registry = [
  ...contracts,
  toolCaller("agnt-payer@1.0.0", "tool:pay@1.0.0"),
  toolCaller("agnt-deleter@1.0.0", "tool:delete@1.0.0"),
  toolCaller("agnt-searcher@1.0.0", "tool:search@1.0.0"),
  toolCaller("agnt-abbrev@1.0.0", "tool:pay@1"),
  toolCaller("agnt-unknown-tool@1.0.0", "tool:mystery@1.0.0"),
  workflow(
    [
      llm("a"),
      tool("first", "tool:pay@1.0.0", { params: { q: "x" } }),
      tool("second", "tool:pay@1.0.0", { params: { q: "y" } }),
    ],
    [edge("a", "first"), edge("first", "second")],
    { id: "agnt-twice", version: "1.0.0" },
  ),
  selfModifying("agnt-auto@1.0.0", "tool:pay@1.0.0", "tool:search@1.0.0", "tool:delete@1.0.0"),
  selfModifying(
    "agnt-auto-soft@1.0.0",
    "tool:draft@1.0.0",
    "tool:email@1.0.0",
    "tool:update@1.0.0",
  ),
];

/** A harmless level-4 workflow (it calls no tool) for a btv ref on a Camunda AI agent. */
const desk = [agentWorkflow("agnt-desk@1.0.0", 4), HELPER];
/** A Camunda AI agent that may pay, and may read. */
const payingAgent = (ref: { readonly ref?: string; readonly attrRef?: string }) =>
  aiAgent("A", {
    ...ref,
    tools: [effectTool("Pay", "write-irreversible"), effectTool("Look", "read")],
  });
/** What a finding on the BPMN's Pay tool says, whatever ref the task names. */
const pays = {
  elementId: "A",
  ref: "camunda.A@1.0.0",
  tool: "tool:camunda.Pay@1.0.0",
  effect: "write-irreversible",
  nodeId: "Pay",
};

/** S → A → E. */
const ungated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, endEvent("E"), chain("S", "A", "E"));
/** S → A → G → E. */
const gated = (agentXml: string) =>
  processXml(startEvent("S"), agentXml, gate("G"), endEvent("E"), chain("S", "A", "G", "E"));
/** The gate on one branch only. */
const oneBranch = (agentXml: string) =>
  processXml(
    startEvent("S"),
    agentXml,
    exclusiveGateway("X"),
    gate("G"),
    endEvent("E"),
    chain("S", "A", "X", "G", "E"),
    flow("X", "E"),
  );

await bpmnRuleTester(rule, {
  valid: [
    {
      name: "a payment behind a gate on every path",
      xml: gated(agent("A", { ref: "agnt-payer@1.0.0", level: "1" })),
      registry,
    },
    {
      name: "a level-5 agent that pays and deletes, gated on every path",
      xml: gated(agent("A", { ref: "agnt-auto@1.0.0", level: "5" })),
      registry,
    },
    {
      name: "propose, notify and write-reversible tools need no gate (level 5)",
      xml: ungated(agent("A", { ref: "agnt-auto-soft@1.0.0", level: "5" })),
      registry,
    },
    {
      name: "a read-only tool without a gate (the level's gate is AGENT_GATE_UNREACHABLE's)",
      xml: ungated(agent("A", { ref: "agnt-searcher@1.0.0", level: "1" })),
      registry,
    },
    {
      name: "a contract the registry does not know, with a gate on every path",
      xml: gated(agent("A", { ref: "agnt-unknown-tool@1.0.0", level: "4" })),
      registry,
    },
    {
      name: "an unresolved workflow calls no known tool (its gate is AGENT_GATE_UNREACHABLE's)",
      xml: ungated(agent("A", { ref: "agnt-nowhere@1.0.0", level: "1" })),
      registry,
    },
    {
      name: "no resolvers at all",
      xml: ungated(agent("A", { ref: "agnt-payer@1.0.0", level: "1" })),
    },
    { name: "a Camunda agent has no workflow to look into", xml: ungated(zeebeAgent("A")) },
    {
      name: "a btv ref on a Camunda AI agent that may pay, gated on every path",
      xml: gated(payingAgent({ ref: "agnt-desk@1.0.0" })),
      registry: [...registry, ...desk],
    },
    {
      name: "an external Camunda agent naming its agent: the BPMN draws no tools, the ref decides",
      xml: ungated(
        element("serviceTask", "A", {
          ext: [
            '<zeebe:agentDefinition agentType="external" />',
            '<btv:agentTask agentWorkflowRef="agnt-searcher@1.0.0" />',
          ],
        }),
      ),
      registry,
    },
  ],
  invalid: [
    {
      name: "a contract the registry does not know has an unknown effect, read as needing a gate",
      xml: ungated(agent("A", { ref: "agnt-unknown-tool@1.0.0", level: "4" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            elementId: "A",
            ref: "agnt-unknown-tool@1.0.0",
            tool: "tool:mystery@1.0.0",
            effect: "unknown",
            nodeId: "t",
            gate: "missing",
            failure: "missing",
            problem: "no tool contract tool:mystery@1.0.0 was found",
          },
        },
      ],
    },
    {
      name: "a level-5 agent with no tool registry at all: every tool's effect is unknown",
      xml: ungated(agent("A", { ref: "agnt-auto-soft@1.0.0", level: "5" })),
      registry,
      tools: false,
      errors: [
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "t1", effect: "unknown" } },
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "t2", effect: "unknown" } },
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "t3", effect: "unknown" } },
      ],
    },
    {
      name: "a contract whose effect is not one of the six is unknown",
      xml: ungated(agent("A", { ref: "agnt-payer@1.0.0", level: "4" })),
      registry: [
        {
          ...toolContract("tool:pay@1.0.0", "read"),
          effect: "harmless",
        } as unknown as ToolContract,
        toolCaller("agnt-payer@1.0.0", "tool:pay@1.0.0", 4),
      ],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { tool: "tool:pay@1.0.0", effect: "unknown", failure: "invalid" },
        },
      ],
    },
    {
      name: "a delegate the registry does not know: what it calls is unknown",
      xml: ungated(agent("A", { ref: "agnt-boss@1.0.0", level: "4" })),
      registry: [
        workflow([llm("a")], [edge("a", "agnt-ghost@1.0.0", "delegate")], {
          id: "agnt-boss",
          version: "1.0.0",
          autonomyLevel: 4,
          budget: { maxSteps: 5 },
        }),
      ],
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            tool: "agnt-ghost@1.0.0",
            nodeId: "a",
            effect: "unknown",
            failure: "missing",
            problem: "no workflow agnt-ghost@1.0.0 was found",
          },
        },
      ],
    },
    {
      name: "an external commitment with no gate after the agent task",
      xml: ungated(agent("A", { ref: "agnt-payer@1.0.0", level: "1" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: {
            elementId: "A",
            ref: "agnt-payer@1.0.0",
            tool: "tool:pay@1.0.0",
            effect: "external-commitment",
            nodeId: "t",
            gate: "missing",
          },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      name: "an irreversible write with a gate on one branch only",
      xml: oneBranch(agent("A", { ref: "agnt-deleter@1.0.0", level: "1" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { tool: "tool:delete@1.0.0", effect: "write-irreversible", gate: "bypassed" },
        },
      ],
    },
    {
      name: "level 5 needs no gate for its level, but its payment and deletion do (one each, in node order)",
      xml: ungated(agent("A", { ref: "agnt-auto@1.0.0", level: "5" })),
      registry,
      errors: [
        {
          ...at(CODE, "A", nodePath(1)),
          data: { tool: "tool:pay@1.0.0", nodeId: "t1", gate: "missing" },
        },
        {
          ...at(CODE, "A", nodePath(1)),
          data: { tool: "tool:delete@1.0.0", nodeId: "t3", gate: "missing" },
        },
      ],
    },
    {
      name: "level 5 with the gate on one branch",
      xml: oneBranch(agent("A", { ref: "agnt-auto@1.0.0", level: "5" })),
      registry,
      errors: [
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "t1", gate: "bypassed" } },
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "t3", gate: "bypassed" } },
      ],
    },
    {
      name: "every tool node calling the contract is reported",
      xml: ungated(agent("A", { ref: "agnt-twice@1.0.0", level: "1" })),
      registry,
      errors: [
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "first" } },
        { ...at(CODE, "A", nodePath(1)), data: { nodeId: "second" } },
      ],
    },
    {
      name: "an abbreviated tool ref is looked up and reported in full",
      xml: ungated(agent("A", { ref: "agnt-abbrev@1.0.0", level: "1" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { tool: "tool:pay@1.0.0" } }],
    },
    {
      name: "a workflow read from its embedded snapshot is checked too",
      xml: ungated(
        agent("A", {
          ref: "agnt-snap@1.0.0",
          level: "1",
          ext: [snapshot("1.0.0", toolCaller("agnt-snap@1.0.0", "tool:pay@1.0.0"))],
        }),
      ),
      registry: contracts,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { ref: "agnt-snap@1.0.0", nodeId: "t" } }],
    },
    {
      name: "a contract that lets the agent pay automatically is still gated here (and invalid there)",
      xml: ungated(agent("A", { ref: "agnt-payer@1.0.0", level: "1" })),
      registry: [
        toolContract("tool:pay@1.0.0", "external-commitment", "automatic"),
        toolCaller("agnt-payer@1.0.0", "tool:pay@1.0.0"),
      ],
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { effect: "external-commitment" } }],
    },
    {
      name: "a btv ref on a Camunda AI agent does not hide the tools the engine runs: its payment and its unmapped tool",
      xml: ungated(
        aiAgent("A", {
          ref: "agnt-desk@1.0.0",
          tools: [effectTool("Pay", "write-irreversible"), unmappedTool("Mystery")],
        }),
      ),
      registry: [...registry, ...desk],
      errors: [
        { ...at(CODE, "A", nodePath(1)), data: { ...pays, gate: "missing" } },
        {
          ...at(CODE, "A", nodePath(1)),
          messageId: "unknown",
          data: {
            ref: "camunda.A@1.0.0",
            tool: "tool:camunda.Mystery@1.0.0",
            effect: "unknown",
            nodeId: "Mystery",
            failure: "unmapped",
          },
        },
      ],
    },
    {
      name: "the bare btv:agentWorkflowRef attribute on a Camunda AI agent: the same",
      xml: ungated(payingAgent({ attrRef: "agnt-desk@1.0.0" })),
      registry: [...registry, ...desk],
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { ...pays, gate: "missing" } }],
    },
    {
      name: "a btv ref no registry knows on a Camunda AI agent: the tools drawn still count",
      xml: ungated(payingAgent({ ref: "agnt-nowhere@1.0.0" })),
      registry,
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { ...pays, gate: "missing" } }],
    },
    {
      name: "a btv ref on a Camunda AI agent gated on one branch only",
      xml: oneBranch(payingAgent({ ref: "agnt-desk@1.0.0" })),
      registry: [...registry, ...desk],
      errors: [{ ...at(CODE, "A", nodePath(1)), data: { ...pays, gate: "bypassed" } }],
    },
  ],
});
