/**
 * Every plugin rule through bpmnlint's own rule tester: a valid case reports nothing for the rule,
 * an invalid one reports exactly the listed element, message and path (relative to the element).
 * Without resolvers, workflows come from embedded snapshots only; the registry cases use
 * {@link createRules} as a bpmn-js host with a registry would.
 */
import { createRules, rules } from "../../../src/bpmn/lint/index.js";
import {
  agentTask,
  camundaAgent,
  definitions,
  end,
  flows,
  gate,
  start,
  workflow,
  xor,
} from "./fixtures.js";
import { moddle, verify } from "./rule-tester.js";

const REF = "agnt-rsch@2.1.0";
const DECLARATION = ["extensionElements", "values", 0];

/** Start → Agent (→ Review, a gate) → End. */
function linear(agent: string, gated = true) {
  const ids = gated ? ["Start", "Agent", "Review", "End"] : ["Start", "Agent", "End"];
  return moddle(
    definitions(start(), agent, ...(gated ? [gate("Review")] : []), end(), ...flows(...ids)),
  );
}

/** An agent task of `level` whose snapshot is `snapshot` (a valid level-1 workflow by default). */
function agent(level: string, snapshot: unknown = workflow(REF)): string {
  return agentTask("Agent", { ref: REF, level, snapshot });
}

const PAYER = workflow("agnt-pay@1.0.0", {
  autonomyLevel: 5,
  nodes: [{ id: "pay", type: "tool", config: { usesTool: "tool:pay@1.0.0" } }],
});
const PAY_TOOL = {
  kind: "ToolContract",
  id: "tool:pay",
  version: "1.0.0",
  name: "Pay",
  inputSchema: {},
  outputSchema: { ok: "bool" },
  effect: "external-commitment",
  authorization: "gate",
};
/** A level-4 workflow: it delegates (to a helper no registry here knows). */
const LEVEL_4 = workflow(REF, {
  autonomyLevel: 4,
  nodes: [
    {
      id: "answer",
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:answer@1.0.0", structuredOutput: true },
    },
  ],
  edges: [{ from: "answer", to: "agnt-helper@1.0.0", edgeType: "delegate" }],
});

/** Agent workflows a registry knows, by ref. */
export const REGISTRY: Readonly<Record<string, unknown>> = {
  [REF]: workflow(REF),
  "agnt-pay@1.0.0": PAYER,
};

/** The rules of a host with a registry: one workflow, and a payment agent with its tool. */
const registryRules = createRules({
  resolveWorkflow: (ref) => REGISTRY[ref],
  resolveTool: (ref) => (ref === "tool:pay@1.0.0" ? PAY_TOOL : undefined),
});

verify("agent-ref-invalid", rules["agent-ref-invalid"], {
  valid: [{ name: "a well-formed ref", moddleElement: linear(agent("1")) }],
  invalid: [
    {
      name: "a ref without a version",
      moddleElement: linear(agentTask("Agent", { ref: "agnt-rsch", level: "1" })),
      report: {
        id: "Agent",
        message: `agent task "Agent" has agentWorkflowRef "agnt-rsch", which is not a valid ref: 'agnt-rsch' has no '@version' (expected id@x.y.z)`,
        path: [...DECLARATION, "agentWorkflowRef"],
      },
    },
  ],
});

verify("agent-autonomy-invalid", rules["agent-autonomy-invalid"], {
  valid: [{ name: "level 3", moddleElement: linear(agent("3")) }],
  invalid: [
    {
      name: "a word",
      moddleElement: linear(agent("high")),
      report: {
        id: "Agent",
        message: 'agent task "Agent" has autonomyLevel "high"; expected an integer from 0 to 5',
        path: [...DECLARATION, "autonomyLevel"],
      },
    },
    {
      name: "above the scale",
      moddleElement: linear(agent("6")),
      report: {
        id: "Agent",
        message: 'agent task "Agent" has autonomyLevel "6"; expected an integer from 0 to 5',
        path: [...DECLARATION, "autonomyLevel"],
      },
    },
  ],
});

verify("agent-unresolved", rules["agent-unresolved"], {
  valid: [{ name: "no agent task", moddleElement: linear(gate("Agent")) }],
  invalid: [
    {
      name: "only the snapshot",
      moddleElement: linear(agent("1")),
      report: {
        id: "Agent",
        message: `${REF} (agent task "Agent") was not found in a registry; its embedded snapshot was checked instead, a degraded read`,
        path: [...DECLARATION, "agentWorkflowRef"],
      },
    },
    {
      name: "neither registry nor snapshot",
      moddleElement: linear(agentTask("Agent", { ref: REF, level: "1" })),
      report: {
        id: "Agent",
        message: `no registry was given to resolve ${REF} (agent task "Agent"); the agent itself could not be reviewed, only the process around it`,
        path: [...DECLARATION, "agentWorkflowRef"],
      },
    },
  ],
});

