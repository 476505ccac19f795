/**
 * A plugin's report is checked when it is made: `data` plain JSON data, `path` a string, a
 * target of a documented shape, a severity that exists. A bad one is the rule's own mistake:
 * `RULE_CRASHED` naming the rule and saying what is wrong, which blocks — never an exit 3 in
 * one output format and a lost or non-blocking finding in another.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import type { AgentWorkflow, Diagnostic } from "../../src/model/index.js";
import type { Plugin } from "../../src/rules/index.js";
import { defineRule, RULE_CRASHED } from "../../src/rules/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { createValidator } from "../../src/validate/index.js";

const XML = readFileSync("examples/processes/loan-origination.bpmn", "utf8");
const WORKFLOW = JSON.parse(
  readFileSync("examples/registry/offer-sender.agent.json", "utf8"),
) as AgentWorkflow;

const META = {
  defaultSeverity: "error",
  description: "reports",
  docs: "https://example.com/rule",
  messages: { default: "finding {{id}}" },
} as const;

/** A plugin `bad` whose rule `R` makes the report `made()` gives (and catches, if `swallow`). */
function plugin(scope: "workflow" | "process", made: () => unknown, swallow = false) {
  const report = (context: { report(r: never): void }): void => {
    try {
      context.report(made() as never);
    } catch (error) {
      if (!swallow) throw error;
    }
  };
  const rule =
    scope === "workflow"
      ? defineRule<RuleContext>({ meta: { code: "R", ...META }, check: report })
      : defineRule<BpmnRuleContext>({
          meta: { code: "R", scope: "process", ...META },
          check: report,
        });
  const bad: Plugin = { meta: { name: "bad", version: "1.0.0" }, rules: { R: rule } };
  return { bad };
}

const cyclic = (): Record<string, unknown> => {
  const o: Record<string, unknown> = { id: "x" };
  o.self = o;
  return o;
};
const getter = () => ({
  id: "x",
  get boom(): never {
    throw new Error("boom getter");
  },
});

/** Bad data, the same in either scope: [case, data, what the crash says]. */
const DATA: readonly (readonly [string, () => unknown, string])[] = [
  [
    "a BigInt",
    () => ({ id: "x", n: 10n }),
    "its report's data/n is the BigInt 10n, not a JSON number",
  ],
  ["a cycle", cyclic, "its report's data/self contains itself"],
  [
    "a function",
    () => ({ id: "x", f: () => "x" }),
    "its report's data/f is a function, which has no JSON form",
  ],
  [
    "a toJSON",
    () => ({ id: "x", extra: { toJSON: () => "x" } }),
    "its report's data/extra/toJSON is a function, which has no JSON form",
  ],
  ["a getter that throws", getter, "reading its report's data threw: boom getter"],
  ["NaN", () => ({ id: Number.NaN }), "its report's data/id is NaN, not a JSON number"],
  [
    "a Map",
    () => ({ id: new Map() }),
    "its report's data/id is not a plain object or array (JSON would flatten it)",
  ],
  [
    "a lone surrogate",
    () => ({ id: "\ud800" }),
    "its report's data/id holds a lone surrogate, which is not Unicode text",
  ],
  ["an array", () => ["x"], "its report's data must be an object of JSON data, not an array"],
];

const TARGETS =
  '{ kind: "workflow" }, { kind: "node", nodeId }, { kind: "edge", index, from, to } or { kind: "bpmn-element", elementId }';

/** Workflow reports: [case, report, what the crash says]. */
const WORKFLOW_REPORTS: readonly (readonly [string, () => unknown, string])[] = [
  [
    "no target, no path",
    () => ({ data: { id: "x" } }),
    `its report's target must be ${TARGETS}, not undefined`,
  ],
  [
    "a null target",
    () => ({ target: null, path: "", data: {} }),
    `its report's target must be ${TARGETS}, not null`,
  ],
  [
    "a string target",
    () => ({ target: "n1", path: "", data: {} }),
    `its report's target must be ${TARGETS}, not "n1"`,
  ],
  [
    "an edge target without its ends",
    () => ({ target: { kind: "edge", index: 9 }, path: "", data: {} }),
    `its report's target must be ${TARGETS}, not an object of kind "edge"`,
  ],
  [
    "a numeric path",
    () => ({ target: { kind: "workflow" }, path: 5, data: {} }),
    `its report's path must be a JSON Pointer string ("" for the whole workflow), not 5`,
  ],
  [
    "a numeric messageId",
    () => ({ target: { kind: "workflow" }, path: "", data: {}, messageId: 1 }),
    "its report's messageId must be a string, not 1",
  ],
  ["no report at all", () => null, "it reported null, not a report object"],
  ...DATA.map(
    ([name, data, says]) =>
      [
        `data holding ${name}`,
        () => ({ target: { kind: "workflow" }, path: "", data: data() }),
        says,
      ] as const,
  ),
];

