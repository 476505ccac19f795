/**
 * What some string facts hold beyond "a string", so that a literal they can never equal is
 * refused when the pack compiles, with what to write instead: the BPMN element types as
 * bpmn-moddle names them, a tool's id without its contract's `tool:` prefix, refs and versions
 * in their canonical form. A pack copies these from a BPMN file, a contract or a workflow, where
 * they are written otherwise (`bpmn:serviceTask`, `tool:send-loan-offer`, `tool:x@1`).
 */
import { parseRef, parseVersion } from "../model/index.js";

/** Why a literal is never a value of a fact (`why`), and what to write instead. */
export interface LiteralRefusal {
  readonly why: string;
  readonly instead: string;
}

/** Why a string literal is never a value of a fact; undefined when it may be one. */
export type LiteralCheck = (value: string) => LiteralRefusal | undefined;

/**
 * Every concrete flow node type of bpmn-moddle (`$type`, subtypes of `bpmn:FlowNode`): what an
 * agent task's `element.type` holds, since any flow node can carry an agent (one that runs none
 * is still judged). The moddle extensions agentflow reads (btv, zeebe, camunda) define no flow
 * node; test/policy/element-types.test.ts holds this list to bpmn-moddle's schema.
 */
export const BPMN_FLOW_NODE_TYPES: readonly string[] = Object.freeze([
  "bpmn:Task",
  "bpmn:ServiceTask",
  "bpmn:SendTask",
  "bpmn:ReceiveTask",
  "bpmn:UserTask",
  "bpmn:ManualTask",
  "bpmn:BusinessRuleTask",
  "bpmn:ScriptTask",
  "bpmn:CallActivity",
  "bpmn:SubProcess",
  "bpmn:AdHocSubProcess",
  "bpmn:Transaction",
  "bpmn:StartEvent",
  "bpmn:EndEvent",
  "bpmn:IntermediateCatchEvent",
  "bpmn:IntermediateThrowEvent",
  "bpmn:BoundaryEvent",
  "bpmn:ImplicitThrowEvent",
  "bpmn:ExclusiveGateway",
  "bpmn:InclusiveGateway",
  "bpmn:ParallelGateway",
  "bpmn:EventBasedGateway",
  "bpmn:ComplexGateway",
  "bpmn:ChoreographyTask",
  "bpmn:CallChoreography",
  "bpmn:SubChoreography",
]);

/** A value folded for "did you mean": case, `-`, `_` and spaces aside. */
const folded = (value: string): string => value.toLowerCase().replace(/[-_\s]/g, "");

/** The part after a namespace prefix (`bpmn:serviceTask` → `serviceTask`). */
const local = (value: string): string => value.slice(value.indexOf(":") + 1);

/**
 * The value of an enumerated fact a literal that is none of them was most likely meant to be:
 * the one equal to it but for case, `-`, `_` and spaces (`"bpmn:serviceTask"`,
 * `"external_commitment"`), or without its prefix (`"ServiceTask"`); undefined when none is.
 */
export function meant(
  values: readonly (string | number)[],
  literal: string | number,
): string | undefined {
  if (typeof literal !== "string") return undefined;
  const strings = values.filter((v): v is string => typeof v === "string");
  const whole = strings.filter((v) => folded(v) === folded(literal));
  if (whole.length === 1) return whole[0];
  const bare = strings.filter((v) => folded(local(v)) === folded(local(literal)));
  return bare.length === 1 ? bare[0] : undefined;
}

/**
 * A tool's `id`: its contract's id without the `tool:` it starts with (facts.ts `ToolFacts`),
 * or a Camunda tool's element id, which has no `:`; a literal copied from a contract
 * (`"tool:send-loan-offer"`) is never one.
 */
export const toolId: LiteralCheck = (value) =>
  value.startsWith("tool:")
    ? {
        why: `a tool's id is its contract's id without the "tool:" it starts with`,
        instead: `write ${JSON.stringify(value.slice("tool:".length))}, or compare 'ref'`,
      }
    : undefined;

/**
 * A ref that was read (a tool's, an agent task's `agentWorkflowRef`): its canonical form, with
 * its version in full; a literal with an abbreviated version (`"tool:x@1"`) is never one.
 */
export const canonicalRef: LiteralCheck = (value) => {
  const parsed = parseRef(value);
  return parsed.ok && parsed.abbreviated
    ? {
        why: "a ref is held with its version in full",
        instead: `write ${JSON.stringify(parsed.canonical)}`,
      }
    : undefined;
};

/** A version that was read: in full (`1.0.0`); a literal abbreviated (`"1.0"`) is never one. */
export const fullVersion: LiteralCheck = (value) => {
  const parsed = parseVersion(value);
  return parsed.ok && parsed.abbreviated
    ? { why: "a version is held in full", instead: `write ${JSON.stringify(parsed.version)}` }
    : undefined;
};
