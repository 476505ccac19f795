import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SHAPE_NODES, resolveShape } from "../../../src/model/shape/resolve.js";
import type { ShapeProblem } from "../../../src/model/shape/types.js";
import type { ObjectField, TypeNode } from "../../../src/model/shape/type-expr.js";
import type { SchemaShape } from "../../../src/model/types.js";

type Types = Readonly<Record<string, SchemaShape>>;

const ANY: TypeNode = { kind: "any" };
const field = (name: string, type: TypeNode): ObjectField => ({ name, optional: false, type });

/** T0 → T1 → … each referencing the next twice: the expansion doubles at every level. */
function doublingChain(levels: number): Types {
  const entries: [string, SchemaShape][] = [];
  for (let i = 0; i < levels; i += 1) entries.push([`T${i}`, { a: `T${i + 1}`, b: `T${i + 1}` }]);
  entries.push([`T${levels}`, { v: "text" }]);
  return Object.fromEntries(entries);
}

const tooLarge = (type: string, size: number) => ({
  path: `/types/${type}/b`,
  reason: "too-large",
  message: `inlining field "b" (${size} schema nodes) takes the shape past 10000 nodes; it is not checked`,
  typeName: `T${Number(type.slice(1)) + 1}`,
});

describe("expansion size limit (too-large)", () => {
  it("is 10,000 schema nodes", () => {
    expect(MAX_SHAPE_NODES).toBe(10_000);
  });

  it("rejects a DAG whose inlined expansion doubles at every level", () => {
    const { problems } = resolveShape({ root: "T0" }, doublingChain(20), "/outputSchema");
    // Sizes: T20 = 2, T19 = 5, …, T9 = 6143; T8's second field would pass the limit, so T8 keeps
    // one copy (6145 nodes), T7 one copy of T8 (6147), and so on up the chain.
    expect(problems).toEqual([
      tooLarge("T0", 6159),
      tooLarge("T1", 6157),
      tooLarge("T2", 6155),
      tooLarge("T3", 6153),
      tooLarge("T4", 6151),
      tooLarge("T5", 6149),
      tooLarge("T6", 6147),
      tooLarge("T7", 6145),
      tooLarge("T8", 6143),
    ]);
  });

  // Expanding 2^400 nodes would never finish: the test timeout is the hang guard.
  it("counts with memoisation: 2^400 nodes are never expanded", { timeout: 10_000 }, () => {
    const { problems } = resolveShape({ root: "T0" }, doublingChain(400), "");
    expect(problems).toHaveLength(400 - 11);
  });

  it("reports the shape field that takes the shape past the limit", () => {
    const big = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`f${i}`, "text"]));
    const { type, problems } = resolveShape(
      { a: "Big", b: "Big[]", c: "text" },
      { Big: big },
      "/s",
    );
    expect(problems).toEqual([
      {
        path: "/s/b",
        reason: "too-large",
        message:
          'inlining field "b" (6002 schema nodes) takes the shape past 10000 nodes; it and the 1 later field(s) are not checked',
        typeName: "Big",
      },
    ]);
    expect(type.fields.slice(1)).toEqual([
      { name: "b", optional: false, type: ANY },
      { name: "c", optional: false, type: ANY },
    ]);
  });

  it("rejects a JSON Schema field nested deeper than 128 levels", () => {
    const nest = (levels: number): Record<string, unknown> => {
      let schema: Record<string, unknown> = { type: "string" };
      for (let i = 1; i < levels; i += 1) schema = { type: "array", items: schema };
      return schema;
    };
    expect(resolveShape({ ok: nest(128) }, {}, "/s").problems).toEqual([]);
    expect(resolveShape({ deep: nest(129) }, {}, "/s").problems).toEqual([
      {
        path: "/s/deep",
        reason: "too-large",
        message: "the JSON Schema is nested deeper than 128 levels",
      },
    ]);
    expect(() => resolveShape({ deep: nest(100_000) }, {}, "/s")).not.toThrow();
  });

  it("rejects a JSON Schema field with more than 10,000 nodes", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: "string" }]),
    );
    expect(resolveShape({ wide: { type: "object", properties } }, {}, "/s").problems).toEqual([
      {
        path: "/s/wide",
        reason: "too-large",
        message: "the JSON Schema has more than 10000 schema nodes",
      },
    ]);
  });
});

