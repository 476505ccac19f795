/**
 * A tiny builder for BPMN test processes: each helper returns readable XML text, one element per
 * line, so a rule table states the shape of a process in a few lines. Element order in the output
 * is the order of the arguments, which is what the moddle paths (`/rootElements/0/flowElements/3`)
 * of the expected diagnostics count. Also the registry documents the agent tasks resolve to.
 */
import { createRequire } from "node:module";
import { effectNeedsGate } from "../../src/autonomy/index.js";
import type { ModdleExtensions, UnknownLevelPolicy } from "../../src/bpmn/index.js";
import type {
  AgentEdge,
  AgentNode,
  AgentWorkflow,
  AutonomyLevel,
  ToolAuthorization,
  ToolContract,
  ToolEffect,
} from "../../src/model/index.js";
import { decision, edge, llm, tool, workflow } from "../validate/builders.js";

/** zeebe-bpmn-moddle's package, registered as `{ zeebe }` (Camunda 8 extension elements typed). */
export const ZEEBE_MODDLE: ModdleExtensions = {
  zeebe: createRequire(import.meta.url)("zeebe-bpmn-moddle/resources/zeebe.json") as unknown,
};

/** The BPMN 2.0 model namespace. */
export const BPMN_NS = "http://www.omg.org/spec/BPMN/20100524/MODEL";
/** agentflow's extension namespace. */
export const BTV_NS = "https://agentflow.dev/schema/btv/1.0";
/** Camunda 8's extension namespace. */
export const ZEEBE_NS = "http://camunda.org/schema/zeebe/1.0";

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}

function attributes(attrs: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(attrs)
    .flatMap(([name, value]) => (value === undefined ? [] : [` ${name}="${value}"`]))
    .join("");
}

/** Options of {@link element}. */
export interface ElementOptions {
  /** Children of `bpmn:extensionElements` (XML text). */
  readonly ext?: readonly string[];
  /** More attributes, written after the id. */
  readonly attrs?: Readonly<Record<string, string | undefined>>;
  /** Other child elements (XML text), after the extension elements. */
  readonly children?: readonly string[];
}

/** Any BPMN element: `tag` without prefix (`serviceTask`), its id and content. */
export function element(tag: string, id: string, options: ElementOptions = {}): string {
  const open = `bpmn:${tag} id="${id}"${attributes(options.attrs ?? {})}`;
  const inner = [
    ...(options.ext === undefined || options.ext.length === 0
      ? []
      : [`<bpmn:extensionElements>\n${indent(options.ext.join("\n"))}\n</bpmn:extensionElements>`]),
    ...(options.children ?? []),
  ];
  if (inner.length === 0) return `<${open} />`;
  return `<${open}>\n${indent(inner.join("\n"))}\n</bpmn:${tag}>`;
}

/** `<bpmn:startEvent>`. */
export function startEvent(id: string, options: ElementOptions = {}): string {
  return element("startEvent", id, options);
}

/** `<bpmn:endEvent>`. */
export function endEvent(id: string, options: ElementOptions = {}): string {
  return element("endEvent", id, options);
}

/** A plain `<bpmn:task>` (neither agent nor gate). */
export function task(id: string, options: ElementOptions = {}): string {
  return element("task", id, options);
}

/** A `<bpmn:userTask>` without a gate marker. */
export function userTask(id: string, options: ElementOptions = {}): string {
  return element("userTask", id, options);
}

/** The `<btv:gate/>` marker. */
export function gateMarker(approverRole = "reviewer"): string {
  return `<btv:gate approverRole="${approverRole}" />`;
}

/** An approval gate: a user task (or another `tag`) marked `<btv:gate/>`. */
export function gate(id: string, tag = "userTask"): string {
  return element(tag, id, { ext: [gateMarker()] });
}

/** The attributes of a `<btv:agentTask>`; `undefined` leaves one out. */
export interface AgentAttrs {
  readonly ref?: string | undefined;
  readonly level?: string | undefined;
}

/** A `<btv:agentTask>` declaration. */
export function agentTaskMarker(attrs: AgentAttrs): string {
  return `<btv:agentTask${attributes({ agentWorkflowRef: attrs.ref, autonomyLevel: attrs.level })} />`;
}

/** A `<btv:agentWorkflowSnapshot>` holding the workflow as JSON. */
export function snapshot(version: string, body: unknown): string {
  return `<btv:agentWorkflowSnapshot version="${version}"><![CDATA[${JSON.stringify(body)}]]></btv:agentWorkflowSnapshot>`;
}

/** Options of {@link agent}. */
export interface AgentOptions extends AgentAttrs {
  /** The host element (default `serviceTask`). */
  readonly tag?: string;
  /** More extension elements after the declaration (e.g. a {@link snapshot}). */
  readonly ext?: readonly string[];
  /** Child elements (for a sub-process host). */
  readonly children?: readonly string[];
  readonly attrs?: Readonly<Record<string, string | undefined>>;
}

