import type { SchemaShape, ToolContract } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/CONDITION_UNKNOWN_FIELD.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** A structured llm that declares its output. */
const typed = (id: string, outputSchema: SchemaShape) => llm(id, { outputSchema });

/** llm(declares `schema`) → decision(condition) → end. */
const on = (schema: SchemaShape, condition: string) =>
  workflow([typed("a", schema), decision("d", condition, "end", "end")], [edge("a", "d")]);

const search: ToolContract = {
  kind: "ToolContract",
  id: "tool:search",
  version: "1.0.0",
  name: "search",
  inputSchema: { q: "text" },
  outputSchema: { results: "text[]", "total?": "number" },
  effect: "read",
  authorization: "automatic",
};
const known: Resolvers = {
  resolveTool: (ref) => (ref === "tool:search@1.0.0" ? search : undefined),
};
const knownAsync: Resolvers = { resolveTool: (ref) => Promise.resolve(known.resolveTool?.(ref)) };
const throwing: Resolvers = {
  resolveTool: () => {
    throw new Error("registry down");
  },
};

/** llm(declares answer) → tool search → decision(condition). */
const viaTool = (condition: string) =>
  workflow(
    [typed("a", { answer: "text" }), tool("t"), decision("d", condition, "end", "end")],
    [edge("a", "t"), edge("t", "d")],
  );

