/**
 * btv declarations agentflow would not read, found in one walk of the whole moddle tree. A
 * `btv:agentTask`, `btv:gate` or `btv:agentWorkflowSnapshot` is read only among the extension
 * elements of a flow node of a process: on the process, a pool, a lane, a sequence flow, a data
 * object, an event definition or inside another extension element it declares nothing. An
 * attribute in the btv namespace is read only where the btv package defines it: a misspelt one
 * (`btv:agentworkflowref`), one btv does not define, or `btv:agentWorkflowRef` on anything but an
 * activity is kept by moddle as an unknown attribute that nothing reads. Each would vanish
 * without a word, and a process with an agent pass as one with none (BTV_NAMESPACE_MISMATCH).
 */
import type { ModdleObject } from "./moddle.js";
import {
  BTV_URI,
  elementKind,
  foreignAttrs,
  idOf,
  instanceOf,
  isModdleObject,
  stringProp,
  typePrototype,
} from "./moddle.js";
import type { BtvElement, ScopeReader } from "./namespace-check.js";
import {
  BTV_CARRIED,
  BTV_ELEMENTS,
  btvElementSuggestion,
  closestSpelling,
} from "./namespace-check.js";
import { NodeFlag } from "./node-flags.js";

/**
 * Why a btv declaration is not read: a btv element where agentflow reads none (`misplaced`), or
 * of a name btv does not define, kept by a moddle without the btv package (`element`); an
 * attribute in the btv namespace btv does not define there (`attribute`); `btv:agentWorkflowRef`
 * or `btv:toolEffect` on an element that does not carry it (`attribute-misplaced`), or on one
 * that does, read by a moddle without the package (`attribute-unregistered`); a `btv:agentTask`
 * on a flow node that runs no agent (`no-agent-host`, found by analysis.ts).
 */
export type UnreadKind =
  | "misplaced"
  | "element"
  | "attribute"
  | "attribute-misplaced"
  | "attribute-unregistered"
  | "no-agent-host";

/** One btv declaration agentflow does not read, with what carries it. */
export interface UnreadDeclaration {
  readonly kind: UnreadKind;
  /** The id of the element that carries it, else of its nearest ancestor that has one. */
  readonly elementId: string;
  /** JSON Pointer from `bpmn:Definitions`: the btv element's, or its carrier's for an attribute. */
  readonly path: string;
  /** The btv element (`btv:agentTask`) or the attribute (`btv:agentworkflowref`), as written. */
  readonly name: string;
  /**
   * The type of what carries it (`bpmn:Lane`), followed by the type of the element the id is
   * of when that is another one (`bpmn:TimerEventDefinition in bpmn:StartEvent`).
   */
  readonly on: string;
  /** The name agentflow defines that it is closest to, when one is close. */
  readonly suggestion?: string;
}

const CARRIED_NAMES = [...new Set(BTV_CARRIED.map((c) => c.name))];

/**
 * The flow nodes that run no agent: a gateway routes; a start, boundary or intermediate catch
 * event waits. Throw and end events may: Camunda 8 runs a message throw event as a job.
 */
export const RUNS_NO_AGENT =
  NodeFlag.choiceGateway |
  NodeFlag.syncGateway |
  NodeFlag.startEvent |
  NodeFlag.boundaryEvent |
  NodeFlag.catchEvent;

/** Per moddle type: its btv element, its containment properties, the btv attributes it maps. */
interface TypeFacts {
  readonly btv: BtvElement | null | undefined;
  readonly children: readonly string[];
  readonly carries: readonly string[];
}

const FACTS = new WeakMap<object, TypeFacts>();
const GENERIC_CHILDREN: readonly string[] = ["$children"];
const NO_KEYS: readonly string[] = [];

/** A moddle property descriptor, as far as the walk reads it. */
interface Property {
  readonly name: string;
  readonly isAttr?: unknown;
  readonly isReference?: unknown;
}

/** `null` for an element in no btv namespace; `undefined` for a btv name btv does not define. */
function btvOf(element: ModdleObject): BtvElement | null | undefined {
  const kind = elementKind(element);
  return kind.namespace === BTV_URI ? BTV_ELEMENTS.get(kind.local) : null;
}

