import type { SchemaShape, ToolContract } from "../../../src/model/index.js";
import type { Resolvers } from "../../../src/validate/index.js";
import { rule } from "../../../src/validate/rules/TOOL_PARAMS_MISMATCH.js";
import type { ExpectedError } from "../../../src/testing/index.js";
import { edge, llm, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const contract = (
  inputSchema: SchemaShape,
  outputSchema: SchemaShape = { ok: "bool" },
): ToolContract => ({
  kind: "ToolContract",
  id: "tool:send",
  version: "1.0.0",
  name: "Send",
  inputSchema,
  outputSchema,
  effect: "notify",
  authorization: "automatic",
});
const byRef = (docs: readonly unknown[]): Map<string, unknown> =>
  new Map(
    docs.map((d) => {
      const { id, version } = d as { id: string; version: string };
      return [`${id}@${version}`, d];
    }),
  );
const sync = (...docs: unknown[]): Resolvers => {
  const m = byRef(docs);
  return { resolveTool: (ref) => m.get(ref) };
};
const async = (...docs: unknown[]): Resolvers => {
  const m = byRef(docs);
  return { resolveTool: (ref) => Promise.resolve(m.get(ref)) };
};

/** plan (llm, with an output schema) → t (tool:send@1.0.0 with `params`). */
const sending = (params?: Readonly<Record<string, unknown>>, planOutput?: SchemaShape) =>
  workflow(
    [
      llm("plan", planOutput === undefined ? {} : { outputSchema: planOutput }),
      tool("t", "tool:send@1.0.0", params === undefined ? {} : { params }),
    ],
    [edge("plan", "t")],
    { inputSchema: { to: "text", "dir?": "path" } },
  );
const err = (
  path: string,
  data: Readonly<Record<string, unknown>>,
  nodeId = "t",
): ExpectedError => ({
  code: "TOOL_PARAMS_MISMATCH",
  target: { kind: "node", nodeId },
  path: `/nodes/${nodeId === "t" ? 1 : 2}/config${path}`,
  data: { nodeId, tool: "tool:send@1.0.0", ...data },
});

const mail = contract({ to: "text", subject: "text", "cc?": "text[]", "priority?": "integer" });

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    {
      name: "every required input, an optional one, literals of the right type",
      workflow: sending({ to: "a@b.c", subject: "hi", priority: 2 }),
      resolvers: sync(mail),
    },
    {
      name: "integer for number and duration, float for number",
      workflow: sending({ n: 1, d: 1500, f: 0.5 }),
      resolvers: sync(contract({ n: "number", d: "duration", f: "number" })),
    },
    {
      name: "arrays by element, empty arrays, objects with extra nested keys",
      workflow: sending({ tags: ["a", "b"], none: [], box: { w: 1, h: 2.5, note: "extra" } }),
      resolvers: sync(
        contract({
          tags: "text[]",
          none: "text[1..3]",
          box: {
            type: "object",
            properties: { w: { type: "integer" }, h: { type: "number" } },
            required: ["w"],
          },
        }),
      ),
    },
    {
      name: "named-free contract types that are open (any, rich JSON Schema)",
      workflow: sending({ a: [1, "x", null], b: { x: 1 } }),
      resolvers: sync(
        contract({ a: "any", b: { anyOf: [{ type: "string" }, { type: "object" }] } }),
      ),
    },
    {
      name: "a constant string fills a path and a member input",
      workflow: sending({ dir: "/var/out", who: "alice" }),
      resolvers: sync(contract({ dir: "path", who: "member<reviewers>" })),
    },
    {
      name: "whole templates take the declared type of the field they read",
      workflow: sending(
        {
          to: "{{plan.output.address}}",
          subject: "{{plan.output.title}}",
          cc: "{{plan.output.list}}",
        },
        { address: "text", title: "text", list: "text[]" },
      ),
      resolvers: sync(mail),
    },
    {
      name: "a template whose source declares nothing is any",
      workflow: sending({
        to: "{{plan.output.address}}",
        subject: "{{plan.output.x.y}}",
        priority: "{{nowhere.output.p}}",
      }),
      resolvers: sync(mail),
    },
    {
      name: "a template from the workflow input keeps the input's type",
      workflow: sending({ to: "{{input.to}}", subject: "s", dir: "{{input.dir}}" }),
      resolvers: sync(contract({ to: "text", subject: "text", dir: "path" })),
    },
    {
      name: "a template reading an upstream tool's resolved contract output",
      workflow: workflow(
        [
          llm("plan"),
          tool("s", "tool:search@1.0.0", { params: { q: "x" } }),
          tool("t", "tool:send@1.0.0", { params: { to: "{{s.output.hits}}", subject: "s" } }),
        ],
        [edge("plan", "s"), edge("s", "t")],
      ),
      resolvers: sync(
        { ...contract({ q: "text" }, { hits: "integer" }), id: "tool:search" },
        contract({ to: "number", subject: "text" }),
      ),
    },
    { name: "no resolver: nothing to compare with", workflow: sending({ nonsense: 1 }) },
    {
      name: "an unknown contract is TOOL_UNRESOLVED's",
      workflow: sending({ nonsense: 1 }),
      resolvers: sync(),
    },
    {
      name: "a throwing resolver is TOOL_UNRESOLVED's",
      workflow: sending({ nonsense: 1 }),
      resolvers: {
        resolveTool: () => {
          throw new Error("down");
        },
      },
    },
    {
      name: "an invalid contract is not compared",
      workflow: sending({ nonsense: 1 }),
      resolvers: sync({ ...mail, inputSchema: "to: text" }),
    },
    {
      name: "async registry, abbreviated ref",
      workflow: workflow(
        [llm("plan"), tool("t", "tool:send@1", { params: { to: "x", subject: "y" } })],
        [edge("plan", "t")],
      ),
      resolvers: async(mail),
    },
    {
      name: "a contract without inputs and no params",
      workflow: sending(),
      resolvers: sync(contract({})),
    },
  ],
  invalid: [
    {
      name: "a missing required input",
      workflow: sending({ to: "a@b.c" }),
      resolvers: sync(mail),
      errors: [err("/params", { param: "subject", field: "subject", expected: "text" })],
    },
    {
      name: "no params at all: each required input, at the config",
      workflow: sending(),
      resolvers: async(mail),
      errors: [
        err("", { param: "to", expected: "text" }),
        err("", { param: "subject", expected: "text" }),
      ],
    },
    {
      name: "an undeclared param (a typo), with a __proto__ key",
      workflow: sending({
        to: "x",
        subject: "y",
        subjet: "y",
        ...(JSON.parse('{"__proto__": 1}') as object),
      }),
      resolvers: sync(mail),
      errors: [
        err("/params/subjet", { param: "subjet" }),
        err("/params/__proto__", { param: "__proto__" }),
      ],
    },
    {
      name: "wrong literal types, one report per param, in params order",
      workflow: sending({ to: 42, subject: true, priority: 1.5, cc: "x" }),
      resolvers: sync(mail),
      errors: [
        err("/params/to", { param: "to", expected: "text", actual: "integer" }),
        err("/params/subject", { param: "subject", expected: "text", actual: "bool" }),
        err("/params/priority", { param: "priority", expected: "integer", actual: "number" }),
        err("/params/cc", { param: "cc", expected: "text[]", actual: "text" }),
      ],
    },
    {
      name: "null is no value of any declared type",
      workflow: sending({ to: null, subject: "s" }),
      resolvers: sync(mail),
      errors: [err("/params/to", { expected: "text", actual: "null" })],
    },
    {
      name: "an array element of the wrong type, pointed at",
      workflow: sending({ to: "a", subject: "s", cc: ["x", "y", 3] }),
      resolvers: sync(mail),
      errors: [
        err("/params/cc/2", { param: "cc", field: "cc.2", expected: "text", actual: "integer" }),
      ],
    },
    {
      name: "a nested object misses a field or has a wrong one",
      workflow: sending({ box: {}, at: { lat: 1, lng: "east" } }),
      resolvers: sync(
        contract({
          box: { type: "object", properties: { w: { type: "integer" } }, required: ["w"] },
          at: {
            type: "object",
            properties: { lat: { type: "number" }, lng: { type: "number" } },
            required: ["lat", "lng"],
          },
        }),
      ),
      errors: [
        err("/params/box", { param: "box", field: "box.w", expected: "integer" }),
        err("/params/at/lng", { param: "at", field: "at.lng", expected: "number", actual: "text" }),
      ],
    },
    {
      name: "a template carries text into a path input",
      workflow: sending(
        { dir: "{{plan.output.folder}}", also: "out/{{plan.output.folder}}" },
        { folder: "text" },
      ),
      resolvers: sync(contract({ dir: "path", also: "path" })),
      errors: [
        err("/params/dir", { param: "dir", expected: "path", actual: "text" }),
        err("/params/also", { param: "also", expected: "path", actual: "text" }),
      ],
    },
    {
      name: "a template's declared type does not fit, down to the field",
      workflow: sending(
        {
          n: "{{plan.output.count}}",
          o: "{{plan.output.box}}",
          p: "{{plan.output.box}}",
          i: "{{input.to}}",
        },
        {
          count: "text",
          box: { type: "object", properties: { w: { type: "string" } }, required: ["w"] },
        },
      ),
      resolvers: sync(
        contract({
          n: "number",
          o: { type: "object", properties: { w: { type: "number" } }, required: ["w"] },
          p: { type: "object", properties: { h: { type: "number" } }, required: ["h"] },
          i: "integer",
        }),
      ),
      errors: [
        err("/params/n", { param: "n", expected: "number", actual: "text" }),
        err("/params/o", { param: "o", field: "o.w", expected: "number", actual: "text" }),
        err("/params/p", { param: "p", field: "p.h", expected: "number" }),
        err("/params/i", { param: "i", expected: "integer", actual: "text" }),
      ],
    },
    {
      name: "two nodes share the contract; each is checked",
      workflow: workflow(
        [
          llm("plan"),
          tool("t", "tool:send@1.0.0", { params: { to: "a", subject: "b" } }),
          tool("u", "tool:send@1.0.0", { params: { to: 1, subject: "b" } }),
        ],
        [edge("plan", "t"), edge("t", "u")],
      ),
      resolvers: sync(mail),
      errors: [err("/params/to", { param: "to", actual: "integer" }, "u")],
    },
    {
      name: "missing, undeclared and wrong together",
      workflow: sending({ subject: 1, bcc: "x" }),
      resolvers: sync(mail),
      errors: [
        err("/params", { param: "to" }),
        err("/params/subject", { param: "subject", actual: "integer" }),
        err("/params/bcc", { param: "bcc" }),
      ],
    },
  ],
});