const at = (path = "/nodes/1/config/condition", nodeId = "d") => ({
  code: "CONDITION_UNKNOWN_FIELD",
  target: { kind: "node", nodeId } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "no output schema anywhere", workflow: minimal() },
    { name: "no nodes", workflow: workflow([], []) },
    {
      name: "the field is declared upstream",
      workflow: on({ done: "bool" }, "output.done = true"),
    },
    { name: "an optional field", workflow: on({ "done?": "bool" }, "output.done = true") },
    {
      name: "a nested path needs only its first segment declared",
      workflow: on({ review: { type: "object" } }, "output.review.score > 1"),
    },
    {
      name: "an upstream llm without outputSchema may produce anything",
      workflow: workflow(
        [
          typed("a", { answer: "text" }),
          llm("b"),
          decision("d", "output.done = true", "end", "end"),
        ],
        [edge("a", "b"), edge("b", "d")],
      ),
    },
    { name: "an unresolved tool may produce anything", workflow: viaTool("output.done = true") },
    {
      name: "a resolver that throws leaves the tool undeclared",
      workflow: viaTool("output.done = true"),
      resolvers: throwing,
    },
    {
      name: "a field of a resolved tool contract",
      workflow: viaTool("output.results = 1 and output.total > 1 and output.answer = 1"),
      resolvers: known,
    },
    {
      name: "an async resolver",
      workflow: viaTool("output.total > 1"),
      resolvers: knownAsync,
    },
    {
      name: "the decision is the entry: nothing upstream is declared",
      workflow: workflow(
        [decision("d", "output.x = 1", "a", "end"), typed("a", { y: "text" })],
        [],
      ),
    },
    {
      name: "natural language reads no fields",
      workflow: workflow(
        [
          typed("a", { y: "text" }),
          decision("d", "x is 1", "end", "end", { conditionLanguage: "text" }),
        ],
        [edge("a", "d")],
      ),
    },
    {
      name: "names not rooted at output are other rules' business",
      workflow: on({ y: "text" }, "x = 1"),
    },
    {
      name: "a field declared by a later loop member reaches the decision",
      workflow: workflow(
        [
          typed("a", { x: "text" }),
          decision("d", "output.y = 1", "end", { next: "b", maxRetries: 2 }),
          typed("b", { y: "text" }),
        ],
        [edge("a", "d"), edge("b", "d")],
      ),
    },
  ],
  invalid: [
    {
      name: "a field no upstream node declares",
      workflow: on({ answer: "text", is_complete: "bool" }, "output.is_done = true"),
      errors: [
        {
          ...at(),
          data: {
            nodeId: "d",
            route: "onTrue",
            field: "is_done",
            name: "output.is_done",
            declared: ["answer", "is_complete"],
            isInput: false,
          },
        },
      ],
    },
    {
      name: "an empty outputSchema declares that nothing is produced",
      workflow: on({}, "output.done = true"),
      errors: [{ ...at(), data: { field: "done", declared: [] } }],
    },
    {
      name: "declared only downstream",
      workflow: workflow(
        [
          typed("a", { x: "text" }),
          decision("d", "output.y = 1", "b", "end"),
          typed("b", { y: "text" }),
        ],
        [edge("a", "d")],
      ),
      errors: [{ ...at(), data: { field: "y", declared: ["x"] } }],
    },
    {
      name: "a workflow input is not an output",
      workflow: on({ answer: "text" }, "output.q = 1"),
      errors: [{ ...at(), data: { field: "q", isInput: true } }],
    },
    {
      name: "a resolved tool contract closes the set",
      workflow: viaTool("output.is_complete = true"),
      resolvers: known,
      errors: [
        {
          ...at("/nodes/2/config/condition"),
          data: { field: "is_complete", declared: ["answer", "results", "total"] },
        },
      ],
    },
    {
      name: "a nested path is checked by its first segment",
      workflow: on({ answer: "text" }, "output.review.score > 1"),
      errors: [{ ...at(), data: { field: "review", name: "output.review.score" } }],
    },
    {
      name: "one report per unknown field per condition, in order",
      workflow: on(
        { a: "text" },
        "output.x.p = 1 and output.a = 1 and output.x.q = 2 or output.z = 1",
      ),
      errors: [
        { ...at(), data: { field: "x", name: "output.x.p" } },
        { ...at(), data: { field: "z" } },
      ],
    },
    {
      name: "prototype names are fields like any other",
      workflow: on({ a: "text" }, "output.constructor = 1 and output.__proto__ = 2"),
      errors: [
        { ...at(), data: { field: "constructor" } },
        { ...at(), data: { field: "__proto__" } },
      ],
    },
    {
      name: "each case of a multi-way decision",
      workflow: workflow(
        [
          typed("a", { kind: "text" }),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: 'output.kind = "x"', next: "end" },
                { condition: 'output.knd = "y"', next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [
        { ...at("/nodes/1/config/cases/1/condition"), data: { route: "cases/1", field: "knd" } },
      ],
    },
    {
      name: "declared lists at most 20 names, sorted",
      workflow: on(
        Object.fromEntries(
          Array.from({ length: 25 }, (_, k) => [`f${String(24 - k).padStart(2, "0")}`, "text"]),
        ),
        "output.g = 1",
      ),
      errors: [
        {
          ...at(),
          data: {
            declared: Array.from({ length: 20 }, (_, k) => `f${String(k).padStart(2, "0")}`),
          },
        },
      ],
    },
    {
      name: "past 1,024 declared names, names read keep their bits; one declared nowhere needs none",
      workflow: on(
        Object.fromEntries(Array.from({ length: 1100 }, (_, k) => [`d${k}`, "text"])),
        "output.d1099 = 1 and output.zzz = 1",
      ),
      errors: [{ ...at(), data: { field: "zzz", name: "output.zzz" } }],
    },
    {
      name: "two decisions each see their own upstream",
      workflow: workflow(
        [
          typed("a", { x: "text" }),
          decision("d", "output.y = 1", "b", "end"),
          typed("b", { y: "text" }),
          decision("e", "output.y = 1 and output.w = 1", "end", "end"),
        ],
        [edge("a", "d"), edge("b", "e")],
      ),
      errors: [
        { ...at(), data: { field: "y", declared: ["x"] } },
        { ...at("/nodes/3/config/condition", "e"), data: { field: "w", declared: ["x", "y"] } },
      ],
    },
  ],
});
