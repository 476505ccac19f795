/**
 * The seed-dialect rewrite of conditions (issue 18, item 3): it never changes a condition that
 * is FEEL as written, and a condition written in the seed's JavaScript-like form reads as the
 * FEEL it was translated from — the same fields, the same structure, the same verdict.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeCondition, applyRewrites } from "../../src/model/condition/index.js";
import { evaluateCondition } from "../../src/model/index.js";
import type { PropertyDef } from "./settings.js";
import { property } from "./settings.js";

const FILE = "test/properties/conditions.property.test.ts";

/** A FEEL condition and the same condition in the seed's dialect. */
interface Pair {
  readonly feel: string;
  readonly js: string;
}

const field = fc.constantFrom("a", "b", "done", "n", "status");
/** Strings whose text holds what the dialect rewrites: it must stay data. */
const text = fc.constantFrom("x", "a && b", "!x", "it's", "a || b", "==", "");

const comparison: fc.Arbitrary<Pair> = fc.oneof(
  fc
    .tuple(field, fc.constantFrom("=", "!=", "<", ">", "<=", ">="), fc.integer({ min: -5, max: 5 }))
    .map(([f, op, v]) => ({
      feel: `output.${f} ${op} ${String(v)}`,
      js: `output.${f} ${op === "=" ? "===" : op === "!=" ? "!==" : op} ${String(v)}`,
    })),
  fc.tuple(field, text).map(([f, t]) => ({
    feel: `output.${f} = ${JSON.stringify(t)}`,
    // Single quotes where the text has none; the dialect reads both.
    js: t.includes("'") ? `output.${f} === ${JSON.stringify(t)}` : `output.${f} === '${t}'`,
  })),
  field.map((f) => ({ feel: `output.${f} = true`, js: `output.${f} === true` })),
);

const conditionArb: fc.Arbitrary<Pair> = fc.letrec<{ expr: Pair }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    comparison,
    fc.tuple(tie("expr"), fc.constantFrom("and", "or"), tie("expr")).map(([l, op, r]) => ({
      feel: `(${l.feel}) ${op} (${r.feel})`,
      js: `(${l.js}) ${op === "and" ? "&&" : "||"} (${r.js})`,
    })),
    tie("expr").map((e) => ({ feel: `not(${e.feel})`, js: `!(${e.js})` })),
  ),
})).expr;

const outputArb = fc.record({
  a: fc.integer({ min: -5, max: 5 }),
  b: fc.integer({ min: -5, max: 5 }),
  done: fc.boolean(),
  n: fc.integer({ min: -5, max: 5 }),
  status: fc.constantFrom("x", "a && b", "it's", ""),
});

/** FEEL as written is never rewritten; the dialect reads as its FEEL, with the same verdict. */
export function dialectHolds([pair, output]: [Pair, Record<string, unknown>]): void {
  const feel = analyzeCondition(pair.feel);
  assert.ok(feel.ok, `not FEEL: ${pair.feel}`);
  assert.deepEqual(feel.rewrites, [], `FEEL was rewritten: ${pair.feel}`);
  const js = analyzeCondition(pair.js);
  assert.ok(js.ok, `the dialect was not read: ${pair.js}`);
  assert.deepEqual(js.fields, feel.fields);
  assert.equal(js.structured, feel.structured);
  const read = applyRewrites(pair.js, js.rewrites);
  // The verdict: a value, or none (the message quotes the text as written, so it may differ).
  const verdictOf = (condition: string): unknown => {
    const r = evaluateCondition(condition, output);
    return "value" in r ? r.value : "undecidable";
  };
  const verdict = verdictOf(pair.feel);
  assert.deepEqual(verdictOf(read), verdict, `${pair.js} read as ${read}`);
  assert.deepEqual(verdictOf(pair.js), verdict, `${pair.js} evaluated`);
}

/** The condition properties. */
export const CONDITION_PROPERTIES: readonly PropertyDef[] = [
  property(
    "rewriteJsDialect: FEEL unchanged, the dialect read as its FEEL",
    FILE,
    500,
    fc.tuple(conditionArb, outputArb),
    dialectHolds,
  ),
];