function typeFacts(element: ModdleObject, proto: object | undefined): TypeFacts {
  if (proto === undefined) return { btv: btvOf(element), children: GENERIC_CHILDREN, carries: [] };
  let facts = FACTS.get(proto);
  if (facts === undefined) {
    const all = (proto as { readonly $descriptor?: { readonly properties?: unknown } }).$descriptor
      ?.properties;
    const named = (Array.isArray(all) ? (all as Partial<Property>[]) : []).filter(
      (p): p is Property => typeof p.name === "string",
    );
    facts = {
      btv: btvOf(element),
      // References (`sourceRef`, `processRef`, DI's `bpmnElement`) point into the tree elsewhere.
      children: named.filter((p) => p.isAttr !== true && p.isReference !== true).map((p) => p.name),
      carries: named.filter((p) => CARRIED_NAMES.includes(p.name)).map((p) => p.name),
    };
    FACTS.set(proto, facts);
  }
  return facts;
}

/**
 * Every btv declaration of the tree that agentflow does not read, in document order. `flowNodes`
 * are the elements the analysis reads as flow nodes of a process; `scopes` says which prefixes
 * are bound to the btv namespace. Iterative, so the depth of the input sets no recursion depth;
 * ids and paths are read only for what is reported.
 */
export function unreadDeclarations(
  definitions: ModdleObject,
  flowNodes: ReadonlySet<object>,
  scopes: ScopeReader,
): UnreadDeclaration[] {
  const objects: ModdleObject[] = [definitions];
  const parents: number[] = [-1];
  const via: string[] = [""];
  const slots: number[] = [-1];
  const paths: (string | undefined)[] = [""];
  const idFrames: (number | undefined)[] = [];
  const out: UnreadDeclaration[] = [];

  /** The frame of the nearest element with an id, from `at` up; -1 for none. */
  const idFrameOf = (at: number): number => {
    const passed: number[] = [];
    let found = -1;
    for (let f = at; f >= 0; f = parents[f] ?? -1) {
      const known = idFrames[f];
      if (known !== undefined) {
        found = known;
        break;
      }
      passed.push(f);
      if (idOf(objects[f] ?? definitions) !== undefined) {
        found = f;
        break;
      }
    }
    for (const f of passed) idFrames[f] = found;
    return found;
  };
  const pathOf = (at: number): string => {
    const chain: number[] = [];
    let f = at;
    for (; paths[f] === undefined; f = parents[f] ?? 0) chain.push(f);
    let path = paths[f] ?? "";
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i] ?? 0;
      const slot = slots[c] ?? -1;
      path = `${path}/${via[c] ?? ""}${slot < 0 ? "" : `/${String(slot)}`}`;
      paths[c] = path;
    }
    return path;
  };
  const typeName = (element: ModdleObject): string => {
    const btv = typeFacts(element, typePrototype(element)).btv;
    return btv === null || btv === undefined ? element.$type : `btv:${btv.spelling}`;
  };
  /** Reports `name` at frame `at`, on the element of frame `carrier`. */
  const report = (kind: UnreadKind, at: number, carrier: number, name: string, hint?: string) => {
    const idFrame = idFrameOf(carrier);
    const held = objects[carrier] ?? definitions;
    const owner = objects[idFrame];
    const on =
      owner === undefined || idFrame === carrier
        ? typeName(held)
        : `${typeName(held)} in ${typeName(owner)}`;
    out.push({
      kind,
      elementId: owner === undefined ? "" : (idOf(owner) ?? ""),
      path: pathOf(at),
      name,
      on,
      ...(hint === undefined || hint === name ? {} : { suggestion: hint }),
    });
  };
  /** The element whose extension elements hold the frame, else its parent. */
  const carrierOf = (at: number): number => {
    const parent = parents[at] ?? -1;
    const container = via[parent];
    const extension = container === "extensionElements" || container === "extension";
    return via[at] === "values" && extension ? (parents[parent] ?? -1) : parent;
  };
  const isBtvPrefix = (prefix: string, element: ModdleObject): boolean => {
    const uri = scopes.prefixUri(prefix, element);
    // A moddle that knows btv writes its own prefix for the namespace, whatever the document's.
    return uri === BTV_URI || (uri === undefined && prefix === "btv");
  };
  /** The attributes moddle did not map: `$attrs`, or a generic element's own properties. */
  const attributesOf = (element: ModdleObject, typed: boolean): readonly string[] => {
    const attrs = typed ? foreignAttrs(element) : element;
    let keys: string[] | undefined;
    // Most elements have none: no array is made for them.
    for (const key in attrs) {
      if (key.startsWith("$") || key.startsWith("xmlns") || !Object.hasOwn(attrs, key)) continue;
      (keys ??= []).push(key);
    }
    return keys ?? NO_KEYS;
  };

  const btvElement = (at: number, element: ModdleObject, btv: BtvElement, typed: boolean) => {
    const carrier = carrierOf(at);
    const parent = parents[at] ?? -1;
    const read =
      via[at] === "values" &&
      via[parent] === "extensionElements" &&
      flowNodes.has(objects[parents[parent] ?? -1] ?? definitions);
    if (!read) report("misplaced", at, carrier, `btv:${btv.spelling}`);
    for (const key of attributesOf(element, typed)) {
      const colon = key.indexOf(":");
      if (colon >= 0 && !isBtvPrefix(key.slice(0, colon), element)) continue;
      const local = key.slice(colon + 1);
      // A generic btv element (no btv package) keeps its attributes as properties, read as such.
      if (!typed && colon < 0 && btv.attributes.includes(local)) continue;
      report("attribute", at, at, key, closestSpelling(local, btv.attributes));
    }
  };
  const otherElement = (at: number, element: ModdleObject, facts: TypeFacts, typed: boolean) => {
    const flowNode = flowNodes.has(element);
    if (!flowNode) {
      for (const name of facts.carries) {
        if (stringProp(element, name) !== undefined) {
          report("attribute-misplaced", at, at, `btv:${name}`);
        }
      }
    }
    for (const key of attributesOf(element, typed)) {
      const colon = key.indexOf(":");
      if (colon <= 0 || !isBtvPrefix(key.slice(0, colon), element)) continue;
      const local = key.slice(colon + 1);
      const carried = BTV_CARRIED.filter((c) => c.name === local);
      if (carried.length === 0) {
        const suggestion = closestSpelling(local, CARRIED_NAMES);
        report("attribute", at, at, key, suggestion && `btv:${suggestion}`);
      } else if (flowNode && carried.some((c) => instanceOf(element, c.on))) {
        report("attribute-unregistered", at, at, key);
      } else {
        report("attribute-misplaced", at, at, key);
      }
    }
  };

  const stack = [0];
  const push = (child: ModdleObject, parent: number, name: string, slot: number): void => {
    stack.push(objects.length);
    objects.push(child);
    parents.push(parent);
    via.push(name);
    slots.push(slot);
  };
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const element = objects[at];
    if (element === undefined) continue;
    const proto = typePrototype(element);
    const facts = typeFacts(element, proto);
    const typed = proto !== undefined;
    if (facts.btv === undefined) {
      // Only a moddle without the btv package keeps an unknown btv name: one with it drops it
      // (BPMN_PARSE).
      const suggestion = btvElementSuggestion(element.$type.slice(element.$type.indexOf(":") + 1));
      const spelt = suggestion === undefined ? undefined : `btv:${suggestion}`;
      report("element", at, carrierOf(at), element.$type, spelt);
    } else if (facts.btv === null) otherElement(at, element, facts, typed);
    else btvElement(at, element, facts.btv, typed);
    // Children last-first onto the stack, so that they come off it in document order.
    for (let n = facts.children.length - 1; n >= 0; n--) {
      const name = facts.children[n] ?? "";
      const value = element[name];
      if (value === undefined) continue;
      if (!Array.isArray(value)) {
        if (isModdleObject(value)) push(value, at, name, -1);
        continue;
      }
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (isModdleObject(child)) push(child, at, name, i);
      }
    }
  }
  return out;
}
