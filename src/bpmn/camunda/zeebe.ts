/**
 * Reading Camunda 8's `zeebe:` extension elements, typed (zeebe-bpmn-moddle registered) or
 * generic (moddle keeps unknown elements with their attributes and `$children`). Every reader
 * takes the element's extension values, read once by the caller.
 */
import type { JobTypeReading } from "../camunda-agents.js";
import { readJobType } from "../camunda-agents.js";
import { isZeebe, modelerTemplate } from "../zeebe-names.js";
import { feelContextEntries } from "./feel-context.js";
import { staticText } from "./static-text.js";
import type { CamundaJob } from "./types.js";
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

/** The `zeebe:input` mappings in the order the engine applies them, `[target, source]`. */
export function zeebeInputList(
  values: readonly ModdleObject[],
): readonly (readonly [string, string])[] {
  const mapping = zeebeValue(values, "iomapping");
  if (mapping === undefined) return [];
  return itemsOf(mapping, "inputParameters", "input").flatMap((input) => {
    const target = stringProp(input, "target");
    return target === undefined ? [] : [[target, stringProp(input, "source") ?? ""] as const];
  });
}

/**
 * The `zeebe:input` mappings, target → source. An input without a source (a local variable
 * reset, `<zeebe:input target="agent"/>`) maps to `""`. A repeated target keeps its last source,
 * as the engine applies the mappings in order.
 */
export function zeebeInputs(values: readonly ModdleObject[]): ReadonlyMap<string, string> {
  return new Map(zeebeInputList(values));
}

/** Where a field of the job's variables gets its value from. */
export interface FieldSource {
  /** The `zeebe:input` target that gives it: the field itself, or an object that holds it. */
  readonly input: string;
  /** That input's source as written. */
  readonly source: string;
  /**
   * The field's own source: the input's, or its entry in a FEEL context literal (as `=<entry>`);
   * absent when the input is FEEL that cannot be split, so the field may hold anything.
   */
  readonly field?: string;
}

const ABSENT = Symbol("absent");
const LITERAL = /^(?:null|true|false|-?\d+(?:\.\d+)?)$/;

/** What `source` gives at `path` inside it: an entry's source, absent, or unknown (`undefined`). */
function inside(source: string, path: readonly string[]): string | typeof ABSENT | undefined {
  // Static text is a string: it has no fields.
  if (!source.trim().startsWith("=")) return ABSENT;
  let expression = source.trim().slice(1).trim();
  for (const key of path) {
    const entries = feelContextEntries(expression);
    if (entries === undefined) {
      const literal = LITERAL.test(expression) || staticText(`=${expression}`) !== undefined;
      return literal ? ABSENT : undefined;
    }
    const entry = entries.get(key);
    if (entry === undefined) return ABSENT;
    expression = entry;
  }
  return `=${expression}`;
}

/**
 * The source of the variable `field` (`data.tools.containerElementId`) as the engine builds it:
 * mappings apply in order, and a mapping to an object that holds the field (`data.tools`,
 * `data`) replaces what was there. Such an object given as a FEEL context literal is read entry
 * by entry; as any other FEEL its field cannot be read (`field` absent). `undefined` when no
 * mapping gives the field.
 */
export function fieldSource(
  mappings: readonly (readonly [string, string])[],
  field: string,
): FieldSource | undefined {
  let out: FieldSource | undefined;
  for (const [input, source] of mappings) {
    if (input === field) {
      out = { input, source, field: source };
    } else if (field.startsWith(`${input}.`)) {
      const found = inside(source, field.slice(input.length + 1).split("."));
      if (found === ABSENT) out = undefined;
      else out = { input, source, ...(found === undefined ? {} : { field: found }) };
    }
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

/** The job type of the `zeebe:taskDefinition`, read as {@link readJobType} reads it. */
export function jobTypeReading(values: readonly ModdleObject[]): JobTypeReading | undefined {
  const definition = zeebeValue(values, "taskdefinition");
  const type = definition === undefined ? undefined : stringProp(definition, "type");
  return type === undefined ? undefined : readJobType(type);
}

/** The listener lists Zeebe runs jobs for, and the local name of their items. */
const LISTENERS = [
  ["executionlisteners", "executionlistener", "execution-listener"],
  ["tasklisteners", "tasklistener", "task-listener"],
] as const;

/**
 * Every `zeebe:executionListener` and `zeebe:taskListener` of the element, in order, as the jobs
 * Zeebe creates for them: every list is read (not only the first), and a listener without a
 * `type` keeps the empty type, which nothing maps (its effect is unknown).
 */
export function listenerJobs(values: readonly ModdleObject[]): CamundaJob[] {
  const out: CamundaJob[] = [];
  for (const value of values) {
    for (const [list, item, kind] of LISTENERS) {
      if (!isZeebe(value, list)) continue;
      for (const listener of itemsOf(value, "listeners", item)) {
        const reading = readJobType(stringProp(listener, "type") ?? "");
        const event = stringProp(listener, "eventType");
        out.push({
          kind,
          ...(event === undefined ? {} : { event }),
          type: reading.type,
          expression: reading.expression,
        });
      }
    }
  }
  return out;
}

/** The zeebe property that makes an element subscribe with an inbound connector. */
export const INBOUND_TYPE_PROPERTY = "inbound.type";

/**
 * The inbound connector the element subscribes with (`zeebe:property inbound.type`), as a job:
 * the connector runtime runs it for as long as the element waits.
 */
export function inboundJob(properties: Readonly<Record<string, string>>): CamundaJob | undefined {
  if (!Object.hasOwn(properties, INBOUND_TYPE_PROPERTY)) return undefined;
  const reading = readJobType(properties[INBOUND_TYPE_PROPERTY] ?? "");
  return { kind: "inbound", type: reading.type, expression: reading.expression };
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
