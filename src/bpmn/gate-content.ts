/**
 * Whether everyone who passes a sub-process (or a called process) must wait for someone outside
 * the engine: whether every path from its start to its completion passes an element that waits.
 * Holding such an element is not enough: a user task no flow reaches, or one an exclusive
 * gateway's default flow goes round, or one an ad-hoc sub-process never activates leaves the
 * sub-process to complete with nobody deciding.
 *
 * A path is a path of the container's own flow, read as the gate rules read the process
 * (docs/gate-paths.md): it follows one branch of a parallel split; it goes on along a waiting
 * element's interrupting boundary events (they cancel it unpassed) but past the element only
 * once it completes; a non-interrupting boundary event of a waiting element leaves it pending,
 * and from there only a terminate end event completes the container without it. An error end
 * event never completes its container; any other element without an outgoing flow (or link)
 * does. An interrupting event sub-process whose content does not wait completes the container
 * too. What an element is (waiting, passing, or a container to read) is the caller's reading.
 *
 * Iterative: the containers nested inside are read first, each once, and each with one
 * breadth-first search over its own elements and flows, so the whole is linear in what the
 * sub-process holds, at any depth.
 */
import { feelStringList } from "./camunda/feel-context.js";
import { zeebeValue } from "./camunda/zeebe.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, idOf, instanceOf, listProp, objectProp, stringProp } from "./moddle.js";
import { linkName } from "./process-index.js";

/**
 * How the search reads a flow node: it `waits` for someone outside the engine, it `passes` (the
 * engine completes it by itself), or it `opens` a container whose own content decides.
 */
export type ContentKind = "waits" | "passes" | "opens";

/** The caller's reading of one flow node. */
export type ContentClassifier = (element: ModdleObject) => ContentKind;

const hasDefinition = (element: ModdleObject, type: string): boolean =>
  listProp(element, "eventDefinitions").some((d) => instanceOf(d, type));

const isEventSubProcess = (element: ModdleObject): boolean =>
  instanceOf(element, "bpmn:SubProcess") && element.triggeredByEvent === true;

/** A boundary event that cancels its host: `cancelActivity` absent or true; an error always. */
const interrupting = (boundary: ModdleObject): boolean =>
  boundary.cancelActivity !== false || hasDefinition(boundary, "bpmn:ErrorEventDefinition");

