/**
 * The implementation attributes of Camunda 7, Flowable and Activiti on an element, read by
 * namespace URI, never by prefix: moddle keeps an unregistered namespace's attributes in `$attrs`
 * under the document's own prefix, which the `xmlns` declarations in scope resolve, and types them
 * (with the package's prefix on their descriptor) when the host registered the engine's moddle
 * package, as the Camunda 7 Modeler does. `engine-tasks.ts` reads what they make of a task.
 */
import type { ModdleObject } from "./moddle.js";
import { elementKind, foreignAttrs, genericChildren, stringProp } from "./moddle.js";
import { scopeReader } from "./namespace-check.js";

/** The engines whose implementation attributes are read, by their extension namespace. */
const ENGINES: ReadonlyMap<string, string> = new Map([
  ["http://camunda.org/schema/1.0/bpmn", "Camunda 7"],
  ["http://flowable.org/bpmn", "Flowable"],
  ["http://activiti.org/bpmn", "Activiti"],
]);

/** Camunda 7's name, as the reasons give it. */
export const CAMUNDA_7 = "Camunda 7";
/**
 * Stands for a namespace moddle renamed (`ns0:class`, when the document binds a prefix moddle
 * knows to another URI): its URI is lost, so the attribute is read as every engine's.
 */
export const UNRESOLVED = "";

/** The implementation attributes: what decides how the engine completes the task. */
const LOCALS: ReadonlySet<string> = new Set([
  "class",
  "expression",
  "delegateExpression",
  "type",
  "decisionRef",
  "triggerable",
  "skipExpression",
  "rules",
  "ruleVariablesInput",
]);

/** The assignment attributes of a user task: who the engine lets complete it. */
export const ASSIGNMENT_LOCALS: ReadonlySet<string> = new Set([
  "assignee",
  "candidateUsers",
  "candidateGroups",
]);

/** An implementation attribute of one engine, as written. */
export interface EngineAttribute {
  /** The engine's name, or {@link UNRESOLVED}. */
  readonly engine: string;
  readonly value: string;
  /** The attribute as the document writes it (`camunda:class`). */
  readonly written: string;
}

/** Resolves a prefix to the namespace URI the `xmlns` declarations in scope bind it to. */
export type PrefixResolver = (prefix: string, element: ModdleObject) => string | undefined;

/**
 * A {@link PrefixResolver} for one document: the `xmlns` declarations in scope, as
 * `namespace-check.ts` reads them (the nearest up the tree, memoized, so reading every element
 * stays linear).
 */
export function prefixResolver(): PrefixResolver {
  const scopes = scopeReader();
  return (prefix, element) => scopes.prefixUri(prefix, element);
}

/** A typed property of a registered engine package: its name on the element, its engine. */
interface TypedProperty {
  readonly name: string;
  readonly local: string;
  readonly written: string;
  readonly engine: string;
}

const TYPED = new WeakMap<object, readonly TypedProperty[]>();

/** Every engine property a registered moddle package gives the element's type (memoized). */
function typedProperties(element: ModdleObject): readonly TypedProperty[] {
  const descriptor = element.$descriptor as { readonly properties?: unknown } | undefined;
  const model = element.$model as { readonly getPackage?: (prefix: string) => unknown } | undefined;
  if (descriptor === undefined || !Array.isArray(descriptor.properties)) return [];
  const known = TYPED.get(descriptor);
  if (known !== undefined) return known;
  const out: TypedProperty[] = [];
  for (const p of descriptor.properties as unknown[]) {
    const { name, ns } = (p ?? {}) as {
      name?: unknown;
      ns?: { prefix?: unknown; localName?: unknown };
    };
    const prefix = ns?.prefix;
    const local = ns?.localName;
    if (typeof name !== "string" || typeof prefix !== "string" || typeof local !== "string")
      continue;
    if (typeof model?.getPackage !== "function") continue;
    const uri = (model.getPackage(prefix) as { readonly uri?: unknown } | undefined)?.uri;
    const engine = typeof uri === "string" ? ENGINES.get(uri) : undefined;
    if (engine !== undefined) out.push({ name, local, written: `${prefix}:${local}`, engine });
  }
  TYPED.set(descriptor, out);
  return out;
}

/**
 * The element's attributes of the local names `locals` (by default the implementation
 * attributes), typed or foreign, of every engine, by local name.
 */
export function engineAttributes(
  element: ModdleObject,
  resolve: PrefixResolver,
  locals: ReadonlySet<string> = LOCALS,
): ReadonlyMap<string, readonly EngineAttribute[]> {
  const out = new Map<string, EngineAttribute[]>();
  const add = (local: string, attribute: EngineAttribute): void => {
    const list = out.get(local);
    if (list === undefined) out.set(local, [attribute]);
    else list.push(attribute);
  };
  for (const p of typedProperties(element)) {
    if (!locals.has(p.local)) continue;
    const value = element[p.name];
    if (typeof value === "string" || typeof value === "boolean") {
      add(p.local, { engine: p.engine, value: String(value), written: p.written });
    }
  }
  const attrs = foreignAttrs(element);
  for (const key in attrs) {
    const colon = key.indexOf(":");
    const value = attrs[key];
    if (colon <= 0 || typeof value !== "string") continue;
    const prefix = key.slice(0, colon);
    const local = key.slice(colon + 1);
    if (prefix === "xmlns" || prefix === "xml" || !locals.has(local)) continue;
    const uri = resolve(prefix, element);
    const engine = uri === undefined ? UNRESOLVED : ENGINES.get(uri);
    if (engine !== undefined) add(local, { engine, value, written: key });
  }
  return out;
}

/** One engine's attribute of this local name (Flowable's before Activiti's, as Flowable reads). */
export function pick(
  attributes: ReadonlyMap<string, readonly EngineAttribute[]>,
  local: string,
  engines: readonly string[],
): EngineAttribute | undefined {
  const list = attributes.get(local) ?? [];
  for (const engine of engines) {
    const found = list.find((a) => a.engine === engine);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The Camunda 7 connector (`camunda:connector`) among the extension values: its id, or `""`. */
export function camundaConnector(values: readonly ModdleObject[]): string | undefined {
  for (const value of values) {
    const kind = elementKind(value);
    if (kind.local !== "connector" || ENGINES.get(kind.namespace ?? "") !== CAMUNDA_7) continue;
    const typed = stringProp(value, "connectorId");
    if (typed !== undefined) return typed.trim();
    const child = genericChildren(value).find((c) => elementKind(c).local === "connectorid");
    return (child === undefined ? undefined : stringProp(child, "$body"))?.trim() ?? "";
  }
  return undefined;
}
