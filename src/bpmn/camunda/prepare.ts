/**
 * The Camunda part of `prepareProcess`: during the one walk, note the ad-hoc sub-processes (the
 * task variant names its tool container by id) and any `btv:toolEffect` that is no effect; after
 * it, read each Camunda agent. An ad-hoc sub-process that only carries the tool-container
 * property and that an AI Agent task names is that task's container, not an agent of its own;
 * an A2A client that is a tool of a read agent is that agent's delegation (the derived workflow's
 * delegate edge), not an agent task of its own. "Only" is decided on every marker the element
 * carries, whatever their order: the declaration names one marker, the first found.
 */
import { CAMUNDA_TOOL_CONTAINER_PROPERTY } from "../camunda-agents.js";
import type { AgentDeclaration } from "../agents.js";
import type { ModdleObject } from "../moddle.js";
import { extensionValues, idOf, stringProp } from "../moddle.js";
import type { CamundaAgent } from "./types.js";
import { TOOL_EFFECTS } from "./effect-mapping.js";
import { containerLookup, readCamundaAgent } from "./read-agent.js";
import { agentTypeOf, zeebeProperties } from "./zeebe.js";

/** A found agent task, by flow node index. */
interface Found {
  readonly node: number;
  readonly declaration: AgentDeclaration;
}

/** What the walk collects for Camunda agents, and the reading after it. */
export interface CamundaCollector {
  readonly visit: (element: ModdleObject, node: number) => void;
  readonly read: (found: readonly Found[], elements: readonly ModdleObject[]) => Found[];
  readonly invalidToolEffects: { readonly node: number; readonly value: string }[];
}

/**
 * True when the tool-container property is the element's only agent marker: it carries the
 * property, and no template, job type or `zeebe:agentDefinition` (each of which makes an agent of
 * it, wherever it stands among the extension elements).
 */
function onlyContainerMarked(values: readonly ModdleObject[], agent: CamundaAgent): boolean {
  if (agent.templateId !== undefined || agent.jobType !== undefined) return false;
  if (agentTypeOf(values) !== undefined) return false;
  return Object.hasOwn(zeebeProperties(values), CAMUNDA_TOOL_CONTAINER_PROPERTY);
}

/** A collector for one walk. */
export function camundaCollector(): CamundaCollector {
  const adHoc = new Map<string, ModdleObject>();
  const invalidToolEffects: { node: number; value: string }[] = [];
  const visit = (element: ModdleObject, node: number): void => {
    if (element.$type === "bpmn:AdHocSubProcess") {
      const id = idOf(element);
      if (id !== undefined && !adHoc.has(id)) adHoc.set(id, element);
    }
    const effect = stringProp(element, "toolEffect");
    if (effect !== undefined && !(TOOL_EFFECTS as readonly string[]).includes(effect.trim())) {
      invalidToolEffects.push({ node, value: effect });
    }
  };
  const read = (found: readonly Found[], elements: readonly ModdleObject[]): Found[] => {
    const lookup = containerLookup(adHoc);
    const named = new Set<string>();
    const tools = new Set<string>();
    const out = found.map((entry): Found => {
      const element = elements[entry.node];
      if (entry.declaration.source !== "camunda" || element === undefined) return entry;
      const agent = readCamundaAgent(element, extensionValues(element), lookup);
      if (agent === undefined) return entry;
      if (agent.variant === "task" && agent.container !== undefined) named.add(agent.container.id);
      for (const tool of agent.tools) tools.add(tool.id);
      return { node: entry.node, declaration: { ...entry.declaration, camunda: agent } };
    });
    return out.filter(({ node, declaration }) => {
      const agent = declaration.camunda;
      const element = elements[node] ?? { $type: "" };
      const id = idOf(element) ?? "";
      if (declaration.source === "camunda" && agent === undefined && tools.has(id)) return false;
      if (agent === undefined || !named.has(agent.elementId)) return true;
      return !onlyContainerMarked(extensionValues(element), agent);
    });
  };
  return { visit, read, invalidToolEffects };
}