/** One container's normal flow, read once. */
interface Scope {
  readonly nodes: readonly ModdleObject[];
  /** Sequence flows and links, from a node to the nodes they enter. */
  readonly next: ReadonlyMap<ModdleObject, readonly ModdleObject[]>;
  readonly entered: ReadonlySet<ModdleObject>;
  /** A host's boundary events, compensation ones left out (they are not the normal flow). */
  readonly boundaries: ReadonlyMap<ModdleObject, readonly ModdleObject[]>;
  readonly eventSubs: readonly ModdleObject[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function readScope(container: ModdleObject): Scope {
  const items = listProp(container, "flowElements");
  const nodes: ModdleObject[] = [];
  const eventSubs: ModdleObject[] = [];
  for (const item of items) {
    if (!instanceOf(item, "bpmn:FlowNode") || item.isForCompensation === true) continue;
    if (isEventSubProcess(item)) eventSubs.push(item);
    else nodes.push(item);
  }
  const inScope = new Set(nodes);
  const next = new Map<ModdleObject, ModdleObject[]>();
  const entered = new Set<ModdleObject>();
  for (const item of items) {
    if (!instanceOf(item, "bpmn:SequenceFlow")) continue;
    const source = objectProp(item, "sourceRef");
    const target = objectProp(item, "targetRef");
    if (source === undefined || target === undefined) continue;
    if (!inScope.has(source) || !inScope.has(target)) continue;
    push(next, source, target);
    entered.add(target);
  }
  const boundaries = new Map<ModdleObject, ModdleObject[]>();
  const catches = new Map<string, ModdleObject[]>();
  for (const node of nodes) {
    if (instanceOf(node, "bpmn:BoundaryEvent")) {
      const host = objectProp(node, "attachedToRef");
      if (host !== undefined && !hasDefinition(node, "bpmn:CompensateEventDefinition"))
        push(boundaries, host, node);
    }
    const name = instanceOf(node, "bpmn:CatchEvent") ? linkName(node) : undefined;
    if (name !== undefined) push(catches, name, node);
  }
  for (const node of nodes) {
    const name = instanceOf(node, "bpmn:ThrowEvent") ? linkName(node) : undefined;
    for (const target of name === undefined ? [] : (catches.get(name) ?? [])) {
      push(next, node, target);
    }
  }
  return { nodes, next, entered, boundaries, eventSubs };
}

/** The ids a static `activeElementsCollection` (a FEEL list of string literals) names. */
function staticCollection(container: ModdleObject): readonly string[] | undefined {
  const adHoc = zeebeValue(extensionValues(container), "adhoc");
  const raw = adHoc === undefined ? undefined : stringProp(adHoc, "activeElementsCollection");
  const text = raw?.trim() ?? "";
  return text.startsWith("=") ? feelStringList(text.slice(1)) : undefined;
}

/** Zeebe activates only the children of an ad-hoc sub-process that no flow enters. */
function activatable(scope: Scope, node: ModdleObject): boolean {
  if (scope.entered.has(node)) return false;
  return !["bpmn:StartEvent", "bpmn:EndEvent", "bpmn:BoundaryEvent"].some((t) =>
    instanceOf(node, t),
  );
}

/**
 * Where the container's paths start. A sub-process or process: its start events, else (as the
 * process graph enters it) its nodes no flow enters. An ad-hoc sub-process: the elements a static
 * `activeElementsCollection` (a FEEL list of string literals) names; with none, or an empty one,
 * Zeebe activates nothing and a client may activate any element it can, so each is a start.
 */
function entries(container: ModdleObject, scope: Scope): ModdleObject[] {
  if (instanceOf(container, "bpmn:AdHocSubProcess")) {
    const named = new Set(staticCollection(container) ?? []);
    const all = scope.nodes.filter((n) => activatable(scope, n));
    return named.size === 0 ? all : all.filter((n) => named.has(idOf(n) ?? ""));
  }
  const starts = scope.nodes.filter((n) => instanceOf(n, "bpmn:StartEvent"));
  if (starts.length > 0) return starts;
  return scope.nodes.filter((n) => !scope.entered.has(n) && !instanceOf(n, "bpmn:BoundaryEvent"));
}

/**
 * An ad-hoc sub-process whose completion condition cancels what is still active
 * (`cancelRemainingInstances`, true unless written false): it may complete after any element.
 */
const completesEarly = (container: ModdleObject): boolean =>
  instanceOf(container, "bpmn:AdHocSubProcess") &&
  objectProp(container, "completionCondition") !== undefined &&
  container.cancelRemainingInstances !== false;

const isTerminate = (node: ModdleObject): boolean =>
  instanceOf(node, "bpmn:EndEvent") && hasDefinition(node, "bpmn:TerminateEventDefinition");

/**
 * Whether every path through `container` passes a waiting element, given what its nested
 * containers were found to be (`known`).
 */
function searchContainer(
  container: ModdleObject,
  classify: ContentClassifier,
  known: ReadonlyMap<ModdleObject, boolean>,
): boolean {
  const scope = readScope(container);
  const kind = (node: ModdleObject): "waits" | "passes" => {
    const read = classify(node);
    if (read !== "opens") return read;
    return known.get(node) === true ? "waits" : "passes";
  };
  for (const sub of scope.eventSubs) {
    const starts = listProp(sub, "flowElements").filter((e) => instanceOf(e, "bpmn:StartEvent"));
    const cancels = starts.some((s) => s.isInterrupting !== false);
    // An interrupting event sub-process ends the container when its own content completes.
    if (cancels && kind(sub) === "passes") return false;
  }
  const early = completesEarly(container);
  const starts = entries(container, scope);
  if (starts.length === 0) return false;
  // A state is a node, and whether a waiting element is still pending beside it (reached by a
  // non-interrupting boundary event of one): then only a terminate completes the container.
  const seen = [new Set<ModdleObject>(), new Set<ModdleObject>()];
  const queue: [ModdleObject, 0 | 1][] = [];
  const visit = (node: ModdleObject, pending: 0 | 1): void => {
    const states = seen[pending];
    if (states === undefined || states.has(node)) return;
    states.add(node);
    queue.push([node, pending]);
  };
  for (const start of starts) visit(start, 0);
  // A for-of over an array also visits what is pushed while it runs: the queue grows as it goes.
  for (const [node, pending] of queue) {
    const boundaries = scope.boundaries.get(node) ?? [];
    if (kind(node) === "waits") {
      for (const b of boundaries) visit(b, interrupting(b) ? pending : 1);
      continue;
    }
    const onward = scope.next.get(node) ?? [];
    const ends =
      pending === 1
        ? isTerminate(node)
        : early ||
          (onward.length === 0 &&
            !(
              instanceOf(node, "bpmn:EndEvent") && hasDefinition(node, "bpmn:ErrorEventDefinition")
            ));
    if (ends) return false;
    for (const target of onward) visit(target, pending);
    for (const b of boundaries) visit(b, pending);
  }
  return true;
}

/**
 * Whether every path from the start of `root` (a sub-process, an ad-hoc sub-process or a
 * process) to its completion passes an element `classify` reads as waiting. `cache` keeps what
 * each container was found to be, for a caller that asks of several containers of one tree.
 */
export function everyPathWaits(
  root: ModdleObject,
  classify: ContentClassifier,
  cache = new Map<ModdleObject, boolean>(),
): boolean {
  const cached = cache.get(root);
  if (cached !== undefined) return cached;
  // Pre-order, so that each container comes after the one that holds it; read in reverse.
  const order: ModdleObject[] = [];
  const stack = [root];
  for (let container = stack.pop(); container !== undefined; container = stack.pop()) {
    order.push(container);
    for (const item of listProp(container, "flowElements")) {
      if (!instanceOf(item, "bpmn:SubProcess") || cache.has(item)) continue;
      if (classify(item) === "opens") stack.push(item);
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const container = order[i];
    if (container === undefined || cache.has(container)) continue;
    cache.set(container, searchContainer(container, classify, cache));
  }
  return cache.get(root) === true;
}
