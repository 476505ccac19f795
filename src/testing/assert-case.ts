/**
 * The assertions of one case, with `node:assert/strict` so that any test framework (or none)
 * reports them: no rule crashed, a valid case has no finding of the rule, an invalid case has
 * exactly the expected findings in order, every message is fully worded, and a second
 * evaluation agrees.
 */
import { AssertionError, strict as assert } from "node:assert";
import type { Diagnostic, Severity } from "../model/index.js";
import type { AnyRule } from "../rules/index.js";
import { RULE_CRASHED } from "../rules/index.js";
import type { ReportLog } from "./capture.js";
import { unfilled } from "./capture.js";
import type { Outcome } from "./run-case.js";
import type { ExpectedError, InvalidCase, ValidCase } from "./types.js";

/** Runs `check`, naming `label` in front of the message of an assertion that fails. */
function labelled(label: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof AssertionError) error.message = `${label}: ${error.message}`;
    throw error;
  }
}

function idsText(ids: readonly string[]): string {
  return ids.length === 0 ? "unknown" : ids.map((id) => `'${id}'`).join(" or ");
}

/** The findings, one line each, for a failure message. */
function listing(rule: AnyRule, log: ReportLog, findings: readonly Diagnostic[]): string {
  return findings
    .map((d, i) => {
      const element = d.target.kind === "bpmn-element" ? ` on '${d.target.elementId}'` : "";
      const ids = idsText(log.messageIdsOf(rule.meta, d));
      return `  ${String(i + 1)}. ${d.severity} ${d.code} (messageId ${ids}) at ${d.path === "" ? "/" : d.path}${element}: ${d.message}`;
    })
    .join("\n");
}

const isPlain = (value: unknown): value is Readonly<Record<string, unknown>> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * `actual` cut down to what `expected` names, so that a deep comparison is a subset match whose
 * failure still shows a readable difference. A pattern stands for the string it matches.
 */
function project(actual: unknown, expected: unknown): unknown {
  if (expected instanceof RegExp) {
    return typeof actual === "string" && new RegExp(expected.source, expected.flags).test(actual)
      ? expected
      : actual;
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length
      ? actual.map((value: unknown, i) => project(value, expected[i]))
      : actual;
  }
  if (!isPlain(expected) || !isPlain(actual)) return actual;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) {
    if (Object.hasOwn(actual, key)) {
      Object.defineProperty(out, key, {
        value: project(actual[key], expected[key]),
        enumerable: true,
      });
    }
  }
  return out;
}

/** One finding against what the case expects of it. */
function assertFinding(
  rule: AnyRule,
  log: ReportLog,
  expected: ExpectedError,
  actual: Diagnostic,
  configured: Severity,
): void {
  if (expected.messageId !== undefined) {
    const ids = log.messageIdsOf(rule.meta, actual);
    if (!ids.includes(expected.messageId)) {
      assert.fail(
        `expected messageId '${expected.messageId}' but the finding's is ${idsText(ids)} ("${actual.message}")`,
      );
    }
  }
  if (typeof expected.message === "string") assert.equal(actual.message, expected.message);
  else if (expected.message !== undefined) assert.match(actual.message, expected.message);
  const wanted: Record<string, unknown> = {};
  const got: Record<string, unknown> = {};
  const elementId = actual.target.kind === "bpmn-element" ? actual.target.elementId : undefined;
  const fields: readonly [keyof ExpectedError, unknown][] = [
    ["code", actual.code],
    ["target", actual.target],
    ["path", actual.path],
    ["elementId", elementId],
    ["location", actual.location],
  ];
  for (const [key, value] of fields) {
    if (expected[key] === undefined) continue;
    wanted[key] = expected[key];
    got[key] = value;
  }
  wanted.severity = expected.severity ?? configured;
  got.severity = actual.severity;
  if (expected.data !== undefined) {
    wanted.data = expected.data;
    got.data = project(actual.data, expected.data);
  }
  assert.deepStrictEqual(got, wanted);
}

/** Every placeholder of the finding's templates has a value in its data. */
function assertWorded(rule: AnyRule, log: ReportLog, d: Diagnostic): void {
  const ids = log.messageIdsOf(rule.meta, d);
  const id = ids[0];
  const template =
    id !== undefined && Object.hasOwn(rule.meta.messages, id) ? rule.meta.messages[id] : undefined;
  const missing =
    template === undefined
      ? d.message.includes("{{")
        ? ["(a placeholder left in the message)"]
        : []
      : unfilled(template, d.data).map((name) => `{{${name}}}`);
  if (rule.meta.remediation !== undefined) {
    missing.push(
      ...unfilled(rule.meta.remediation, d.data).map((name) => `{{${name}}} (remediation)`),
    );
  }
  if (missing.length > 0) {
    assert.fail(`"${d.message}": its data has no value for ${missing.join(", ")}`);
  }
}

/** The assertions of one case; throws an `AssertionError` saying what failed. */
export function assertCase(
  rule: AnyRule,
  c: ValidCase | InvalidCase,
  outcome: Outcome,
  configured: Severity,
): void {
  const { findings, log } = outcome;
  const crashed = outcome.all.filter((d) => d.code === RULE_CRASHED);
  if (crashed.length > 0) {
    assert.fail(`${RULE_CRASHED}: ${crashed.map((d) => d.message).join("; ")}`);
  }
  const errors = "errors" in c ? c.errors : [];
  if (findings.length !== errors.length) {
    const count = (n: number) =>
      n === 0 ? "no errors" : n === 1 ? "1 error" : `${String(n)} errors`;
    const had =
      findings.length === 0
        ? "none"
        : `${String(findings.length)}:\n${listing(rule, log, findings)}`;
    assert.fail(`Should have ${count(errors.length)} of ${rule.meta.code} but had ${had}`);
  }
  errors.forEach((expected, i) => {
    const actual = findings[i];
    if (actual === undefined) return;
    labelled(`error ${String(i + 1)}`, () => {
      assertFinding(rule, log, expected, actual, configured);
    });
  });
  findings.forEach((d, i) => {
    labelled(`error ${String(i + 1)}`, () => {
      assertWorded(rule, log, d);
    });
  });
  outcome.agree?.();
}
