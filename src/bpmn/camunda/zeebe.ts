/**
 * Reading Camunda 8's `zeebe:` extension elements, typed (zeebe-bpmn-moddle registered) or
 * generic (moddle keeps unknown elements with their attributes and `$children`). Every reader
 * takes the element's extension values, read once by the caller.
 */
import { isZeebe, modelerTemplate } from "../camunda-agents.js";
import type { ModdleObject } from "../moddle.js";
import { foreignAttrs, genericChildren, listProp, stringProp } from "../moddle.js";

// One reader of a zeebe element's kind, shared with the recognition of agents.
export { isZeebe };

/** The first `zeebe:<local>` among the values. */
export function zeebeValue(
  values: readonly ModdleObject[],
  local: string,
): ModdleObject | undefined {
  return values.find((value) => isZeebe(value, local));
}

/** The items of a typed list property, else the generic children of that local name. */
function itemsOf(parent: ModdleObject, typed: string, local: string): readonly ModdleObject[] {
  const list = listProp(parent, typed);
  if (list.length > 0) return list;
  return genericChildren(parent).filter((child) => isZeebe(child, local));
}

/**
 * The `zeebe:input` mappings, target → source. An input without a source (a local variable
 * reset, `<zeebe:input target="agent"/>`) maps to `""`. A repeated target keeps its last source,
 * as the engine applies the mappings in order.
 */
export function zeebeInputs(values: readonly ModdleObject[]): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const mapping = zeebeValue(values, "iomapping");
  if (mapping === undefined) return out;
  for (const input of itemsOf(mapping, "inputParameters", "input")) {
    const target = stringProp(input, "target");
    if (target !== undefined) out.set(target, stringProp(input, "source") ?? "");
  }
  return out;
}

/** Name → value of a `zeebe:properties` or `zeebe:taskHeaders` list. */
function pairs(
  values: readonly ModdleObject[],
  container: string,
  typed: string,
  item: string,
  key: string,
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  const parent = zeebeValue(values, container);
  if (parent === undefined) return out;
  for (const entry of itemsOf(parent, typed, item)) {
    const name = stringProp(entry, key);
    if (name === undefined) continue;
    Object.defineProperty(out, name, {
      value: stringProp(entry, "value") ?? "",
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The `zeebe:property` entries, name → value. */
export function zeebeProperties(values: readonly ModdleObject[]): Readonly<Record<string, string>> {
  return pairs(values, "properties", "properties", "property", "name");
}

/** The `zeebe:header` entries, key → value. */
export function zeebeHeaders(values: readonly ModdleObject[]): Readonly<Record<string, string>> {
  return pairs(values, "taskheaders", "values", "header", "key");
}

/** The job type of the `zeebe:taskDefinition`, trimmed. */
export function jobTypeOf(values: readonly ModdleObject[]): string | undefined {
  const definition = zeebeValue(values, "taskdefinition");
  const type = definition === undefined ? undefined : stringProp(definition, "type");
  return type?.trim();
}

/** The element template an element was made from: id and version (attribute, else header). */
export interface TemplateRef {
  readonly id: string | undefined;
  readonly version: number | undefined;
}

function versionText(element: ModdleObject): string | undefined {
  const typed = element.modelerTemplateVersion;
  if (typeof typed === "number" && Number.isFinite(typed)) return String(typed);
  const attrs = foreignAttrs(element);
  for (const key in attrs) {
    const value = attrs[key];
    if (key.endsWith(":modelerTemplateVersion") && typeof value === "string") return value;
  }
  return undefined;
}

/**
 * The template id and version: `zeebe:modelerTemplate(Version)`, else the `elementTemplateId`
 * and `elementTemplateVersion` headers connectors duplicate them in (kept when a modeller
 * unlinks the template).
 */
export function templateOf(
  element: ModdleObject,
  headers: Readonly<Record<string, string>>,
): TemplateRef {
  const id = modelerTemplate(element) ?? headers.elementTemplateId;
  const text = versionText(element) ?? headers.elementTemplateVersion;
  const version = text !== undefined && /^\d{1,9}$/.test(text.trim()) ? Number(text) : undefined;
  return { id, version };
}

/** The text of the element's `bpmn:documentation` entries, joined; `undefined` when blank. */
export function documentationOf(element: ModdleObject): string | undefined {
  const texts = listProp(element, "documentation").flatMap((doc) => {
    const text = stringProp(doc, "text");
    return text === undefined ? [] : [text];
  });
  const joined = texts.join("\n").trim();
  return joined === "" ? undefined : joined;
}

/** `zeebe:agentDefinition agentType`, when the element carries the 8.10 marker. */
export function agentTypeOf(values: readonly ModdleObject[]): string | undefined {
  const marker = zeebeValue(values, "agentdefinition");
  return marker === undefined ? undefined : (stringProp(marker, "agentType") ?? "");
}

/** `zeebe:script`: its FEEL expression, when the script task is evaluated by the engine. */
export function scriptExpressionOf(values: readonly ModdleObject[]): string | undefined {
  const script = zeebeValue(values, "script");
  return script === undefined ? undefined : stringProp(script, "expression");
}

/** A boolean attribute (`triggeredByEvent`), typed or as moddle left the text. */
export function boolProp(element: ModdleObject, name: string): boolean {
  const value = element[name];
  return value === true || value === "true";
}
