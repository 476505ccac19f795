/**
 * The schema checks behind the parsers, compiled ahead of time into Ajv's standalone code
 * (compiled-schemas.ts says why).
 *
 * A workflow's nodes are checked one call per node instead of through the whole-document
 * validator: Ajv collects the errors of a referenced schema with `vErrors.concat(...)` after each
 * call, which copies every error so far: quadratic in the invalid nodes. Checked here, each
 * node's errors are kept once, as their own run, and the whole check stays linear. The errors are
 * the same, in the same order, as the published schema's (a test compares the two).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { agentWorkflowSchema } from "../schema/index.js";
import { NODE_TYPES } from "./compiled-schemas.js";
import * as compiled from "./generated/validators.js";

/**
 * The schema errors of a decoded value, in the published schema's order, as runs: the errors of
 * one validator call. Two errors with the same instance path are always in the same run, so a
 * duplicate is looked for within its run only, not among 100,000 errors. No run is empty; there
 * are none when the value is valid. May throw on exotic input.
 */
export type SchemaCheck = (input: object) => readonly (readonly ErrorObject[])[];

interface SchemaChecks {
  readonly workflow: SchemaCheck;
  readonly toolContract: SchemaCheck;
}

/** Properties the document validator checks after `nodes`, in schema order. */
const AFTER_NODES = new Set(
  Object.keys(agentWorkflowSchema.properties).slice(
    Object.keys(agentWorkflowSchema.properties).indexOf("nodes") + 1,
  ),
);

/** Whether an error is about a property checked after `nodes` (its first path token). */
function afterNodes(error: ErrorObject): boolean {
  return AFTER_NODES.has(error.instancePath.split("/", 2)[1] ?? "");
}

function errorsOf(validate: ValidateFunction, input: unknown): readonly ErrorObject[] {
  return validate(input) ? [] : (validate.errors ?? []);
}

function workflowCheck(
  shell: ValidateFunction,
  node: ValidateFunction,
  fast: ReadonlyMap<string, ValidateFunction>,
): SchemaCheck {
  return (input) => {
    // The shell's errors about properties after `nodes` go after the nodes' errors.
    const errors = errorsOf(shell, input);
    const at = errors.findIndex(afterNodes);
    const runs: (readonly ErrorObject[])[] = [];
    const before = at < 0 ? errors : errors.slice(0, at);
    if (before.length > 0) runs.push(before);
    const nodes: unknown = (input as { nodes?: unknown }).nodes;
    if (Array.isArray(nodes)) {
      // One context for every valid node: its path only matters in errors, which come from the
      // full check below.
      const shared = {
        instancePath: "",
        parentData: nodes,
        parentDataProperty: 0,
        rootData: input,
        dynamicAnchors: {},
      };
      for (let i = 0; i < nodes.length; i += 1) {
        const item: unknown = nodes[i];
        const type: unknown = (item as { type?: unknown } | null)?.type;
        const check = typeof type === "string" ? fast.get(type) : undefined;
        if (check?.(item, shared) === true) continue;
        // The context Ajv itself passes to a referenced schema, so paths read `/nodes/3/...`.
        const context = {
          instancePath: `/nodes/${String(i)}`,
          parentData: nodes,
          parentDataProperty: i,
          rootData: input,
          dynamicAnchors: {},
        };
        // Ajv gives each call its own `errors` array, so it is kept as it is.
        if (!node(item, context) && node.errors) runs.push(node.errors);
      }
    }
    if (at >= 0) runs.push(errors.slice(at));
    return runs;
  };
}

/**
 * A generated validator, typed: the standalone code is untyped JavaScript, and each export is an
 * Ajv validate function of the same signature and `errors` property as one Ajv compiles.
 */
function validator(name: string): ValidateFunction {
  const validate = (compiled as Readonly<Record<string, unknown>>)[name];
  if (typeof validate !== "function") throw new Error(`no generated validator ${name}`);
  return validate as ValidateFunction;
}

let checks: SchemaChecks | undefined;

/** The checks of both document kinds, validators compiled ahead of time (compiled-schemas.ts). */
export function schemaChecks(): SchemaChecks {
  if (checks === undefined) {
    const toolContract = validator("toolContract");
    checks = {
      workflow: workflowCheck(
        validator("shell"),
        validator("node"),
        new Map(NODE_TYPES.map((type) => [type, validator(`node_${type}`)])),
      ),
      toolContract: (input) => {
        const errors = errorsOf(toolContract, input);
        return errors.length === 0 ? [] : [errors];
      },
    };
  }
  return checks;
}
