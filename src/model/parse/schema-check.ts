/**
 * The schema checks behind the parsers, compiled once on first use so that importing the model
 * costs nothing.
 *
 * A workflow's nodes are checked one call per node instead of through the whole-document
 * validator: Ajv collects the errors of a referenced schema with `vErrors.concat(...)` after each
 * call, which copies every error so far, so 100,000 invalid nodes took 24 s. Checked here, each
 * node's errors are kept once, as their own run, and the whole check stays linear. The errors are
 * the same, in the same order, as the published schema's (a test compares the two).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { agentWorkflowSchema, SCHEMA_BASE, toolContractSchema } from "../schema/index.js";

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

/** The workflow schema with `nodes` left to the per-node check. */
const shellSchema = {
  ...agentWorkflowSchema,
  $id: `${SCHEMA_BASE}agent-workflow-shell.schema.json`,
  properties: { ...agentWorkflowSchema.properties, nodes: { type: "array" } },
};

/** One node, with the workflow schema's definitions. */
const nodeSchema = {
  $schema: agentWorkflowSchema.$schema,
  $id: `${SCHEMA_BASE}agent-workflow-node.schema.json`,
  $ref: "#/$defs/node",
  $defs: agentWorkflowSchema.$defs,
};

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

/**
 * The node schema specialised to each node type: its `allOf` keeps the one branch whose `if`
 * names that type. For a node of that type the other branches' `if`s fail and add nothing, so
 * the two schemas accept exactly the same nodes (a property test compares them). The full node
 * schema builds an error object and an array for every failing `if`, two per valid node, which
 * is most of what a large workflow's check allocated.
 */
function nodeSchemaFor(type: string): object {
  const { node } = agentWorkflowSchema.$defs;
  return {
    ...node,
    $schema: agentWorkflowSchema.$schema,
    $id: `${SCHEMA_BASE}agent-workflow-node-${type}.schema.json`,
    $defs: agentWorkflowSchema.$defs,
    allOf: node.allOf.filter((branch) => branch.if.properties.type.const === type),
  };
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

let checks: SchemaChecks | undefined;

/** The compiled checks of both document kinds. */
export function schemaChecks(): SchemaChecks {
  if (checks === undefined) {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictTypes: false,
      strictRequired: false,
      // Each error carries the value it is about, so diagnostics need not walk to it again.
      verbose: true,
    });
    const toolContract = ajv.compile(toolContractSchema);
    checks = {
      workflow: workflowCheck(
        ajv.compile(shellSchema),
        ajv.compile(nodeSchema),
        new Map(
          agentWorkflowSchema.$defs.node.properties.type.enum.map((type) => [
            type,
            ajv.compile(nodeSchemaFor(type)),
          ]),
        ),
      ),
      toolContract: (input) => {
        const errors = errorsOf(toolContract, input);
        return errors.length === 0 ? [] : [errors];
      },
    };
  }
  return checks;
}
