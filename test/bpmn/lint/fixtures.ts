/**
 * BPMN text for the plugin's tests: a process is a list of elements and flows, one per line,
 * and an agent task states its ref, level and embedded snapshot. Kept apart from the BPMN rule
 * tests' builders so the plugin's fixtures only change with the plugin.
 */

/** The namespaces every fixture declares. */
const NAMESPACES = [
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"',
  'xmlns:btv="https://agentflow.dev/schema/btv/1.0"',
  'xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"',
].join(" ");

/** A whole document with one process holding `elements`. */
export function definitions(...elements: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions ${NAMESPACES} id="Definitions_1" targetNamespace="https://example.com/bpmn">`,
    '  <bpmn:process id="Process_1" isExecutable="true">',
    ...elements.map((e) => `    ${e}`),
    "  </bpmn:process>",
    "</bpmn:definitions>",
    "",
  ].join("\n");
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** What an agent task declares. */
export interface AgentOptions {
  readonly ref?: string;
  readonly level?: string;
  /** A workflow document embedded as `btv:agentWorkflowSnapshot`. */
  readonly snapshot?: unknown;
}

/** A service task running an agentflow agent (`btv:agentTask`). */
export function agentTask(id: string, options: AgentOptions = {}): string {
  const attrs = [
    options.ref === undefined ? "" : ` agentWorkflowRef="${escapeXml(options.ref)}"`,
    options.level === undefined ? "" : ` autonomyLevel="${escapeXml(options.level)}"`,
  ].join("");
  const snapshot =
    options.snapshot === undefined
      ? ""
      : `<btv:agentWorkflowSnapshot>${escapeXml(JSON.stringify(options.snapshot))}</btv:agentWorkflowSnapshot>`;
  return `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><btv:agentTask${attrs} />${snapshot}</bpmn:extensionElements></bpmn:serviceTask>`;
}

/** A Camunda 8 AI agent (`zeebe:agentDefinition`): an agent task of unknown level. */
export function camundaAgent(id: string): string {
  return `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><zeebe:agentDefinition /></bpmn:extensionElements></bpmn:serviceTask>`;
}

/** A user task marked as an approval gate. */
export function gate(id: string): string {
  return `<bpmn:userTask id="${id}"><bpmn:extensionElements><btv:gate approverRole="reviewer" /></bpmn:extensionElements></bpmn:userTask>`;
}

/** A start event. */
export function start(id = "Start"): string {
  return `<bpmn:startEvent id="${id}" />`;
}

/** An end event. */
export function end(id = "End"): string {
  return `<bpmn:endEvent id="${id}" />`;
}

/** An exclusive gateway. */
export function xor(id: string): string {
  return `<bpmn:exclusiveGateway id="${id}" />`;
}

/** Sequence flows through `ids` in order (`Flow_<from>_<to>`). */
export function flows(...ids: readonly string[]): string[] {
  return ids.slice(1).map((to, i) => {
    const from = ids[i] ?? "";
    return `<bpmn:sequenceFlow id="Flow_${from}_${to}" sourceRef="${from}" targetRef="${to}" />`;
  });
}

/** A valid agent workflow (loop-free, so level 1 is coherent) with the given id and version. */
export function workflow(
  ref = "agnt-rsch@2.1.0",
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const [id, version] = ref.split("@");
  return {
    kind: "AgentWorkflow",
    id,
    version,
    name: "Research",
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { done: "bool" },
    nodes: [
      {
        id: "answer",
        type: "llm",
        config: { model: "gpt-4o", promptRef: "prm:answer@1.0.0", structuredOutput: true },
      },
    ],
    edges: [],
    ...extra,
  };
}
