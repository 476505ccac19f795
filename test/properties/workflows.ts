/**
 * Properties of what runs on a workflow: `validate` never crashes a rule and agrees with
 * `validateSync`; `simulate` and `explore` are byte-identical across runs and keep their bounds;
 * `exportMermaid` is deterministic; `canonicalJson` and `contentHash` ignore key order;
 * `assessAutonomy` always answers a level.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { assessAutonomy } from "../../src/autonomy/index.js";
import { exportMermaid } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { canonicalJson, contentHash, parseWorkflow } from "../../src/model/index.js";
import type { SimulateOptions } from "../../src/simulate/index.js";
import { explore, runUsage, simulate } from "../../src/simulate/index.js";
import type { Resolvers } from "../../src/validate/index.js";
import { createValidator } from "../../src/validate/index.js";
import { PLAIN_IDS, PROTO_IDS, workflowArb } from "./arbitraries.js";
import { assertDiagnostics, assertNoPollution, orTypeError } from "./checks.js";
import { hostileJsonArb, reorderKeys } from "./json.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty, property } from "./settings.js";

const FILE = "test/properties/workflows.property.test.ts";

const outputArb = fc.dictionary(
  fc.constantFrom("done", "n", "kind", "items", "__proto__", "q"),
  fc.oneof(
    fc.boolean(),
    fc.integer({ min: -2, max: 6 }),
    fc.constantFrom("a", "b"),
    fc.constant([1, 2, 3]),
  ),
  { maxKeys: 4 },
);

/** Simulation options: fixtures and decide tables keyed by the arbitrary's node ids. */
export const optionsArb: fc.Arbitrary<SimulateOptions> = fc
  .record({
    fixtures: fc.dictionary(
      fc.constantFrom(...PLAIN_IDS, ...PROTO_IDS),
      fc.record({ outputs: fc.array(outputArb, { maxLength: 3 }), fails: fc.nat(3) }),
      { maxKeys: 4 },
    ),
    decide: fc.dictionary(
      fc.constantFrom(...PLAIN_IDS, ...PROTO_IDS),
      fc.array(fc.constantFrom("onTrue", "onFalse", "cases/0", "cases/1", "otherwise", "x"), {
        maxLength: 3,
      }),
      { maxKeys: 3 },
    ),
    maxSteps: fc.integer({ min: 0, max: 60 }),
    withDecide: fc.boolean(),
  })
  .map(({ withDecide, decide, ...rest }) => ({
    ...rest,
    input: { q: "x" },
    ...(withDecide ? { decide } : {}),
  }));

const RESOLVED_TOOL = {
  kind: "ToolContract",
  id: "tool:search",
  version: "1.0.0",
  name: "Search",
  inputSchema: { q: "text" },
  outputSchema: { items: "text[]" },
  effect: "write-irreversible",
  authorization: "gate",
};

const RESOLVERS: Resolvers = {
  resolveTool: (ref) => (ref.startsWith("tool:search@1") ? RESOLVED_TOOL : undefined),
  resolveDelegate: (ref) => (ref === "agnt-x@1.0.0" ? { kind: "AgentWorkflow" } : undefined),
};
const validators = [createValidator(), createValidator({ preset: "strict", resolvers: RESOLVERS })];

/** `validate` on any workflow: well-formed diagnostics, no crashed rule, same as validateSync. */
export async function validateHolds(wf: AgentWorkflow): Promise<void> {
  for (const validator of validators) {
    const diagnostics = await validator.validate(wf);
    assertDiagnostics(diagnostics, "validate");
    assert.deepEqual(validator.validateSync(wf), diagnostics);
  }
  assertNoPollution("validate");
}

/** `validate` when the registry answers anything at all: no crashed rule, no throw. */
export async function resolversHold([wf, tool, delegate]: [
  AgentWorkflow,
  unknown,
  unknown,
]): Promise<void> {
  const validator = createValidator({
    preset: "strict",
    resolvers: { resolveTool: () => tool, resolveDelegate: () => delegate },
  });
  assertDiagnostics(await validator.validate(wf), "validate with resolvers");
  assertNoPollution("validate with resolvers");
}