/** Process reports: [case, report, what the crash says]. */
const PROCESS_REPORTS: readonly (readonly [string, () => unknown, string])[] = [
  [
    'severity "critical"',
    () => ({ elementId: "DraftAndSendOffer", path: "", severity: "critical", data: { id: "x" } }),
    'its report\'s severity must be "error", "warning" or "info" (or absent), not "critical"',
  ],
  [
    "no path",
    () => ({ elementId: "DraftAndSendOffer", data: {} }),
    'its report\'s path must be a JSON Pointer string ("" when unknown), not undefined',
  ],
  [
    "no element",
    () => ({ path: "", data: {} }),
    'its report\'s elementId must be an element id ("" for the document), not undefined',
  ],
  [
    "a location of text",
    () => ({ elementId: "", path: "", location: { line: "x" }, data: {} }),
    "its report's location must be { line, column }, whole numbers from 1, or absent",
  ],
  ...DATA.map(
    ([name, data, says]) =>
      [
        `data holding ${name}`,
        () => ({ elementId: "DraftAndSendOffer", path: "", data: data() }),
        says,
      ] as const,
  ),
];

/** What a run says of rule `bad/R`: its crash's detail, or its findings' severities. */
function said(diagnostics: readonly Diagnostic[]): string[] {
  // Every finding reaches every output: each must be JSON, and cloneable for a worker thread.
  structuredClone(diagnostics);
  JSON.parse(JSON.stringify(diagnostics));
  return diagnostics.flatMap((d) => {
    if (d.code === RULE_CRASHED && d.data.rule === "bad/R")
      return [`crashed: ${String(d.data.error)}`];
    return d.code === "bad/R" ? [`${d.severity}: ${d.message}`] : [];
  });
}

describe("a plugin's workflow report", () => {
  it.each(WORKFLOW_REPORTS)("%s: RULE_CRASHED saying so", async (_, made, says) => {
    const validator = createValidator({ plugins: plugin("workflow", made) });
    expect(said(validator.validateSync(structuredClone(WORKFLOW)))).toEqual([`crashed: ${says}`]);
    expect(said(await validator.validate(structuredClone(WORKFLOW)))).toEqual([`crashed: ${says}`]);
  });
});

describe("a plugin's process report", () => {
  it.each(PROCESS_REPORTS)("%s: RULE_CRASHED saying so, and blocking", async (_, made, says) => {
    const decision = await checkProcess(XML, { plugins: plugin("process", made) });
    expect(decision.allowed).toBe(false);
    expect(said(decision.blocking)).toEqual([`crashed: ${says}`]);
    expect(said(decision.warnings)).toEqual([]);
  });
});

describe("a plugin that catches the error its bad report raised", () => {
  it.each([
    [
      "workflow",
      () => ({ target: null, path: "", data: {} }),
      `its report's target must be ${TARGETS}, not null`,
    ],
    [
      "process",
      () => ({ elementId: "", path: "", severity: "blocker", data: {} }),
      'its report\'s severity must be "error", "warning" or "info" (or absent), not "blocker"',
    ],
  ] as const)("%s: still crashed, its finding never lost", async (scope, made, says) => {
    const found =
      scope === "workflow"
        ? createValidator({ plugins: plugin(scope, made, true) }).validateSync(
            structuredClone(WORKFLOW),
          )
        : (await checkProcess(XML, { plugins: plugin(scope, made, true) })).blocking;
    expect(said(found)).toEqual([`crashed: ${says}`]);
  });
});
