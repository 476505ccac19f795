import type { AgentWorkflow, SchemaShape } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/SCHEMA_TYPE_INVALID.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "SCHEMA_TYPE_INVALID";
const WF = { kind: "workflow" } as const;

/** A shape from JSON, so that keys such as `__proto__` are own properties. */
const json = (text: string): SchemaShape => JSON.parse(text) as SchemaShape;

/** llm a (with the given output schema) → llm b (likewise) → decision → end. */
const twoLlms = (
  a: SchemaShape | undefined,
  b: SchemaShape | undefined,
  extra: Partial<AgentWorkflow> = {},
): AgentWorkflow =>
  workflow(
    [
      llm("a", a === undefined ? {} : { outputSchema: a }),
      llm("b", b === undefined ? {} : { outputSchema: b }),
      decision("d", "output.done = true", "end", "end"),
    ],
    [edge("a", "b"), edge("b", "d")],
    extra,
  );

/** Sixteen types, each holding two of the next: 2^16 schema nodes once inlined. */
const fanOut: Record<string, SchemaShape> = {};
for (let i = 0; i < 16; i++)
  fanOut[`T${i}`] = i === 15 ? { leaf: "text" } : { a: `T${i + 1}`, b: `T${i + 1}` };

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "primitives", workflow: minimal() },
    {
      name: "aliases, arrays, bounded arrays, optional fields, named types",
      workflow: minimal({
        types: { Source: { url: "path", title: "string" } },
        inputSchema: { q: "text", "limit?": "integer", tags: "text[1..6]", grid: "number[][]" },
        outputSchema: { done: "boolean", sources: "Source[]", took: "duration", raw: "any" },
      }),
    },
    {
      name: "JSON Schema fields, with the legacy boolean required",
      workflow: minimal({
        outputSchema: {
          done: { type: "boolean", required: true },
          note: { type: "string", required: false },
        },
      }),
    },
    {
      name: "declaration order does not matter, and unused types are fine",
      workflow: minimal({
        types: { A: { b: "B" }, B: { x: "text" }, Unused: { y: "number" } },
        outputSchema: { a: "A" },
      }),
    },
    {
      name: "llm output schemas using types",
      workflow: twoLlms(
        { plan: "Plan" },
        { steps: "Plan[]" },
        { types: { Plan: { work: "text" } } },
      ),
    },
    {
      name: "types named constructor and __proto__ are ordinary names",
      workflow: minimal({
        types: json('{"__proto__": {"x": "text"}, "constructor": {"y": "__proto__"}}') as Record<
          string,
          SchemaShape
        >,
        inputSchema: { q: "constructor" },
      }),
    },
    {
      name: "tool and decision nodes carry no shape of their own",
      workflow: workflow(
        [tool("t"), decision("d", "output.done = true", "end", "end")],
        [edge("t", "d")],
      ),
    },
    {
      name: "an empty shape is EMPTY_*_SCHEMA's business",
      workflow: minimal({ inputSchema: {}, outputSchema: {} }),
    },
  ],
  invalid: [
    {
      name: "a type expression that does not parse",
      workflow: minimal({ inputSchema: { q: "text[" } }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/inputSchema/q",
          data: {
            path: "/inputSchema/q",
            shape: "/inputSchema",
            field: "q",
            reason: "syntax",
            offset: 4,
          },
        },
      ],
    },
    {
      name: "an unknown type name (no prototype lookup for toString)",
      workflow: minimal({ outputSchema: { done: "bool", "why?": "toString" } }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/outputSchema/why?",
          data: { field: "why?", reason: "unknown-type", typeName: "toString" },
        },
      ],
    },
    {
      name: "a type that contains itself",
      workflow: minimal({ types: { Node: { child: "Node" } } }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/types/Node/child",
          data: {
            shape: "/types/Node",
            reason: "recursive",
            typeName: "Node",
            cycle: ["Node", "Node"],
          },
        },
      ],
    },
    {
      name: "mutual recursion through an array, used by every shape: reported once, where it is written",
      workflow: twoLlms(
        { n: "Node" },
        { c: "Child[]" },
        {
          types: { Node: { child: "Child" }, Child: { parent: "Node[]" } },
          inputSchema: { n: "Node" },
          outputSchema: { done: "bool", n: "Node" },
        },
      ),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/types/Child/parent",
          data: { reason: "recursive", cycle: ["Node", "Child", "Node"] },
        },
      ],
    },
    {
      name: "an invalid JSON Schema field",
      workflow: minimal({ outputSchema: { done: { type: "strin" } } }),
      errors: [
        { code: CODE, target: WF, path: "/outputSchema/done", data: { reason: "invalid-schema" } },
      ],
    },
    {
      name: "a field declared twice, a reserved field name and a value that is no type",
      workflow: minimal({
        inputSchema: json('{"a": "text", "a?": "text", "__proto__": "text", "c": 3}'),
      }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/inputSchema/a?",
          data: { field: "a?", reason: "syntax" },
        },
        {
          code: CODE,
          target: WF,
          path: "/inputSchema/__proto__",
          data: { field: "__proto__", reason: "invalid-schema" },
        },
        {
          code: CODE,
          target: WF,
          path: "/inputSchema/c",
          data: { field: "c", reason: "invalid-schema" },
        },
      ],
    },
    {
      name: "a pointer token with / and ~ is escaped",
      workflow: minimal({ inputSchema: { "a/b~c": "Nope" } }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/inputSchema/a~1b~0c",
          data: { field: "a/b~c", reason: "unknown-type" },
        },
      ],
    },
    {
      name: "on the node for an llm's own output schema",
      workflow: twoLlms(undefined, { plan: "Plan" }),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "b" },
          path: "/nodes/1/config/outputSchema/plan",
          data: {
            nodeId: "b",
            shape: "/nodes/1/config/outputSchema",
            reason: "unknown-type",
            typeName: "Plan",
          },
        },
      ],
    },
    {
      name: "a broken named type used by two nodes: once, on the workflow, at the type",
      workflow: twoLlms({ p: "Plan" }, { ps: "Plan[]" }, { types: { Plan: { work: "Work" } } }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/types/Plan/work",
          data: { reason: "unknown-type", typeName: "Work" },
        },
      ],
    },
    {
      name: "document order, whichever shape revealed the problem first",
      workflow: twoLlms({ x: "Nope" }, undefined, {
        inputSchema: { q: "Plan" },
        outputSchema: { done: "bool", r: "text[" },
        types: { Plan: { work: "Work" }, Other: { y: "Nope2" } },
      }),
      errors: [
        { code: CODE, target: WF, path: "/outputSchema/r", data: { reason: "syntax" } },
        { code: CODE, target: WF, path: "/types/Plan/work", data: { typeName: "Work" } },
        { code: CODE, target: WF, path: "/types/Other/y", data: { typeName: "Nope2" } },
        {
          code: CODE,
          target: { kind: "node", nodeId: "a" },
          path: "/nodes/0/config/outputSchema/x",
          data: { typeName: "Nope" },
        },
      ],
    },
    {
      name: "several problems in one type, in field order",
      workflow: minimal({
        types: { T: { a: "Nope", b: "text[", c: "T" } },
        inputSchema: { t: "T" },
      }),
      errors: [
        { code: CODE, target: WF, path: "/types/T/a", data: { reason: "unknown-type" } },
        { code: CODE, target: WF, path: "/types/T/b", data: { reason: "syntax" } },
        { code: CODE, target: WF, path: "/types/T/c", data: { reason: "recursive" } },
      ],
    },
    {
      name: "types that fan out past the size limit",
      workflow: minimal({ types: fanOut, inputSchema: { q: "T0" } }),
      errors: ["T0", "T1", "T2", "T3"].map((t, i) => ({
        code: CODE,
        target: WF,
        path: `/types/${t}/b`,
        data: { reason: "too-large", typeName: `T${i + 1}` },
      })),
    },
    {
      name: "a declared type that is not an object (unvalidated input), once it is used",
      workflow: minimal({
        types: { T: "text" as unknown as SchemaShape },
        inputSchema: { q: "T" },
      }),
      errors: [
        {
          code: CODE,
          target: WF,
          path: "/types/T",
          data: { shape: "/types/T", field: "T", reason: "invalid-schema" },
        },
      ],
    },
  ],
});