describe("named types are analysed once per types record", () => {
  it("shares inlined types between shapes", () => {
    const types: Types = { Plan: { summary: "text" } };
    const a = resolveShape({ a: "Plan" }, types, "/a").type.fields[0]?.type;
    const b = resolveShape({ b: "Plan[]" }, types, "/b").type.fields[0]?.type;
    expect(a).toEqual({
      kind: "object",
      fields: [{ name: "summary", optional: false, type: { kind: "primitive", name: "text" } }],
      typeName: "Plan",
    });
    expect(b?.kind === "array" ? b.element : undefined).toBe(a);
  });

  it("does not depend on declaration order", () => {
    const forward: Types = { A: { b: "B" }, B: { c: "text" } };
    const backward: Types = { B: { c: "text" }, A: { b: "B" } };
    expect(resolveShape({ a: "A" }, forward, "")).toEqual(resolveShape({ a: "A" }, backward, ""));
  });
});

describe("resolveShape: recursion is rejected", () => {
  it.each<[string, Types, string, ShapeProblem[]]>([
    [
      "direct",
      { Node: { value: "text", next: "Node" } },
      "Node",
      [
        {
          path: "/types/Node/next",
          reason: "recursive",
          message: "recursive type: Node → Node",
          typeName: "Node",
          cycle: ["Node", "Node"],
        },
      ],
    ],
    [
      "through an array",
      { Node: { children: "Node[][]" } },
      "Node",
      [
        {
          path: "/types/Node/children",
          reason: "recursive",
          message: "recursive type: Node → Node",
          typeName: "Node",
          cycle: ["Node", "Node"],
        },
      ],
    ],
    [
      "indirect",
      { Node: { child: "Child" }, Child: { "parent?": "Node[]" } },
      "Child",
      [
        {
          path: "/types/Child/parent?",
          reason: "recursive",
          message: "recursive type: Node → Child → Node",
          typeName: "Node",
          cycle: ["Node", "Child", "Node"],
        },
      ],
    ],
    [
      "a longer cycle, reported on the same field from any entry point",
      { A: { b: "B" }, B: { c: "C" }, C: { a: "A[]", t: "text" } },
      "B",
      [
        {
          path: "/types/C/a",
          reason: "recursive",
          message: "recursive type: A → B → C → A",
          typeName: "A",
          cycle: ["A", "B", "C", "A"],
        },
      ],
    ],
  ])("%s", (_title, types, entry, problems) => {
    const result = resolveShape({ root: entry }, types, "/outputSchema");
    expect(result.problems).toEqual(problems);
    // Checking a declaration as a shape reports the same problem once.
    const own = types[entry] ?? {};
    expect(resolveShape(own, types, `/types/${entry}`).problems).toEqual(problems);
  });

  it("degrades only the closing reference", () => {
    const types: Types = { Node: { value: "text", children: "Node[]" } };
    expect(resolveShape({ root: "Node" }, types, "").type.fields).toEqual([
      field("root", {
        kind: "object",
        fields: [
          field("value", { kind: "primitive", name: "text" }),
          field("children", { kind: "array", element: ANY }),
        ],
        typeName: "Node",
      }),
    ]);
  });

  it("problems of unrelated types are not reported", () => {
    const types: Types = { Node: { next: "Node" }, Leaf: { v: "text" } };
    expect(resolveShape({ leaf: "Leaf" }, types, "").problems).toEqual([]);
  });

  it("uses typesPath for problems inside declarations", () => {
    const types: Types = { Node: { next: "Node" } };
    const { problems } = resolveShape({ n: "Node" }, types, "", { typesPath: "/defs" });
    expect(problems.map((p) => p.path)).toEqual(["/defs/Node/next"]);
  });
});

describe("robustness", () => {
  const name = fc.constantFrom("A", "B", "C", "constructor", "__proto__", "text", "x?");
  const expression = fc.oneof(
    fc.constantFrom("A", "B[]", "C[1..2]", "text", "member<t>", "constructor", "__proto__[]"),
    fc.string({ maxLength: 12 }),
  );
  const fieldType = fc.oneof(expression, fc.jsonValue({ maxDepth: 3 }));
  const shapeArb = fc.dictionary(name, fieldType, { maxKeys: 5 });
  const reasons = ["syntax", "unknown-type", "recursive", "invalid-schema", "too-large"];

  it("never throws and reports well-formed problems on arbitrary shapes and types", () => {
    fc.assert(
      fc.property(shapeArb, fc.dictionary(name, shapeArb, { maxKeys: 4 }), (shape, types) => {
        const s = shape as unknown as SchemaShape;
        const ts = types as unknown as Types;
        const { type, problems } = resolveShape(s, ts, "/s");
        expect(type.kind).toBe("object");
        for (const p of problems) {
          expect(reasons).toContain(p.reason);
          expect(p.path.startsWith("/s/") || p.path.startsWith("/types/")).toBe(true);
        }
        expect(({} as Record<string, unknown>).A).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
