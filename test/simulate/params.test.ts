/**
 * Tool params nested 10,000 deep: their templates are found and resolved in document order, and
 * the resolved copy keeps the nesting, at a cost linear in their size.
 */
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate/index.js";
import { edge, llm, records, tool, workflow } from "./builders.js";

/** `{ d: { d: ... leaf, e: [leaf] }, e: [leaf] }`, `depth` levels, built without recursion. */
function nested(depth: number, leaf: string): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { d: value, e: [leaf] };
  return value as Record<string, unknown>;
}

/** The value under `depth` levels of `d`. */
function bottom(value: unknown, depth: number): unknown {
  let current = value;
  for (let i = 0; i < depth; i++) current = (current as { d: unknown }).d;
  return current;
}

const deepTool = workflow(
  [llm("a"), tool("t", { q: nested(10_000, "{{input.q}} and {{a.output.n}}") })],
  [edge("a", "t")],
);

describe("params nested 10,000 deep", () => {
  it("are resolved at every level", () => {
    const state = simulate(deepTool, {
      input: { q: "heat pumps" },
      fixtures: { a: { outputs: [{ n: 2 }] } },
    });
    expect(state.complete).toBe(true);
    const params = records(state, "move")[1]?.params as { q: unknown };
    expect(bottom(params.q, 10_000)).toBe("heat pumps and 2");
    expect(bottom(params.q, 9_999)).toEqual({ d: "heat pumps and 2", e: ["heat pumps and 2"] });
  });

  it("with strictParams, stop at their first unresolvable template", () => {
    const state = simulate(deepTool, {
      fixtures: { a: { outputs: [{ n: 2 }] } },
      strictParams: true,
    });
    expect(state.blockedDecision).toEqual({
      nodeId: "t",
      cell: "execution",
      reason: '{{input.q}}: the input has no field "q"',
    });
  });

  it("by default keep an unresolvable template's text, list it, and go on", () => {
    const state = simulate(deepTool, { fixtures: { a: { outputs: [{ n: 2 }] } } });
    expect(state.complete).toBe(true);
    const move = records(state, "move")[1];
    expect(bottom((move?.params as { q: unknown }).q, 10_000)).toBe("{{input.q}} and 2");
    expect(move?.unresolvedTemplates).toEqual([
      { template: "{{input.q}}", reason: 'the input has no field "q"' },
    ]);
  });
});
