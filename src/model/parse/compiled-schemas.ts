/**
 * The schemas behind the parsers' checks, as they are compiled: the workflow document without its
 * nodes, one node, one node of each type, and the tool contract. `scripts/write-validators.ts`
 * compiles them ahead of time into `generated/validators.ts` (Ajv's standalone code), so that
 * neither a parse nor the CLI's start-up pays for Ajv compiling them (a sixth of a second), and
 * a browser bundle of the parser carries no schema compiler for them.
 */
import type { Options } from "ajv";
import { agentWorkflowSchema, SCHEMA_BASE, toolContractSchema } from "../schema/index.js";

/** The Ajv options of the checks. */
export const CHECK_OPTIONS = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
  // Not verbose: an error's value is found from its path (ajv-errors.ts), and verbose code
  // inlined the schema objects at every error, a third of the parser's browser bundle.
  verbose: false,
} as const satisfies Options;

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

/** The node types, in the schema's order. */
export const NODE_TYPES = agentWorkflowSchema.$defs.node.properties.type.enum;

/** Each compiled check's schema, by the name its validator is exported under. */
export const CHECK_SCHEMAS: Readonly<Record<string, object>> = {
  shell: shellSchema,
  node: nodeSchema,
  ...Object.fromEntries(NODE_TYPES.map((type) => [`node_${type}`, nodeSchemaFor(type)])),
  toolContract: toolContractSchema,
};
