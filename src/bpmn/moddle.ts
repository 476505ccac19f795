/**
 * The typed face of bpmn-moddle: every moddle object agentflow reads is a {@link ModdleObject}
 * and every property is read through these accessors, which check the runtime type. Nothing
 * else in agentflow touches moddle's untyped objects.
 */
import { BpmnModdle } from "bpmn-moddle";
import { BTV_DESCRIPTOR as btv } from "./resources/btv.js";

/** A moddle element: a `$type` and properties of unknown type, read with the accessors below. */
export interface ModdleObject {
  readonly $type: string;
  readonly [key: string]: unknown;
}

/** The XML namespace of agentflow's `btv` extension. */
export const BTV_URI: string = btv.uri;

/** The moddle package descriptor of the `btv` extension (`agentflow/bpmn/resources/btv.json`). */
export const BTV_PACKAGE: Readonly<Record<string, unknown>> = btv;

/** Extra moddle packages (e.g. `{ zeebe }`) registered next to `btv`. */
export type ModdleExtensions = Readonly<Record<string, unknown>>;

/** The part of a bpmn-moddle instance agentflow uses (bpmn-moddle ships no types of its own). */
export interface BpmnModdleInstance {
  /** Parses XML; resolves with the root element and moddle's warnings, rejects on unreadable XML. */
  fromXML(
    xml: string,
    typeName?: string,
  ): Promise<{ readonly rootElement: unknown; readonly warnings: readonly unknown[] }>;
  /** Serialises an element tree back to XML. */
  toXML(
    element: unknown,
    options?: { readonly format?: boolean },
  ): Promise<{ readonly xml: string }>;
}

/**
 * A bpmn-moddle instance with the `btv` extension registered.
 *
 * @example
 * ```ts
 * import { createModdle } from "agentflow/bpmn";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const moddle = createModdle(); // bpmn-moddle with the btv extension registered
 * const { rootElement, warnings } = await moddle.fromXML(xml);
 * warnings; // → []
 * const { xml: written } = await moddle.toXML(rootElement, { format: true });
 * written.includes('<btv:gate approverRole="analyst" />'); // → true
 * ```
 */
export function createModdle(extensions: ModdleExtensions = {}): BpmnModdleInstance {
  return new BpmnModdle({ ...extensions, btv });
}

const NO_EXTENSIONS: ModdleExtensions = {};
const shared = new WeakMap<ModdleExtensions, BpmnModdleInstance>();

/**
 * One bpmn-moddle instance per extensions object, for reading and writing. Registering the
 * packages is a fifth of reading a small process, and an instance keeps no state between
 * documents: each `fromXML` makes its own reader, and the type cache holds only registered types.
 */
export function sharedModdle(extensions: ModdleExtensions = NO_EXTENSIONS): BpmnModdleInstance {
  let moddle = shared.get(extensions);
  if (moddle === undefined) {
    moddle = createModdle(extensions);
    shared.set(extensions, moddle);
  }
  return moddle;
}

/**
 * The namespace URIs `moddle` has a package for: where it reads an unprefixed attribute as the
 * element's own property (duplicate-attributes.ts). The registry is moddle's, read at the thin
 * boundary; `undefined` when it cannot be read, so that every namespace is judged (the stricter
 * reading), not none.
 */
export function moddleNamespaces(moddle: BpmnModdleInstance): ReadonlySet<string> | undefined {
  const registry = (moddle as unknown as { registry?: { packages?: unknown } }).registry;
  if (!Array.isArray(registry?.packages)) return undefined;
  const uris = new Set<string>();
  for (const p of registry.packages as unknown[]) {
    const uri: unknown = (p as { uri?: unknown } | null)?.uri;
    if (typeof uri !== "string") return undefined;
    uris.add(uri);
  }
  return uris;
}

/**
 * Which prototypes are a moddle type's: bpmn-moddle builds one per type, carrying `$descriptor`
 * and `$model`, and its constructor defines `$type`, `$attrs` and `$parent` on every instance as
 * accessors with closures of their own. That leaves the instances in dictionary mode: a `$type`
 * read is a hash probe and a getter call, a cache miss or more each on a large tree. The
 * prototype is one pointer from the instance and shared by the whole type, so it is the cheap key
 * for the facts of the type.
 */
const TYPED_PROTOTYPES = new WeakMap<object, boolean>();

/**
 * The prototype of a typed moddle element, shared by every element of its type; `undefined` for
 * generic elements and plain objects. Only moddle's constructor makes objects of that prototype,
 * so such an object has the type's `$type`.
 */
export function typePrototype(value: object): object | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (typeof proto !== "object" || proto === null) return undefined;
  let typed = TYPED_PROTOTYPES.get(proto);
  if (typed === undefined) {
    typed = Object.hasOwn(proto, "$descriptor") && Object.hasOwn(proto, "$model");
    TYPED_PROTOTYPES.set(proto, typed);
  }
  return typed ? proto : undefined;
}

