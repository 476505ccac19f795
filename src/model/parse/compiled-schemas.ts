/**
 * The schemas behind the parsers' checks, as they are compiled: the workflow document without its
 * nodes, one node, one node of each type, and the tool contract. `scripts/write-validators.ts`
 * compiles them ahead of time into `generated/validators.ts` (Ajv's standalone code), so that
 * neither a parse nor the CLI's start-up pays for Ajv compiling them, and
 * a browser bundle of the parser carries no schema compiler for them.
 *
 * The workflow schema's definitions are compiled once, each as a schema of its own
 * ({@link CHECK_DEFINITIONS}), and every check refers to them. Ajv compiles a definition again
 * for every root schema that holds a copy of it, and again for every root that reaches it by a
 * `#/$defs/...` pointer into another schema: only a `$ref` to a schema's own `$id` reuses its
 * compiled function. With a copy per root, the same code was in the generated file up to six
 * times.
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
  // inlined the schema objects at every error.
  verbose: false,
  // No `message` on the errors: ajv-errors.ts words every diagnostic from the error's keyword and
  // params, and the sentences were written into every error of the generated code.
  messages: false,
  // The documents' required lists (nine and eight names, checked once per document) are looped
  // over instead of unrolled; the short lists of nodes and configs, checked per node, stay unrolled.
  loopRequired: 4,
  // `inlineRefs` stays Ajv's default: a definition without `$ref`s (shape, edge, decorator…) is
  // inlined where it is used. A call's errors are appended by copying the caller's errors so far,
  // so a called definition under `items` would make a check quadratic in the invalid items.
} as const satisfies Options;

/** The definition `name`'s `$id`, relative to `SCHEMA_BASE`: short, as Ajv writes it into errors. */
function definitionId(name: string): string {
  return `def-${name}`;
}

/**
 * `schema` with each `#/$defs/<name>` turned into a `$ref` to the shared definition `name`, and
 * without `$defs`. A schema's own definitions must be the workflow schema's, as they are shared.
 */
function sharing(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sharing);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$defs") {
      for (const [name, definition] of Object.entries(value as object)) {
        if (definition !== (agentWorkflowSchema.$defs as Record<string, unknown>)[name]) {
          throw new Error(`the $defs/${name} of a check is not the workflow schema's`);
        }
      }
    } else if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
      // Any other pointer into the root would mean something else once the definitions stand
      // alone under their own ids.
      if (!value.startsWith("#/$defs/")) throw new Error(`a check refers to ${value}`);
      out[key] = definitionId(value.slice("#/$defs/".length));
    } else {
      out[key] = sharing(value);
    }
  }
  return out;
}

/**
 * A node's `decorators`, as a definition of its own: the decorator definition has no `$ref`, so
 * Ajv inlines it into each node check that refers to it, four copies. The list compiled once is
 * one call per node; a call per decorator would copy the errors so far at every invalid one.
 */
const decorators = agentWorkflowSchema.$defs.node.properties.decorators;

/** The node definition, its decorators referred to through {@link decorators}. */
const node = {
  ...agentWorkflowSchema.$defs.node,
  properties: {
    ...agentWorkflowSchema.$defs.node.properties,
    decorators: { $ref: "#/$defs/decorators" },
  },
} as const;

/** The shared definitions by name: the workflow schema's, with `decorators` of their own. */
const DEFINITIONS: Readonly<Record<string, unknown>> = {
  ...agentWorkflowSchema.$defs,
  node,
  decorators,
};

/** The definition `name` as a schema of its own, under its `$id`. */
function definitionSchema(name: string): object {
  if (!Object.hasOwn(DEFINITIONS, name)) throw new Error(`no shared definition ${name}`);
  return { $id: `${SCHEMA_BASE}${definitionId(name)}`, ...(sharing(DEFINITIONS[name]) as object) };
}

/** The shared node definition: the `node` check too, so that it is compiled once. */
const nodeDefinition = definitionSchema("node");

/**
 * The shared definitions, each a schema with its own `$id`: add them to the Ajv instance before
 * compiling {@link CHECK_SCHEMAS}, which refer to them.
 */
export const CHECK_DEFINITIONS: readonly object[] = Object.keys(DEFINITIONS).map((name) =>
  name === "node" ? nodeDefinition : definitionSchema(name),
);

/** The workflow schema with `nodes` left to the per-node check. */
const shellSchema = sharing({
  ...agentWorkflowSchema,
  $id: `${SCHEMA_BASE}agent-workflow-shell.schema.json`,
  properties: { ...agentWorkflowSchema.properties, nodes: { type: "array" } },
}) as object;

/**
 * The node schema specialised to each node type: its `allOf` keeps the one branch whose `if`
 * names that type. For a node of that type the other branches' `if`s fail and add nothing, so
 * the two schemas accept exactly the same nodes (a property test compares them). The full node
 * schema builds an error object and an array for every failing `if`, two per valid node, which
 * is most of what a large workflow's check allocated. Its definitions are the shared ones.
 */
function nodeSchemaFor(type: string): object {
  return sharing({
    ...node,
    $schema: agentWorkflowSchema.$schema,
    $id: `${SCHEMA_BASE}agent-workflow-node-${type}.schema.json`,
    allOf: node.allOf.filter((branch) => branch.if.properties.type.const === type),
  }) as object;
}

/** The node types, in the schema's order. */
export const NODE_TYPES = agentWorkflowSchema.$defs.node.properties.type.enum;

/**
 * Each compiled check's schema, by the name its validator is exported under. Compile them in an
 * Ajv instance that holds {@link CHECK_DEFINITIONS}; `node` is one of those.
 */
export const CHECK_SCHEMAS: Readonly<Record<string, object>> = {
  shell: shellSchema,
  node: nodeDefinition,
  ...Object.fromEntries(NODE_TYPES.map((type) => [`node_${type}`, nodeSchemaFor(type)])),
  toolContract: sharing(toolContractSchema) as object,
};
