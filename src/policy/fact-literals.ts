/**
 * What some string facts hold beyond "a string", so that a literal they can never equal is
 * refused when the pack compiles, with what to write instead: the BPMN element types as
 * bpmn-moddle names them, a tool's id (never an `id@version`), versions in full. A pack copies
 * these from a BPMN file, a contract or a workflow, where they are written otherwise
 * (`bpmn:serviceTask`, `tool:send-loan-offer@1.1`, `1.2`). Only a literal no value of the fact
 * can equal is refused: each check below says what sets the fact, and what that can hold.
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
 * A tool's `id` (facts.ts `ToolFacts`) is, for every tool a workflow can run, its ref's id without
 * the `tool:` it starts with (validate/view.ts `toolFacts`: `send-loan-offer`), or a Camunda tool's
 * element id (bpmn/view/runs.ts). A literal that starts with `tool:` or parses as `id@version` is
 * the contract's id or its ref, copied where the fact's id was meant: compared with `id`, it
 * never matches such a tool, and a rule meant to catch it would pass it silently, so it is
 * refused. The only tools whose `id` could hold it are a ref that cannot be parsed (its workflow
 * is invalid, an error of its own; its `ref` holds the same text) and a BPMN element whose id
 * starts with `tool:` (matched by its job type, its `ref`).
 */
export const toolId: LiteralCheck = (value) => {
  const parsed = parseRef(value);
  if (!parsed.ok && !value.startsWith("tool:")) return undefined;
  const id = (parsed.ok ? parsed.ref.id : value).replace(/^tool:/, "");
  return {
    why: parsed.ok
      ? "a tool's id is never an id@version (that is its ref)"
      : "a tool's id is its ref's id without 'tool:'",
    instead: `write ${JSON.stringify(id)}, or compare 'ref'`,
  };
};

/**
 * An agent task's `ref`, its `agentWorkflowRef` (bpmn/view/process-view.ts): the canonical form
 * when it parses, else its text (which never parses), or a task's declarations joined by " | "
 * (which never parses); so a literal with an abbreviated version (`"agnt-offer@2"`) is never one.
 * A tool's `ref` has no such check: a Camunda tool's is its job type as written, any text
 * (`mail@2`, even `tool:x@1`).
 */
export const agentWorkflowRef: LiteralCheck = (value) => {
  const parsed = parseRef(value);
  return parsed.ok && parsed.abbreviated
    ? {
        why: "an agent task's ref is held with its version in full",
        instead: `write ${JSON.stringify(parsed.canonical)}`,
      }
    : undefined;
};

/**
 * The check of the `ref` type fact-types.ts gives both a tool and an agent task: it refuses
 * nothing, since a tool's `ref` may be any text (a Camunda job type). Until an agent task's
 * `ref` has a type of its own, checked by {@link agentWorkflowRef}, a short ref compared with it
 * compiles.
 */
export const canonicalRef: LiteralCheck = () => undefined;

/**
 * A version that was read: a btv tool ref's (in full, or null), a workflow's (its document's
 * `version` in full, as parsing normalises it); a literal abbreviated (`"1.2"`) is never one.
 */
export const fullVersion: LiteralCheck = (value) => {
  const parsed = parseVersion(value);
  return parsed.ok && parsed.abbreviated
    ? { why: "a version is held in full", instead: `write ${JSON.stringify(parsed.version)}` }
    : undefined;
};