/** An agent task: a service task (by default) carrying `<btv:agentTask>`. */
export function agent(id: string, options: AgentOptions): string {
  return element(options.tag ?? "serviceTask", id, {
    ext: [agentTaskMarker(options), ...(options.ext ?? [])],
    ...(options.children === undefined ? {} : { children: options.children }),
    ...(options.attrs === undefined ? {} : { attrs: options.attrs }),
  });
}

/**
 * A Camunda 8.10 external agent: a service task with `<zeebe:agentDefinition agentType="external">`.
 * Nothing in the BPMN says what it does, so its level is unknown and the policy governs it (an AI
 * Agent task or sub-process is read instead: test/bpmn/camunda/).
 */
export function zeebeAgent(id: string): string {
  return element("serviceTask", id, {
    ext: ['<zeebe:agentDefinition agentType="external" />'],
  });
}

/**
 * An A2A client recognised by its element template only: it hands the work to a remote agent
 * the BPMN does not describe, so its level is unknown and the policy governs it.
 */
export function templateAgent(id: string): string {
  return element("serviceTask", id, {
    attrs: { "zeebe:modelerTemplate": "io.camunda.connectors.agenticai.a2a.client.v0" },
  });
}

/** One way a Camunda 8 AI agent is written, and the moddle packages it is read with. */
export interface CamundaAgentVariant {
  readonly label: string;
  readonly xml: (id: string) => string;
  readonly moddleExtensions?: ModdleExtensions;
}

/** Each Camunda marker, with and without zeebe-bpmn-moddle registered. */
export const CAMUNDA_AGENTS: readonly CamundaAgentVariant[] = [
  { label: "zeebe:agentDefinition", xml: zeebeAgent },
  {
    label: "zeebe:agentDefinition, zeebe-bpmn-moddle registered",
    xml: zeebeAgent,
    moddleExtensions: ZEEBE_MODDLE,
  },
  { label: "A2A client element template", xml: templateAgent },
  {
    label: "A2A client element template, zeebe-bpmn-moddle registered",
    xml: templateAgent,
    moddleExtensions: ZEEBE_MODDLE,
  },
];

/**
 * The `policy` and `moddleExtensions` of a case for `variant` under `policy` (`undefined`: the
 * default, gate-required), and a name saying both.
 */
export function camundaCase(
  variant: CamundaAgentVariant,
  policy: UnknownLevelPolicy | undefined,
): {
  readonly name: string;
  readonly policy?: { readonly camundaAgents: UnknownLevelPolicy };
  readonly moddleExtensions?: ModdleExtensions;
} {
  return {
    name: `Camunda agent (${variant.label}), ${policy ?? "default"} policy`,
    ...(policy === undefined ? {} : { policy: { camundaAgents: policy } }),
    ...(variant.moddleExtensions === undefined
      ? {}
      : { moddleExtensions: variant.moddleExtensions }),
  };
}

/** `<bpmn:exclusiveGateway>`. */
export function exclusiveGateway(id: string): string {
  return element("exclusiveGateway", id);
}

/** `<bpmn:parallelGateway>`. */
export function parallelGateway(id: string): string {
  return element("parallelGateway", id);
}

/** A sequence flow with the id `from-to`. */
export function flow(from: string, to: string): string {
  return `<bpmn:sequenceFlow id="${from}-${to}" sourceRef="${from}" targetRef="${to}" />`;
}

/** Sequence flows along `ids`: a → b, b → c, ... */
export function chain(...ids: readonly string[]): string[] {
  return ids.slice(1).map((to, i) => flow(ids[i] ?? "", to));
}

/** A sub-process with its children (`adHoc` for a `bpmn:adHocSubProcess`). */
export function subProcess(
  id: string,
  children: readonly (string | readonly string[])[],
  options: {
    readonly triggeredByEvent?: boolean;
    readonly adHoc?: boolean;
    readonly ext?: readonly string[];
  } = {},
): string {
  return element(options.adHoc === true ? "adHocSubProcess" : "subProcess", id, {
    ...(options.triggeredByEvent === true ? { attrs: { triggeredByEvent: "true" } } : {}),
    ...(options.ext === undefined ? {} : { ext: options.ext }),
    children: children.flat(),
  });
}

/** A boundary event on `attachedTo` (a timer; interrupting unless `cancel` is false). */
export function boundaryEvent(id: string, attachedTo: string, cancel = true): string {
  return element("boundaryEvent", id, {
    attrs: { attachedToRef: attachedTo, ...(cancel ? {} : { cancelActivity: "false" }) },
    children: [`<bpmn:timerEventDefinition id="${id}-timer" />`],
  });
}

