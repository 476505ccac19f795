/**
 * Output checks (SPEC 2.4, 5): a node's output against its declared `outputSchema`, the final
 * merged output against the workflow's. Each stop names the first offending field, in Ajv's order.
 */
import type { ErrorObject } from "ajv";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { pointerTokens } from "../model/index.js";
import { outputValidator, type Plan } from "./plan.js";
import type { JsonObject } from "./types.js";

/** Why an output is refused. */
export interface OutputProblem {
  readonly cell: "execution" | "output-schema";
  readonly reason: string;
  /** The offending field as a dotted path (`sources.0`); absent when the whole output is wrong. */
  readonly field?: string;
}

/** A plain JSON-like object: what a node must output. */
export function isOutputObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: ErrorObject, what: string): OutputProblem {
  const params = error.params as Readonly<Record<string, unknown>>;
  const tokens = pointerTokens(error.instancePath);
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    const field = [...tokens, params.missingProperty].join(".");
    return { cell: "output-schema", field, reason: `${what}: field "${field}" is missing` };
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    const field = [...tokens, params.additionalProperty].join(".");
    return {
      cell: "output-schema",
      field,
      reason: `${what}: field "${field}" is not declared in the schema`,
    };
  }
  const message = error.message ?? `fails ${error.keyword}`;
  if (tokens.length === 0) return { cell: "output-schema", reason: `${what}: ${message}` };
  const field = tokens.join(".");
  return { cell: "output-schema", field, reason: `${what}: field "${field}" ${message}` };
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
    return { cell: "execution", reason: `"${nodeId}" returned a non-object output` };
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