/** True for a moddle object (anything with a string `$type`). */
export function isModdleObject(value: unknown): value is ModdleObject {
  if (typeof value !== "object" || value === null) return false;
  // A typed element's `$type` is a string by construction; reading it is the costly part.
  return (
    typePrototype(value) !== undefined ||
    typeof (value as { readonly $type?: unknown }).$type === "string"
  );
}

/** A string property, or `undefined` when absent or of another type. */
export function stringProp(element: ModdleObject, name: string): string | undefined {
  const value = element[name];
  return typeof value === "string" ? value : undefined;
}

/** A boolean property; `false` when absent. */
export function boolProp(element: ModdleObject, name: string): boolean {
  return element[name] === true;
}

/** A reference or containment property holding one element. */
export function objectProp(element: ModdleObject, name: string): ModdleObject | undefined {
  const value = element[name];
  return isModdleObject(value) ? value : undefined;
}

/** Shared empty result: most elements have no such list, and an allocation each costs GC time. */
const NONE: readonly ModdleObject[] = Object.freeze([]);

/** A many-valued property, keeping only the moddle objects. */
export function listProp(element: ModdleObject, name: string): readonly ModdleObject[] {
  const value = element[name];
  if (!Array.isArray(value) || value.length === 0) return NONE;
  return value.every(isModdleObject) ? value : value.filter(isModdleObject);
}

/** The element's id, if it has a string one. */
export function idOf(element: ModdleObject): string | undefined {
  return stringProp(element, "id");
}

/**
 * Moddle's own `$instanceOf` (it knows the type hierarchy); false for generic elements.
 *
 * @example
 * ```ts
 * import { checkProcess, instanceOf } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review" />
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * // every user task is an approval gate, whether it carries <btv:gate/> or not
 * const decision = await checkProcess(xml, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 *   isGate: (element) => instanceOf(element, "bpmn:UserTask"),
 * });
 * decision.allowed; // → true
 * ```
 */
export function instanceOf(element: ModdleObject, type: string): boolean {
  const test = element.$instanceOf;
  return (
    typeof test === "function" && (test as (t: string) => unknown).call(element, type) === true
  );
}

/** The element's `$attrs` (attributes moddle did not map, e.g. of an unregistered namespace). */
export function foreignAttrs(element: ModdleObject): Readonly<Record<string, unknown>> {
  const attrs = element.$attrs;
  return typeof attrs === "object" && attrs !== null ? (attrs as Record<string, unknown>) : {};
}

/** The local name of an element's type (`btv:agentTask` and `btv:AgentTask` give `agenttask`). */
export function localTypeName(element: ModdleObject): string {
  const colon = element.$type.indexOf(":");
  return element.$type.slice(colon + 1).toLowerCase();
}

interface NsDescriptor {
  readonly prefix?: unknown;
  readonly uri?: unknown;
}

/**
 * The namespace URI of an element's type. Generic elements (of a package moddle does not know)
 * carry it on their descriptor; typed ones through their package, found by prefix.
 */
export function namespaceOf(element: ModdleObject): string | undefined {
  const descriptor = element.$descriptor as { readonly ns?: NsDescriptor } | undefined;
  const ns = descriptor?.ns;
  if (typeof ns?.uri === "string") return ns.uri;
  const model = element.$model as { getPackage?: (p: string) => unknown } | undefined;
  if (typeof ns?.prefix !== "string" || typeof model?.getPackage !== "function") return undefined;
  const pkg = model.getPackage(ns.prefix) as { readonly uri?: unknown } | undefined;
  return typeof pkg?.uri === "string" ? pkg.uri : undefined;
}

/** An element's type as agentflow compares it: its {@link localTypeName} and {@link namespaceOf}. */
export interface ElementKind {
  readonly local: string;
  readonly namespace: string | undefined;
}

const KINDS = new WeakMap<object, ElementKind>();

/**
 * The {@link ElementKind} of an element, computed once per moddle type (the local name and the
 * namespace are the type's) and per call for generic elements.
 */
export function elementKind(element: ModdleObject): ElementKind {
  const proto = typePrototype(element);
  let kind = proto === undefined ? undefined : KINDS.get(proto);
  if (kind === undefined) {
    kind = { local: localTypeName(element), namespace: namespaceOf(element) };
    if (proto !== undefined) KINDS.set(proto, kind);
  }
  return kind;
}

/** The values of an element's `bpmn:extensionElements`. */
export function extensionValues(element: ModdleObject): readonly ModdleObject[] {
  const ext = objectProp(element, "extensionElements");
  return ext === undefined ? NONE : listProp(ext, "values");
}

/** The generic children of an element moddle did not type (`$children`), else `[]`. */
export function genericChildren(element: ModdleObject): readonly ModdleObject[] {
  return listProp(element, "$children");
}
