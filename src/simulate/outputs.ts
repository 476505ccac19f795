/**
 * Output checks (SPEC 2.4, 5): a node's output against its declared `outputSchema` (a violation
 * stops the run at the node), the final merged output against the workflow's (a violation is a
 * finding beside the completed run). Each names the first offending field, in Ajv's order.
 */
import type { ErrorObject } from "ajv";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { Diagnostic } from "../model/index.js";
import { pointer, pointerTokens, WORKFLOW_TARGET } from "../model/index.js";
import { outputValidator, type Plan } from "./plan.js";
import type { JsonObject } from "./types.js";

/** Why an output is refused. */
export interface OutputProblem {
  readonly cell: "execution" | "output-schema";
  readonly reason: string;
  /** The offending field as a dotted path (`sources.0`); absent when the whole output is wrong. */
  readonly field?: string;
  /** The offending field as a JSON Pointer into the output (`/sources/0`; `""`: the whole output). */
  readonly pointer: string;
}

/** A plain JSON-like object: what a node must output. */
export function isOutputObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: ErrorObject, what: string): OutputProblem {
  const params = error.params as Readonly<Record<string, unknown>>;
  const tokens = pointerTokens(error.instancePath);
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    const at = [...tokens, params.missingProperty];
    const field = at.join(".");
    const reason = `${what}: field "${field}" is missing`;
    return { cell: "output-schema", field, pointer: pointer(...at), reason };
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    const at = [...tokens, params.additionalProperty];
    const field = at.join(".");
    const reason = `${what}: field "${field}" is not declared in the schema`;
    return { cell: "output-schema", field, pointer: pointer(...at), reason };
  }
  const message = error.message ?? `fails ${error.keyword}`;
  if (tokens.length === 0)
    return { cell: "output-schema", pointer: "", reason: `${what}: ${message}` };
  const field = tokens.join(".");
  const reason = `${what}: field "${field}" ${message}`;
  return { cell: "output-schema", field, pointer: pointer(...tokens), reason };
}

function firstError(
  validate: ValidateFunction,
  value: JsonObject,
  keep: (e: ErrorObject) => boolean,
): ErrorObject | undefined {
  if (validate(value)) return undefined;
  return (validate.errors ?? []).find(keep);
}

/** Why node `k`'s output is refused, if it is. */
export function outputProblem(plan: Plan, k: number, output: unknown): OutputProblem | undefined {
  const nodeId = plan.ids[k] ?? "";
  if (!isOutputObject(output)) {
    return { cell: "execution", pointer: "", reason: `"${nodeId}" returned a non-object output` };
  }
  const validate = outputValidator(plan, k);
  if (validate === undefined) return undefined;
  const error = firstError(validate, output, () => true);
  return error === undefined
    ? undefined
    : describe(error, `the output of "${nodeId}" violates its outputSchema`);
}

/**
 * Why the final merged output is refused, if it is. Top-level undeclared fields are allowed: the
 * merged output carries every node's intermediate fields by construction (a planner's `query`),
 * and the workflow's `outputSchema` says what it returns, not what it may not have computed.
 */
export function finalProblem(plan: Plan, merged: JsonObject): OutputProblem | undefined {
  const error = firstError(
    plan.finalValidator,
    merged,
    (e) => !(e.keyword === "additionalProperties" && e.instancePath === ""),
  );
  return error === undefined
    ? undefined
    : describe(error, "the final output violates the workflow's outputSchema");
}

/** The code of the finding beside a completed run whose final output breaks the outputSchema. */
export const FINAL_OUTPUT_SCHEMA = "FINAL_OUTPUT_SCHEMA";

/**
 * The finding a completed run carries when its final output breaks the workflow's
 * `outputSchema`: a warning (the run did complete) at `/outputSchema` of the workflow, with the
 * offending field's JSON Pointer into the final output in `data.pointer` (and as a dotted
 * `data.field`), and the last node that ran in `data.nodeId`.
 */
export function finalFinding(problem: OutputProblem, nodeId: string): Diagnostic {
  const field = problem.field === undefined ? {} : { field: problem.field };
  return {
    code: FINAL_OUTPUT_SCHEMA,
    severity: "warning",
    message: problem.reason,
    target: WORKFLOW_TARGET,
    path: "/outputSchema",
    data: { nodeId, pointer: problem.pointer, ...field },
  };
}
