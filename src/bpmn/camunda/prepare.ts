/**
 * The Camunda part of `prepareProcess`: during the one walk, note the ad-hoc sub-processes (the
 * task variant names its tool container by id) and any `btv:toolEffect` that is no effect; after
 * it, read each Camunda agent. An ad-hoc sub-process that only carries the tool-container
 * property and that an AI Agent task names is that task's container, not an agent of its own;
 * an A2A client that is a tool of a read agent is that agent's delegation (the derived workflow's
 * delegate edge), not an agent task of its own. "Only" is decided on every marker the element
 * carries, whatever their order: the declaration names one marker, the first found.
 *
 * A btv task on an element with Camunda markers is read too: the engine runs the AI agent the
 * BPMN draws, whatever the ref names, so the reading is judged beside the ref (docs/bpmn.md). It
 * stays an agent task whatever the reading gives: an opaque agent (external, A2A) has no reading,
 * and an ad-hoc sub-process that is only another agent's tool container keeps its ref but not
 * the reading (the other agent runs those tools, and is judged for them).
 *
 * An ad-hoc sub-process no marker makes an agent is one when something the BPMN does not describe
 * activates its elements at run time (a job worker of its own, a run-time
 * `activeElementsCollection`: opaque.ts): it is added as a Camunda agent that is not derived,
 * unless a read AI Agent task names it as its tool container (that agent activates them, and is
 * judged for its tools) or it is a tool of a read agent (that agent is judged for it). Each agent
 * that is not derived carries, as its marker, the attribute that makes it one: the findings name it.
 */
import { CAMUNDA_TOOL_CONTAINER_PROPERTY } from "../camunda-agents.js";
import type { AgentDeclaration } from "../agents.js";
import { camundaDeclaration } from "../agents.js";
import type { ModdleObject } from "../moddle.js";
import { extensionValues, idOf, stringProp } from "../moddle.js";
import type { CamundaAgent } from "./types.js";
import { TOOL_EFFECTS } from "./effect-mapping.js";
import { opaqueMarker } from "./opaque.js";
import { containerLookup, readCamundaAgent } from "./read-agent.js";
import { agentTypeOf, zeebeProperties, zeebeValue } from "./zeebe.js";

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

/** The declaration without its Camunda reading. */
function withoutReading(declaration: AgentDeclaration): AgentDeclaration {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(declaration)) if (key !== "camunda") out[key] = value;
  return out as unknown as AgentDeclaration;
}

/** True when the element is a Camunda agent: recognised as one, or a btv task with its markers. */
function isCamundaMarked(declaration: AgentDeclaration): boolean {
  return declaration.source === "camunda" || declaration.marker !== undefined;
}

/**
 * The ad-hoc sub-processes no declaration names that something outside the BPMN drives, added as
 * agents in walk order among `found`; `byCollection` holds those an `activeElementsCollection`
 * drives (no job worker of their own), which an AI Agent task may name as its container.
 */
function withDriven(
  found: readonly Found[],
  adHocNodes: readonly number[],
  elements: readonly ModdleObject[],
): { all: Found[]; byCollection: Set<number> } {
  const declared = new Set(found.map((f) => f.node));
  const byCollection = new Set<number>();
  const added: Found[] = [];
  for (const node of adHocNodes) {
    const element = elements[node];
    if (declared.has(node) || element === undefined) continue;
    const values = extensionValues(element);
    const marker = opaqueMarker(element, values);
    if (marker === undefined) continue;
    if (zeebeValue(values, "taskdefinition") === undefined) byCollection.add(node);
    added.push({ node, declaration: camundaDeclaration(marker) });
  }
  if (added.length === 0) return { all: [...found], byCollection };
  return { all: [...found, ...added].sort((a, b) => a.node - b.node), byCollection };
}

/** A collector for one walk. */
export function camundaCollector(): CamundaCollector {
  const adHoc = new Map<string, ModdleObject>();
  const adHocNodes: number[] = [];
  const invalidToolEffects: { node: number; value: string }[] = [];
  const visit = (element: ModdleObject, node: number): void => {
    if (element.$type === "bpmn:AdHocSubProcess") {
      adHocNodes.push(node);
      const id = idOf(element);
      if (id !== undefined && !adHoc.has(id)) adHoc.set(id, element);
    }
    const effect = stringProp(element, "toolEffect");
    if (effect !== undefined && !(TOOL_EFFECTS as readonly string[]).includes(effect.trim())) {
      invalidToolEffects.push({ node, value: effect });
    }
  };
  const read = (declared: readonly Found[], elements: readonly ModdleObject[]): Found[] => {
    const lookup = containerLookup(adHoc);
    const named = new Set<string>();
    const tools = new Set<string>();
    const { all, byCollection } = withDriven(declared, adHocNodes, elements);
    const out = all.map((entry): Found => {
      const element = elements[entry.node];
      if (!isCamundaMarked(entry.declaration) || element === undefined) return entry;
      const values = extensionValues(element);
      const agent = readCamundaAgent(element, values, lookup);
      if (agent === undefined) {
        // Not derived: the attribute that makes it an agent is what the findings name.
        const marker =
          entry.declaration.source === "camunda" ? opaqueMarker(element, values) : undefined;
        if (marker === undefined) return entry;
        return { node: entry.node, declaration: { ...entry.declaration, marker } };
      }
      if (agent.variant === "task" && agent.container !== undefined) named.add(agent.container.id);
      for (const tool of agent.tools) tools.add(tool.id);
      return { node: entry.node, declaration: { ...entry.declaration, camunda: agent } };
    });
    return out.flatMap((entry): Found[] => {
      const { node, declaration } = entry;
      const agent = declaration.camunda;
      const element = elements[node] ?? { $type: "" };
      const id = idOf(element) ?? "";
      if (declaration.source === "camunda" && agent === undefined && tools.has(id)) return [];
      // An AI Agent task's container: its tool calls activate the elements, and it is judged.
      if (byCollection.has(node) && named.has(id)) return [];
      if (agent === undefined || !named.has(agent.elementId)) return [entry];
      if (!onlyContainerMarked(extensionValues(element), agent)) return [entry];
      // Another agent's container: a btv ref on it still names an agent, judged without the tools.
      if (declaration.source !== "btv") return [];
      return [{ node, declaration: withoutReading(declaration) }];
    });
  };
  return { visit, read, invalidToolEffects };
}
