/**
 * The type facts the gate check needs of a flow element, as bit flags. moddle's own type check
 * (`$instanceOf`) walks the type hierarchy, and reading `$type` is a getter call on a
 * dictionary-mode object, so the flags are computed once per type and found by the element's
 * prototype, which every element of a moddle type shares.
 */
import type { ModdleObject } from "./moddle.js";
import { instanceOf, typePrototype } from "./moddle.js";

/** Type flags of a flow node, computed once per type (moddle's type check is costly). */
export const NodeFlag = {
  flowNode: 1,
  sequenceFlow: 2,
  subProcess: 4,
  adHoc: 8,
  startEvent: 16,
  boundaryEvent: 32,
  catchEvent: 64,
  throwEvent: 128,
  activity: 256,
  endEvent: 512,
  /** An exclusive or event-based gateway: its outgoing flows are alternatives. */
  choiceGateway: 1024,
  /** A parallel, inclusive or complex gateway: with several incoming flows it waits for them. */
  syncGateway: 2048,
  callActivity: 4096,
  /**
   * A complex gateway: as a join it fires when its activation condition holds (BPMN 2.0.2,
   * 13.4.5), which may be before every branch has come, so it closes no split.
   */
  complexGateway: 8192,
  /**
   * An inclusive gateway: as a join it fires once no token can still reach a flow without one
   * (BPMN 2.0.2, 13.4.3), so it waits only for the branches that can still come.
   */
  inclusiveGateway: 16384,
} as const;

const FLAG_TYPES: readonly (readonly [number, string])[] = [
  [NodeFlag.flowNode, "bpmn:FlowNode"],
  [NodeFlag.sequenceFlow, "bpmn:SequenceFlow"],
  [NodeFlag.subProcess, "bpmn:SubProcess"],
  [NodeFlag.adHoc, "bpmn:AdHocSubProcess"],
  [NodeFlag.startEvent, "bpmn:StartEvent"],
  [NodeFlag.boundaryEvent, "bpmn:BoundaryEvent"],
  [NodeFlag.catchEvent, "bpmn:IntermediateCatchEvent"],
  [NodeFlag.throwEvent, "bpmn:IntermediateThrowEvent"],
  [NodeFlag.activity, "bpmn:Activity"],
  [NodeFlag.endEvent, "bpmn:EndEvent"],
  [NodeFlag.choiceGateway, "bpmn:ExclusiveGateway"],
  [NodeFlag.choiceGateway, "bpmn:EventBasedGateway"],
  [NodeFlag.syncGateway, "bpmn:ParallelGateway"],
  [NodeFlag.syncGateway, "bpmn:InclusiveGateway"],
  [NodeFlag.syncGateway, "bpmn:ComplexGateway"],
  [NodeFlag.complexGateway, "bpmn:ComplexGateway"],
  [NodeFlag.inclusiveGateway, "bpmn:InclusiveGateway"],
  [NodeFlag.callActivity, "bpmn:CallActivity"],
];

/** Flags by moddle type prototype: a type's hierarchy is fixed, so this outlives one walk. */
const FLAGS_BY_PROTOTYPE = new WeakMap<object, number>();

function typeFlags(element: ModdleObject): number {
  let flags = 0;
  for (const [flag, name] of FLAG_TYPES) if (instanceOf(element, name)) flags |= flag;
  return flags;
}

/**
 * The flags of an element's type, or -1 for anything without a string `$type`. Typed elements
 * are keyed by prototype; generic ones by `$type`, in a cache that lives for one walk.
 */
export function flagsOf(raw: unknown, byType: Map<string, number>): number {
  if (typeof raw !== "object" || raw === null) return -1;
  // One lookup in the common case: a prototype found here is a moddle type's.
  const known = FLAGS_BY_PROTOTYPE.get(Object.getPrototypeOf(raw) as object);
  if (known !== undefined) return known;
  const proto = typePrototype(raw);
  if (proto !== undefined) {
    const flags = typeFlags(raw as ModdleObject);
    FLAGS_BY_PROTOTYPE.set(proto, flags);
    return flags;
  }
  const type = (raw as { readonly $type?: unknown }).$type;
  if (typeof type !== "string") return -1;
  let flags = byType.get(type);
  if (flags === undefined) {
    flags = typeFlags(raw as ModdleObject);
    byType.set(type, flags);
  }
  return flags;
}
