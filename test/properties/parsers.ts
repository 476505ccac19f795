/**
 * Properties of the parsers (SPEC 9): whatever the text or value, `parseWorkflowText`,
 * `parseToolContractText`, `parseWorkflow` and `parseToolContract` answer with well-formed
 * diagnostics, return a document exactly when no diagnostic is an error, and pollute nothing.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Diagnostic } from "../../src/model/index.js";
import {
  parseToolContract,
  parseToolContractText,
  parseWorkflow,
  parseWorkflowText,
} from "../../src/model/index.js";
import { validateToolContract } from "../../src/validate/index.js";
import { workflowArb } from "./arbitraries.js";
import { assertDiagnostics, assertNoPollution } from "./checks.js";
import { hostileJsonArb } from "./json.js";
import type { PropertyDef } from "./settings.js";
import { property } from "./settings.js";
import { anyTextArb } from "./texts.js";

const FILE = "test/properties/parsers.property.test.ts";

const hasError = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === "error");

/** Any value a caller may hand over: hostile JSON, fast-check's anything, or a workflow. */
export const anyValueArb: fc.Arbitrary<unknown> = fc.oneof(
  hostileJsonArb,
  fc.anything({ withNullPrototype: true, withSparseArray: true }),
  workflowArb,
);

/** `parseWorkflowText` on any text. */
export function parseWorkflowTextHolds(text: string): void {
  const result = parseWorkflowText(text);
  assertDiagnostics(result.diagnostics, "parseWorkflowText");
  assert.equal(result.workflow === undefined, hasError(result.diagnostics));
  assertNoPollution("parseWorkflowText");
}

/** `parseToolContractText` on any text; a contract that parses also validates. */
export function parseToolContractTextHolds(text: string): void {
  const result = parseToolContractText(text);
  assertDiagnostics(result.diagnostics, "parseToolContractText");
  assert.equal(result.contract === undefined, hasError(result.diagnostics));
  if (result.contract !== undefined) {
    assertDiagnostics(validateToolContract(result.contract), "validateToolContract");
  }
  assertNoPollution("parseToolContractText");
}

/** `parseWorkflow` and `parseToolContract` on any value. */
export function parseValueHolds(value: unknown): void {
  const wf = parseWorkflow(value);
  assertDiagnostics(wf.diagnostics, "parseWorkflow");
  assert.equal(wf.workflow === undefined, hasError(wf.diagnostics));
  const contract = parseToolContract(value);
  assertDiagnostics(contract.diagnostics, "parseToolContract");
  assert.equal(contract.contract === undefined, hasError(contract.diagnostics));
  assertNoPollution("parseWorkflow");
}

/** Parsing a workflow's JSON text finds what parsing the value finds, with positions added. */
export function textAgreesWithValue(value: unknown): void {
  const text = JSON.stringify(value);
  const fromValue = parseWorkflow(JSON.parse(text));
  const fromText = parseWorkflowText(text);
  const key = (d: Diagnostic): string => `${d.code} ${d.severity} ${d.path}`;
  assert.deepEqual(fromText.diagnostics.map(key), fromValue.diagnostics.map(key));
  assert.deepEqual(fromText.workflow, fromValue.workflow);
}

/** The parser properties. */
export const PARSER_PROPERTIES: readonly PropertyDef[] = [
  property("parseWorkflowText: any text", FILE, 1_000, anyTextArb, parseWorkflowTextHolds),
  property("parseToolContractText: any text", FILE, 600, anyTextArb, parseToolContractTextHolds),
  property(
    "parseWorkflow, parseToolContract: any value",
    FILE,
    1_000,
    anyValueArb,
    parseValueHolds,
  ),
  property(
    "parseWorkflowText agrees with parseWorkflow on JSON",
    FILE,
    500,
    fc.oneof(workflowArb, hostileJsonArb),
    textAgreesWithValue,
  ),
];
