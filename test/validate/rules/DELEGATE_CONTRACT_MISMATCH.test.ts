import type { AgentWorkflow, SchemaShape, ToolContract } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/DELEGATE_CONTRACT_MISMATCH.js";
import { decision, edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** The delegate: requires a topic and items, accepts an optional limit. */
const verifier = workflow([llm("x")], [], {
  id: "agnt-verify",
  inputSchema: { topic: "text", "limit?": "number", items: "Item[]" },
  types: { Item: { name: "text" } },
});

const searchTool = (outputSchema: SchemaShape): ToolContract => ({
  kind: "ToolContract",
  id: "tool:search",
  version: "1.0.0",
  name: "Search",
  inputSchema: { q: "text" },
  outputSchema,
  effect: "read",
  authorization: "automatic",
});

const resolvers = (...delegates: AgentWorkflow[]): Resolvers => {
  const byRef = new Map<string, unknown>(delegates.map((d) => [`${d.id}@${d.version}`, d]));
  return { resolveDelegate: (ref) => byRef.get(ref) };
};
const registry = resolvers(verifier);

/** Named types of the delegating workflow (the type language has no inline object types). */
const delegatorTypes = { Entry: { name: "text" }, Titled: { title: "text" } };

/** An llm "a" with the given output schema (or none) delegating to agnt-verify@1.0.0. */
const delegator = (outputSchema: SchemaShape | undefined, extra: Partial<AgentWorkflow> = {}) =>
  workflow(
    [llm("a", outputSchema === undefined ? {} : { outputSchema })],
    [edge("a", "agnt-verify@1.0.0", "delegate")],
    { autonomyLevel: 4, types: delegatorTypes, ...extra },
  );

const at = (nodeId = "a", index = 0) => ({
  code: "DELEGATE_CONTRACT_MISMATCH",
  target: { kind: "node", nodeId } as const,
  path: `/edges/${index}/to`,
});

const covering = { topic: "text", items: "Entry[]" } as const;

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "the output covers the inputs", workflow: delegator(covering), resolvers: registry },
    {
      name: "extra output fields and an absent optional input are fine",
      workflow: delegator({ ...covering, notes: "text" }),
      resolvers: registry,
    },
    {
      name: "the delegator's own named types are used for its output",
      workflow: delegator(
        { topic: "text", items: "Thing[]" },
        { types: { Thing: { name: "text", id: "number" } } },
      ),
      resolvers: registry,
    },
    {
      name: "integer is assignable to an optional number input",
      workflow: delegator({ ...covering, limit: "integer" }),
      resolvers: registry,
    },
    {
      name: "any covers anything",
      workflow: delegator({ topic: "any", items: "any" }),
      resolvers: registry,
    },
    {
      name: "no declared output: the workflow's outputSchema covers the inputs",
      workflow: delegator(undefined, { outputSchema: covering }),
      resolvers: registry,
    },
    { name: "the delegate is unresolved (no resolver)", workflow: delegator({}) },
    { name: "the delegate is unknown", workflow: delegator({}), resolvers: resolvers() },
    {
      name: "an invalid ref is never compared",
      workflow: workflow([llm("a", { outputSchema: {} })], [edge("a", "agnt-verify", "delegate")]),
      resolvers: registry,
    },
    {
      name: "a tool node whose contract is unresolved: the workflow's outputSchema is read",
      workflow: workflow([tool("t")], [edge("t", "agnt-verify@1.0.0", "delegate")], {
        types: delegatorTypes,
        outputSchema: covering,
      }),
      resolvers: registry,
    },
    {
      name: "a tool node whose resolved contract covers the inputs",
      workflow: workflow([tool("t")], [edge("t", "agnt-verify@1.0.0", "delegate")]),
      resolvers: { ...registry, resolveTool: () => searchTool({ topic: "text", items: "any[]" }) },
    },
    {
      name: "a decision node has no output of its own: the workflow's outputSchema is read",
      workflow: workflow(
        [llm("a"), decision("d", "output.ok = true", "end", "end")],
        [edge("a", "d"), edge("d", "agnt-verify@1.0.0", "delegate")],
        { types: delegatorTypes, outputSchema: covering },
      ),
      resolvers: registry,
    },
    {
      name: "a delegate edge from an unknown node",
      workflow: workflow([llm("a")], [edge("ghost", "agnt-verify@1.0.0", "delegate")]),
      resolvers: registry,
    },
  ],
  invalid: [
    {
      // the seed engine's contract: what the agent declares it produces (its outputSchema)
      name: "no declared output: the workflow's outputSchema misses the inputs",
      workflow: delegator(undefined),
      resolvers: registry,
      errors: [
        { ...at(), data: { field: "topic", reason: "missing", output: "workflow" } },
        { ...at(), data: { field: "items", reason: "missing", output: "workflow" } },
      ],
    },
    {
      name: "no declared output: a workflow output of the wrong type",
      workflow: delegator(undefined, { outputSchema: { ...covering, topic: "number" } }),
      resolvers: registry,
      errors: [
        {
          ...at(),
          data: { field: "topic", actual: "number", reason: "type", output: "workflow" },
        },
      ],
    },
    {
      name: "a required input is missing",
      workflow: delegator({ items: "Entry[]" }),
      resolvers: registry,
      errors: [
        {
          ...at(),
          data: {
            nodeId: "a",
            index: 0,
            delegate: "agnt-verify@1.0.0",
            field: "topic",
            expected: "text",
            reason: "missing",
          },
        },
      ],
    },
    {
      name: "an empty declared output misses every required input, in the delegate's field order",
      workflow: delegator({}),
      resolvers: registry,
      errors: [
        { ...at(), data: { field: "topic", reason: "missing" } },
        { ...at(), data: { field: "items", expected: "Item[]", reason: "missing" } },
      ],
    },
    {
      name: "a primitive that is not assignable",
      workflow: delegator({ ...covering, topic: "number" }),
      resolvers: registry,
      errors: [
        { ...at(), data: { field: "topic", expected: "text", actual: "number", reason: "type" } },
      ],
    },
    {
      name: "path and text are not interchangeable",
      workflow: delegator({ ...covering, topic: "path" }),
      resolvers: registry,
      errors: [{ ...at(), data: { field: "topic", expected: "text", actual: "path" } }],
    },
    {
      name: "a nested mismatch names the position inside the field",
      workflow: delegator({ topic: "text", items: "text[]" }),
      resolvers: registry,
      errors: [
        {
          ...at(),
          data: {
            field: "items",
            expected: "Item[]",
            actual: "text[]",
            fieldPath: ["items", "[]"],
          },
        },
      ],
    },
    {
      name: "a nested object lacks a required field",
      workflow: delegator({ topic: "text", items: "Titled[]" }),
      resolvers: registry,
      errors: [{ ...at(), data: { field: "items", fieldPath: ["items", "[]", "name"] } }],
    },
    {
      name: "a required input that the output declares only as optional",
      workflow: delegator({ "topic?": "text", items: "Entry[]" }),
      resolvers: registry,
      errors: [{ ...at(), data: { field: "topic", actual: "text", reason: "optional" } }],
    },
    {
      name: "an optional input given with the wrong type",
      workflow: delegator({ ...covering, limit: "text" }),
      resolvers: registry,
      errors: [{ ...at(), data: { field: "limit", expected: "number", actual: "text" } }],
    },
    {
      name: "a tool node's resolved contract output is the delegator's output",
      workflow: workflow([tool("t")], [edge("t", "agnt-verify@1.0.0", "delegate")]),
      resolvers: { ...registry, resolveTool: () => searchTool({ topic: "text" }) },
      errors: [{ ...at("t"), data: { nodeId: "t", field: "items", reason: "missing" } }],
    },
    {
      name: "each delegate edge in document order, each against its own delegate",
      workflow: workflow(
        [
          llm("a", { outputSchema: { topic: "bool" } }),
          llm("b", { outputSchema: { topic: "text" } }),
        ],
        [
          edge("a", "b"),
          edge("b", "agnt-verify@1.0.0", "delegate"),
          edge("a", "agnt-echo@1", "delegate"),
        ],
      ),
      resolvers: resolvers(
        verifier,
        workflow([llm("x")], [], { id: "agnt-echo", inputSchema: { topic: "text" } }),
      ),
      errors: [
        { ...at("b", 1), data: { field: "items", reason: "missing" } },
        { ...at("a", 2), data: { delegate: "agnt-echo@1.0.0", field: "topic", actual: "bool" } },
      ],
    },
    {
      name: "input names that are prototype keys are ordinary fields",
      workflow: delegator({ topic: "text" }),
      resolvers: resolvers(
        workflow([llm("x")], [], {
          id: "agnt-verify",
          inputSchema: { constructor: "text", toString: "number" },
        }),
      ),
      errors: [
        { ...at(), data: { field: "constructor", reason: "missing" } },
        { ...at(), data: { field: "toString", reason: "missing" } },
      ],
    },
    {
      name: "an async registry",
      workflow: delegator({ topic: "text" }),
      resolvers: {
        resolveDelegate: (ref) =>
          Promise.resolve(ref === "agnt-verify@1.0.0" ? verifier : undefined),
      },
      errors: [{ ...at(), data: { field: "items", reason: "missing" } }],
    },
  ],
});
