/**
 * Validation of the adversarial corpus's large shapes (issue 8 item 3), asserted by value: one
 * decision with 20,000 cases (the corpus has 100,000; this keeps the test fast), and 10,000-deep
 * tool params with a template at every level, including the limit on how many findings of a node
 * TEMPLATE_UNRESOLVABLE lists.
 */
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../bench/generate.js";
import type { Diagnostic } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";
import {
  MAX_TEMPLATE_FINDINGS,
  MAX_TEMPLATE_POINTER_TOKENS,
} from "../../src/validate/template-findings.js";
import { edge, llm, tool, workflow } from "./builders.js";

const validator = createValidator();

function countByCode(diagnostics: readonly Diagnostic[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of diagnostics) out[d.code] = (out[d.code] ?? 0) + 1;
  return out;
}

/** `leaf` under `depth` levels of `{ d: …, e: [leaf] }`: a template at every level. */
function deepParams(depth: number, leaf: string): Record<string, unknown> {
  let current: unknown = leaf;
  for (let k = 0; k < depth; k += 1) current = { d: current, e: [leaf] };
  return { q: current };
}

/** a → t, where the tool's params are `params`. */
const withParams = (params: Record<string, unknown>) =>
  workflow([llm("a"), tool("t", "tool:search@1.0.0", { params })], [edge("a", "t", "toolCall")]);

describe("validate at scale", () => {
  it("checks every case of a decision with 20,000 cases", () => {
    // n0 routes to 19,999 nodes, whose tools read the workflow input: nothing to report.
    expect(validator.validateSync(generateWorkflow(20_000, "wide"))).toEqual([]);
    // The same, but the 10,000 tool nodes read n0's output, and n0 is a decision.
    const diagnostics = validator.validateSync(generateWorkflow(20_000, "wide-findings"));
    expect(countByCode(diagnostics)).toEqual({ TEMPLATE_UNRESOLVABLE: 10_000 });
    const last = diagnostics.filter((d) => d.code === "TEMPLATE_UNRESOLVABLE").at(-1);
    expect(last?.path).toBe("/nodes/19999/config/params/q");
    expect(last?.data).toMatchObject({ nodeId: "n19999", ref: "n0", reason: "decision" });
  });

  it("reports a bad case among 20,000 at its pointer", () => {
    const wf = generateWorkflow(20_000, "wide");
    const [first] = wf.nodes;
    if (first?.type !== "decision" || !("cases" in first.config)) throw new Error("not wide");
    const cases = first.config.cases.map((c, k) =>
      k === 17_777 ? { ...c, condition: "output.route === 17778" } : c,
    );
    const nodes = [{ ...first, config: { ...first.config, cases } }, ...wf.nodes.slice(1)];
    const found = validator
      .validateSync({ ...wf, nodes })
      .filter((d) => d.code.startsWith("CONDITION_"));
    expect(found.map((d) => [d.code, d.path])).toEqual([
      ["CONDITION_JS_OPERATOR", "/nodes/0/config/cases/17777/condition"],
    ]);
  });

  it("finds nothing in 10,000-deep params whose templates all resolve", () => {
    const wf = withParams(deepParams(10_000, "{{input.q}}"));
    expect(validator.validateSync(wf)).toEqual([]);
  });

  it("lists the findings of 10,000-deep params up to the pointer budget, then counts the rest", () => {
    const wf = withParams(deepParams(10_000, "{{input.nope}}"));
    const found = validator.validateSync(wf).filter((d) => d.code === "TEMPLATE_UNRESOLVABLE");
    // Pointers of 10,001, 10,002, 10,001, 10,000 … 9,994 tokens fill the 100,000-token budget
    // after 10 findings; the other 9,991 of the 10,001 bad templates are counted.
    expect(MAX_TEMPLATE_POINTER_TOKENS).toBe(100_000);
    expect(found).toHaveLength(11);
    expect(found[0]?.path).toBe(`/nodes/1/config/params/q${"/d".repeat(10_000)}`);
    expect(found[1]?.path).toBe(`/nodes/1/config/params/q${"/d".repeat(9_999)}/e/0`);
    expect(found[9]?.data).toMatchObject({ ref: "nope", reason: "unknown-input-field" });
    const more = found[10];
    expect(more?.path).toBe("/nodes/1/config/params");
    expect(more?.data).toEqual({
      nodeId: "t",
      reason: "too-many",
      count: 9_991,
      listed: 10,
      limit: MAX_TEMPLATE_FINDINGS,
    });
    expect(more?.message).toBe(
      'tool node "t" has 9991 more templates that cannot be filled, not listed (a node lists at most 100, fewer when its params are thousands of levels deep)',
    );
  });

  it("lists at most 100 findings of a node with flat params", () => {
    const params = Object.fromEntries(
      Array.from({ length: 250 }, (_, k) => [`p${k}`, `{{ghost${k}.output.x}}`]),
    );
    const found = validator
      .validateSync(withParams(params))
      .filter((d) => d.code === "TEMPLATE_UNRESOLVABLE");
    expect(found).toHaveLength(101);
    expect(found[99]?.path).toBe("/nodes/1/config/params/p99");
    expect(found[100]?.data).toMatchObject({ count: 150, listed: 100 });
  });

  it("counts the findings of one string beyond the limit", () => {
    const found = validator
      .validateSync(withParams({ all: "{{}}".repeat(1_000) }))
      .filter((d) => d.code === "TEMPLATE_UNRESOLVABLE");
    expect(found).toHaveLength(101);
    expect(found[0]?.data).toMatchObject({ reason: "empty" });
    expect(found[100]?.data).toMatchObject({ count: 900, listed: 100 });
  });

  it("lists the first finding of 100,000-deep params, whatever its depth", () => {
    const found = validator
      .validateSync(withParams(deepParams(100_000, "{{input.nope}}")))
      .filter((d) => d.code === "TEMPLATE_UNRESOLVABLE");
    expect(found.map((d) => d.data.reason)).toEqual(["unknown-input-field", "too-many"]);
    expect(found[0]?.path.length).toBe("/nodes/1/config/params/q".length + 200_000);
    expect(found[1]?.data).toMatchObject({ count: 100_000, listed: 1 });
  });
});