verify("agent-unresolved (with a registry)", registryRules["agent-unresolved"], {
  valid: [
    {
      name: "the registry knows the ref",
      moddleElement: linear(agentTask("Agent", { ref: REF, level: "1" })),
    },
  ],
  invalid: [
    {
      name: "a snapshot of another workflow",
      moddleElement: linear(agentTask("Agent", { ref: "agnt-new@1.0.0", snapshot: workflow() })),
      report: {
        id: "Agent",
        message: `agnt-new@1.0.0 (agent task "Agent") was not found in a registry, and its snapshot cannot be used: the snapshot is ${REF}, not agnt-new@1.0.0`,
        path: [...DECLARATION, "agentWorkflowRef"],
      },
    },
  ],
});

verify("agent-autonomy-mismatch", rules["agent-autonomy-mismatch"], {
  valid: [{ name: "the workflow's own level", moddleElement: linear(agent("1")) }],
  invalid: [
    {
      name: "the task claims more than the snapshot declares",
      moddleElement: linear(agent("2")),
      report: {
        id: "Agent",
        message: `agent task "Agent" declares autonomy level 2, but ${REF} declares level 1`,
        path: [...DECLARATION, "autonomyLevel"],
      },
    },
  ],
});

verify("agent-workflow-invalid", rules["agent-workflow-invalid"], {
  valid: [{ name: "a valid snapshot", moddleElement: linear(agent("1")) }],
  invalid: [
    {
      name: "an edge to a node that does not exist",
      moddleElement: linear(
        agent("1", workflow(REF, { edges: [{ from: "answer", to: "nowhere", edgeType: "data" }] })),
      ),
      report: {
        id: "Agent",
        message: `${REF} (agent task "Agent") has 1 validation error(s): EDGE_ENDPOINT_MISSING`,
        path: [...DECLARATION, "agentWorkflowRef"],
      },
    },
  ],
});

verify("agent-gate-unreachable", rules["agent-gate-unreachable"], {
  valid: [
    { name: "a gate after the task", moddleElement: linear(agent("1")) },
    {
      name: "a Camunda agent, ignored by policy",
      config: { camundaAgents: "ignore" },
      moddleElement: linear(camundaAgent("Agent"), false),
    },
  ],
  invalid: [
    {
      name: "no gate at all",
      moddleElement: linear(agent("1"), false),
      report: {
        id: "Agent",
        message:
          'agent task "Agent" (autonomy level 1) needs an approval gate downstream, but no gate is reachable from it',
      },
    },
    {
      name: "a Camunda agent, gate required by default",
      moddleElement: linear(camundaAgent("Agent"), false),
      report: {
        id: "Agent",
        message:
          'agent task "Agent" (autonomy level unknown) needs an approval gate downstream, but no gate is reachable from it',
      },
    },
  ],
});

verify("agent-gate-bypass", rules["agent-gate-bypass"], {
  valid: [{ name: "every path through the gate", moddleElement: linear(agent("1")) }],
  invalid: [
    {
      name: "a gateway branch around the gate",
      moddleElement: moddle(
        definitions(
          start(),
          agent("1"),
          xor("Split"),
          gate("Review"),
          end(),
          end("Skip"),
          ...flows("Start", "Agent", "Split", "Review", "End"),
          ...flows("Split", "Skip"),
        ),
      ),
      report: {
        id: "Agent",
        message:
          'agent task "Agent" (autonomy level 1) can reach the end without an approval gate: Agent → Split → Skip',
      },
    },
  ],
});

verify("agent-gate-optional", rules["agent-gate-optional"], {
  valid: [
    {
      name: "level 4 with a gate",
      moddleElement: linear(agentTask("Agent", { ref: REF, level: "4" })),
    },
  ],
  invalid: [
    {
      name: "level 4 without a gate",
      moddleElement: linear(agent("4", LEVEL_4), false),
      report: {
        id: "Agent",
        message:
          'agent task "Agent" (autonomy level 4) has no approval gate downstream; at this level one is optional but recommended',
      },
    },
    {
      name: "a Camunda agent, gate optional by policy",
      config: { camundaAgents: "gate-optional" },
      moddleElement: linear(camundaAgent("Agent"), false),
      report: {
        id: "Agent",
        message:
          'agent task "Agent" (autonomy level unknown) has no approval gate downstream; at this level one is optional but recommended',
      },
    },
  ],
});

const payer = agentTask("Agent", { ref: "agnt-pay@1.0.0", level: "5" });
verify("tool-effect-needs-gate", registryRules["tool-effect-needs-gate"], {
  valid: [{ name: "a gate after the paying agent", moddleElement: linear(payer) }],
  invalid: [
    {
      name: "no gate after the paying agent",
      moddleElement: linear(payer, false),
      report: {
        id: "Agent",
        message:
          'agnt-pay@1.0.0 (agent task "Agent") calls "tool:pay@1.0.0" (effect "external-commitment") at node "pay", but the gate downstream is missing',
      },
    },
  ],
});