/** `simulate` twice gives the same bytes; the run ends exactly one way within maxSteps. */
export function simulateHolds([wf, options]: [AgentWorkflow, SimulateOptions]): void {
  if (parseWorkflow(wf).workflow === undefined) return;
  const first = simulate(wf, options);
  const again = simulate(structuredClone(wf), structuredClone(options));
  assert.equal(JSON.stringify(again), JSON.stringify(first));
  assert.equal(first.complete, first.blockedDecision === null);
  assert.ok(runUsage(first).steps <= (options.maxSteps ?? Infinity));
  assertNoPollution("simulate");
}

/** `explore` twice gives the same bytes, and never reports more runs than asked. */
export function exploreHolds([wf, options]: [AgentWorkflow, SimulateOptions]): void {
  if (parseWorkflow(wf).workflow === undefined) return;
  const exploreOptions = {
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    input: { q: "x" },
    maxRuns: 12,
    maxRevisits: 1,
  };
  const report = explore(wf, exploreOptions);
  assert.ok(report.runs.length <= 12);
  assert.equal(
    JSON.stringify(explore(structuredClone(wf), exploreOptions)),
    JSON.stringify(report),
  );
  assertNoPollution("explore");
}

/** Options of any shape: a run, or a TypeError (the documented misuse error), never anything else. */
export function anyOptionsHold([wf, options]: [AgentWorkflow, unknown]): void {
  if (parseWorkflow(wf).workflow === undefined) return;
  orTypeError(() => simulate(wf, options as SimulateOptions));
  orTypeError(() => explore(wf, { ...(options as SimulateOptions), maxRuns: 4 }));
  assertNoPollution("simulate options");
}

/** `exportMermaid` is deterministic, starts with the chart header, and never leaks raw ids. */
export function mermaidHolds(wf: AgentWorkflow): void {
  const text = exportMermaid(wf);
  assert.equal(exportMermaid(structuredClone(wf)), text);
  assert.ok(text.startsWith("flowchart TD"));
  for (const line of text.split("\n").slice(1)) {
    assert.equal(line.split('"').length % 2, 1, `unbalanced quotes in ${line}`);
  }
}

/** Canonical JSON and the content hash do not depend on key order. */
export function canonicalHolds([value, seed]: [unknown, number]): void {
  const reordered = reorderKeys(value, seed);
  assert.equal(canonicalJson(reordered), canonicalJson(value));
  assert.equal(contentHash(reordered), contentHash(value));
  assert.deepEqual(JSON.parse(canonicalJson(value)), JSON.parse(JSON.stringify(value)));
}

/** `assessAutonomy` answers a level from 0 to 5 with reasons, for any workflow. */
export function autonomyHolds(wf: AgentWorkflow): void {
  const { level, reasons } = assessAutonomy(wf);
  assert.ok(Number.isInteger(level) && level >= 0 && level <= 5, `level ${level}`);
  assert.ok(Array.isArray(reasons));
}

const withOptions = fc.tuple(workflowArb, optionsArb);

/** The workflow properties. */
export const WORKFLOW_PROPERTIES: readonly PropertyDef[] = [
  asyncProperty("validate: any workflow", FILE, 500, workflowArb, validateHolds),
  asyncProperty(
    "validate: resolvers return any value",
    FILE,
    300,
    fc.tuple(workflowArb, fc.oneof(hostileJsonArb, fc.constant(RESOLVED_TOOL)), hostileJsonArb),
    resolversHold,
  ),
  property("simulate: byte-identical, bounded", FILE, 600, withOptions, simulateHolds),
  property(
    "simulate, explore: options of any shape",
    FILE,
    300,
    fc.tuple(
      workflowArb,
      fc.oneof(
        fc.anything({ withNullPrototype: true }),
        optionsArb.map((o) => ({ ...o, maxSteps: Math.min(o.maxSteps ?? 0, 30) })),
        fc.record({ fixtures: hostileJsonArb, decide: hostileJsonArb, input: hostileJsonArb }),
      ),
    ),
    anyOptionsHold,
  ),
  property("explore: byte-identical, bounded", FILE, 300, withOptions, exploreHolds),
  property("exportMermaid: deterministic", FILE, 1_000, workflowArb, mermaidHolds),
  property(
    "canonicalJson, contentHash: key order does not matter",
    FILE,
    800,
    fc.tuple(fc.oneof(workflowArb, hostileJsonArb), fc.nat()),
    canonicalHolds,
  ),
  property("assessAutonomy: any workflow", FILE, 1_000, workflowArb, autonomyHolds),
];
