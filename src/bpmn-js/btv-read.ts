/**
 * Reading `btv` extension elements off a bpmn-js business object. bpmn-js hands out moddle
 * objects untyped; these accessors check what they read, so nothing else here touches them
 * untyped. Shared by the overlays (approver roles) and the properties panel.
 */
import type { ModdleObject } from "../bpmn/index.js";
import { instanceOf } from "../bpmn/moddle.js";

function isModdle(value: unknown): value is ModdleObject {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { readonly $type?: unknown }).$type === "string"
  );
}

/** The business object's `bpmn:extensionElements`, if it has one. */
export function extensionElementsOf(businessObject: unknown): ModdleObject | undefined {
  if (!isModdle(businessObject)) return undefined;
  const ext = businessObject.extensionElements;
  return isModdle(ext) ? ext : undefined;
}

/** The values of the business object's extension elements (moddle objects only). */
export function extensionValuesOf(businessObject: unknown): ModdleObject[] {
  const values = extensionElementsOf(businessObject)?.values;
  return Array.isArray(values) ? values.filter(isModdle) : [];
}

/** The first extension value of a `btv` type (`btv:AgentTask`, `btv:Gate`). */
export function btvValue(businessObject: unknown, type: string): ModdleObject | undefined {
  return extensionValuesOf(businessObject).find((value) => instanceOf(value, type));
}

/** A string attribute of a moddle object, or `undefined`. */
export function stringAttr(element: ModdleObject | undefined, name: string): string | undefined {
  const value = element?.[name];
  return typeof value === "string" ? value : undefined;
}

/** True when the business object is of a BPMN type (moddle's `$instanceOf`). */
export function isType(businessObject: unknown, type: string): boolean {
  return isModdle(businessObject) && instanceOf(businessObject, type);
}

/** The business object as a moddle object, for the gate predicate; `undefined` if it is none. */
export function asModdle(businessObject: unknown): ModdleObject | undefined {
  return isModdle(businessObject) ? businessObject : undefined;
}
