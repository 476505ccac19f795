/**
 * bpmnlint's own rule tester (`bpmnlint/lib/testers/rule-tester`) under vitest, with a typed face.
 * The tester registers its cases with mocha's global `describe`, `it` and `beforeEach`; vitest's
 * functions of the same names take the same arguments, so they are installed as those globals.
 */
import { createRequire } from "node:module";
import { beforeEach, describe, it } from "vitest";
import { BTV_PACKAGE } from "../../../src/bpmn/index.js";
import type { BpmnlintPath, BpmnlintRuleFactory } from "../../../src/bpmn/lint/index.js";

const require = createRequire(import.meta.url);

/** The root bpmnlint lints, as its tester's `createModdle` resolves it. */
export interface CreatedModdle {
  readonly root: unknown;
  readonly warnings: readonly unknown[];
}

/** One expected report of an invalid case, in bpmnlint's key order (id, message, path). */
export interface ExpectedReport {
  readonly id: string;
  readonly message: string;
  readonly path?: BpmnlintPath;
}

interface Case {
  readonly name?: string;
  readonly config?: unknown;
  readonly moddleElement: Promise<CreatedModdle>;
}

/** The cases of one rule: reports must match exactly, and valid cases report nothing. */
export interface RuleCases {
  readonly valid: readonly Case[];
  readonly invalid: readonly (Case & { readonly report: ExpectedReport | ExpectedReport[] })[];
}

interface RuleTester {
  verify(ruleName: string, rule: BpmnlintRuleFactory, cases: RuleCases): void;
}

interface TesterHelper {
  createModdle(
    xml: string,
    moddleExtensions?: Readonly<Record<string, unknown>>,
  ): Promise<CreatedModdle>;
}

Object.assign(globalThis, { describe, it, beforeEach });

const tester = require("bpmnlint/lib/testers/rule-tester") as RuleTester;
const helper = require("bpmnlint/lib/testers/helper") as TesterHelper;
const zeebe = require("zeebe-bpmn-moddle/resources/zeebe.json") as unknown;

/** Registers a `rules/<name>` suite for a rule factory with bpmnlint's tester. */
export function verify(ruleName: string, rule: BpmnlintRuleFactory, cases: RuleCases): void {
  tester.verify(ruleName, rule, cases);
}

/** Parses XML with bpmnlint's tester, the `btv` and `zeebe` packages registered (as in bpmn-js). */
export function moddle(xml: string): Promise<CreatedModdle> {
  return helper.createModdle(xml, { btv: BTV_PACKAGE, zeebe });
}
