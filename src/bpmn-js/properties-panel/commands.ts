/**
 * The changes the "Agent governance" group makes, as command-stack commands: every write goes
 * through `element.updateModdleProperties` (bpmn-js's own command), batched into one
 * `properties-panel.multi-command-executor` call, so an edit is one undo step. Building the
 * commands is separate from running them, so what an edit writes is tested without a browser.
 */
import type { ModdleObject } from "../../bpmn/index.js";
import { btvValue, extensionElementsOf, extensionValuesOf, stringAttr } from "../btv-read.js";

/** The attributes whose presence makes a task an agent task (see `patchBtvCommands`). */
export const AGENT_ATTRIBUTES: readonly string[] = Object.freeze([
  "agentWorkflowRef",
  "autonomyLevel",
  "inputMapping",
  "outputMapping",
]);

/** One `element.updateModdleProperties` command. */
export interface ModdleCommand {
  readonly cmd: "element.updateModdleProperties";
  readonly context: {
    readonly element: unknown;
    readonly moddleElement: unknown;
    readonly properties: Readonly<Record<string, unknown>>;
  };
}

/** bpmn-js's `bpmnFactory`, which creates moddle elements of registered types. */
export interface BpmnFactory {
  create(type: string, attrs?: Readonly<Record<string, unknown>>): ModdleObject;
}

/** Attributes to write: a string sets one, `undefined` removes it. */
export type AttributePatch = Readonly<Record<string, string | undefined>>;

function update(
  element: unknown,
  moddleElement: unknown,
  properties: Readonly<Record<string, unknown>>,
): ModdleCommand {
  return { cmd: "element.updateModdleProperties", context: { element, moddleElement, properties } };
}

function cleaned(patch: AttributePatch): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(patch))
    if (value !== undefined && value !== "") out[key] = value;
  return out;
}

/**
 * The commands that add `value` to the element's extension elements, creating
 * `bpmn:extensionElements` first when the element has none.
 */
export function addValueCommands(
  element: { readonly businessObject: unknown },
  value: ModdleObject,
  factory: BpmnFactory,
): ModdleCommand[] {
  const bo = element.businessObject;
  const commands: ModdleCommand[] = [];
  let ext = extensionElementsOf(bo);
  if (ext === undefined) {
    ext = factory.create("bpmn:ExtensionElements", { values: [] });
    Object.assign(ext, { $parent: bo });
    commands.push(update(element, bo, { extensionElements: ext }));
  }
  Object.assign(value, { $parent: ext });
  commands.push(update(element, ext, { values: [...extensionValuesOf(bo), value] }));
  return commands;
}

/** The command that removes `value` from the element's extension elements ([] if absent). */
export function removeValueCommands(
  element: { readonly businessObject: unknown },
  value: ModdleObject,
): ModdleCommand[] {
  const bo = element.businessObject;
  const ext = extensionElementsOf(bo);
  if (ext === undefined) return [];
  const values = extensionValuesOf(bo);
  if (!values.includes(value)) return [];
  return [update(element, ext, { values: values.filter((v) => v !== value) })];
}

/**
 * The commands that write attributes of the element's `type` extension (`btv:AgentTask`,
 * `btv:Gate`): it is created when absent and something is set, and removed once none of the
 * attributes `keptBy` names is left (a task with neither ref, level nor mappings is no agent).
 * An empty string clears an attribute, as an emptied input means.
 */
export function patchBtvCommands(
  element: { readonly businessObject: unknown },
  type: string,
  patch: AttributePatch,
  factory: BpmnFactory,
  keptBy: readonly string[],
): ModdleCommand[] {
  const existing = btvValue(element.businessObject, type);
  if (existing === undefined) {
    const attrs = cleaned(patch);
    if (Object.keys(attrs).length === 0) return [];
    return addValueCommands(element, factory.create(type, attrs), factory);
  }
  const properties: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(patch)) {
    properties[key] = value === "" ? undefined : value;
  }
  const left = keptBy.filter((name) => {
    const value = Object.hasOwn(properties, name) ? properties[name] : stringAttr(existing, name);
    return value !== undefined && value !== "";
  });
  if (keptBy.length > 0 && left.length === 0) return removeValueCommands(element, existing);
  return [update(element, existing, properties)];
}

/** The commands that put a `btv:gate` on the element (`on`) or take it off. */
export function gateCommands(
  element: { readonly businessObject: unknown },
  on: boolean,
  factory: BpmnFactory,
): ModdleCommand[] {
  const existing = btvValue(element.businessObject, "btv:Gate");
  if (on)
    return existing === undefined
      ? addValueCommands(element, factory.create("btv:Gate"), factory)
      : [];
  return existing === undefined ? [] : removeValueCommands(element, existing);
}

/**
 * The command that sets the element's `btv:toolEffect` attribute (the effect of a Camunda
 * agent's tool, docs/bpmn.md); `""` removes it.
 */
export function toolEffectCommands(
  element: { readonly businessObject: unknown },
  effect: string,
): ModdleCommand[] {
  const bo = element.businessObject;
  const current = stringAttr(bo as ModdleObject, "toolEffect") ?? "";
  if (current === effect) return [];
  return [update(element, bo, { toolEffect: effect === "" ? undefined : effect })];
}