/** A `<bpmn:process>` with its flow elements. */
export function processElement(id: string, ...children: readonly (string | readonly string[])[]) {
  const flat = children.flat();
  if (flat.length === 0) return `<bpmn:process id="${id}" />`;
  return `<bpmn:process id="${id}">\n${indent(flat.join("\n"))}\n</bpmn:process>`;
}

/**
 * A whole document: `bpmn:definitions` declaring the `bpmn`, `btv` and `zeebe` prefixes, with the
 * given root elements.
 */
export function definitions(...roots: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions xmlns:bpmn="${BPMN_NS}" xmlns:btv="${BTV_NS}" xmlns:zeebe="${ZEEBE_NS}" id="Defs" targetNamespace="https://example.com/test">`,
    indent(roots.join("\n")),
    "</bpmn:definitions>",
  ].join("\n");
}

/** A document with one process `P` made of `children`. */
export function processXml(...children: readonly (string | readonly string[])[]): string {
  return definitions(processElement("P", ...children));
}

/** The moddle path of flow element `i` of the single process `P`. */
export function nodePath(i: number, root = 0): string {
  return `/rootElements/${root}/flowElements/${i}`;
}

/** The path of an agent task's `<btv:agentTask>` (first extension value) or of its attribute. */
export function declarationPath(nodePointer: string, attribute?: string): string {
  const base = `${nodePointer}/extensionElements/values/0`;
  return attribute === undefined ? base : `${base}/${attribute}`;
}

/** Splits `id@version`. */
function splitRef(ref: string): { readonly id: string; readonly version: string } {
  const at = ref.lastIndexOf("@");
  return { id: ref.slice(0, at), version: ref.slice(at + 1) };
}

/** The graph of a workflow that justifies exactly `level` (1-5). */
function graphFor(level: AutonomyLevel): {
  readonly nodes: AgentNode[];
  readonly edges: AgentEdge[];
} {
  switch (level) {
    case 0:
    case 1:
      return {
        nodes: [llm("a"), decision("d", "output.done = true", "end", "end")],
        edges: [edge("a", "d")],
      };
    case 2:
      return {
        nodes: [llm("a"), decision("d", "output.done = true", "end", { next: "a", maxRetries: 2 })],
        edges: [edge("a", "d")],
      };
    case 3:
      return {
        nodes: [llm("a"), decision("d", "output.done = true", "end", "b"), llm("b")],
        edges: [edge("a", "d"), edge("d", "b")],
      };
    case 4:
      return {
        nodes: [llm("a"), decision("d", "output.done = true", "end", "end")],
        edges: [edge("a", "d"), edge("a", "agnt-helper@1.0.0", "delegate")],
      };
    case 5:
      return {
        nodes: [
          llm("a", {}, { decorators: [{ type: "planner", strategy: "dynamic" }] }),
          decision("d", "output.done = true", "end", "end"),
        ],
        edges: [edge("a", "d")],
      };
  }
}

/**
 * A valid agent workflow `ref` (`id@x.y.z`) declaring `level`, whose graph justifies `justified`
 * (default: the declared level; 0 is justified as 1). Every workflow carries a budget.
 */
export function agentWorkflow(
  ref: string,
  level: AutonomyLevel,
  options: { readonly justified?: AutonomyLevel } = {},
): AgentWorkflow {
  const { nodes, edges } = graphFor(options.justified ?? level);
  return workflow(nodes, edges, {
    ...splitRef(ref),
    autonomyLevel: level,
    budget: { maxSteps: 10 },
  });
}

/** The level-1 helper every level-4 workflow delegates to (`agnt-helper@1.0.0`). */
export const HELPER: AgentWorkflow = agentWorkflow("agnt-helper@1.0.0", 1);

/** A workflow (level 1 unless given) whose tool node `t` calls `toolRef` after an llm node. */
export function toolCaller(ref: string, toolRef: string, level: AutonomyLevel = 1): AgentWorkflow {
  return workflow([llm("a"), tool("t", toolRef, { params: { q: "x" } })], [edge("a", "t")], {
    ...splitRef(ref),
    autonomyLevel: level,
    budget: { maxSteps: 10 },
  });
}

/**
 * A tool contract `ref` (`tool:name@x.y.z`) with input `{ q: text }`; by default authorized as the
 * effect requires (`gate` for irreversible and committing effects), so the contract itself is valid.
 */
export function toolContract(
  ref: string,
  effect: ToolEffect,
  authorization: ToolAuthorization = effectNeedsGate(effect) ? "gate" : "automatic",
): ToolContract {
  const { id, version } = splitRef(ref);
  return {
    kind: "ToolContract",
    id,
    version,
    name: id,
    inputSchema: { q: "text" },
    outputSchema: { ok: "bool" },
    effect,
    authorization,
  };
}
