/**
 * The shapes of a `RuleTester` table: valid and invalid cases for a workflow rule or a process
 * rule, what an invalid case expects of each finding, and the test framework functions the
 * tester registers its cases with.
 */
import type { GateOptions, ReadOptions } from "../bpmn/index.js";
import type {
  AgentWorkflow,
  DiagnosticTarget,
  Severity,
  SeveritySetting,
  SourceLocation,
} from "../model/index.js";
import type { Resolvers } from "../validate/index.js";

/**
 * How a process case is evaluated: everything `checkProcess` takes but the rules, which are the
 * rule under test alone, at the case's `severity` and `options`.
 */
export type ProcessGateOptions = Omit<GateOptions, "ruleSet" | "rules"> & ReadOptions;

/** What every case has. */
export interface CaseBase {
  /** The test's name (`valid: <name>`, `invalid: <name>`). */
  readonly name: string;
  /** The rule's options (checked against its `meta.schema`); none by default. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The severity the rule is configured at; its `defaultSeverity` by default. */
  readonly severity?: SeveritySetting;
  /** Runs this case alone (with `RuleTester.itOnly`), as `it.only` does. */
  readonly only?: boolean;
}

/** A case of a workflow rule (`meta.scope` absent or `workflow`). */
export interface WorkflowValidCase extends CaseBase {
  /** The workflow, as an object or as YAML/JSON text (then findings carry line and column). */
  readonly workflow: AgentWorkflow | string;
  /** Where tool contracts, delegates and prompts are found (merged over the tester's own). */
  readonly resolvers?: Resolvers;
}

/** A case of a process rule (`meta.scope: "process"`). */
export interface ProcessValidCase extends CaseBase {
  /** The BPMN XML. */
  readonly xml: string;
  /** Resolvers, gate predicate and selectors, policy… (merged over the tester's own). */
  readonly gate?: ProcessGateOptions;
}

/**
 * One finding an invalid case expects. Every field given must match; `data` is a subset match
 * (nested objects too; arrays match element by element and must have the same length; a
 * `RegExp` matches a string).
 */
export interface ExpectedError {
  /** The rule's code; the findings tested are the rule's own, so this guards against typos. */
  readonly code?: string;
  /** A key of the rule's `meta.messages`; naming one it does not define fails the case. */
  readonly messageId?: string;
  /** The worded message, exactly or as a pattern. */
  readonly message?: string | RegExp;
  readonly target?: DiagnosticTarget;
  /** JSON Pointer into the document. */
  readonly path?: string;
  readonly data?: Readonly<Record<string, unknown>>;
  /** The configured severity of the case by default, so a severity is always checked. */
  readonly severity?: Severity;
  /** The BPMN element of a process finding (`target.elementId`). */
  readonly elementId?: string;
  /** Line and column: process findings, and workflow cases given as text. */
  readonly location?: SourceLocation;
}

/** A workflow case with findings, in order. */
export interface WorkflowInvalidCase extends WorkflowValidCase {
  readonly errors: readonly ExpectedError[];
}

/** A process case with findings, in order. */
export interface ProcessInvalidCase extends ProcessValidCase {
  readonly errors: readonly ExpectedError[];
}

/** A case with no finding of the rule. */
export type ValidCase = WorkflowValidCase | ProcessValidCase;

/** A case with findings of the rule. */
export type InvalidCase = WorkflowInvalidCase | ProcessInvalidCase;

/** The table of one rule. */
export interface RuleTests {
  readonly valid: readonly ValidCase[];
  readonly invalid: readonly InvalidCase[];
}

/** What every case of one tester starts from; a case's own values are merged over them. */
export interface RuleTesterDefaults {
  /** Resolvers of workflow cases. */
  readonly resolvers?: Resolvers;
  /** Gate options of process cases. */
  readonly gate?: ProcessGateOptions;
}

/** A test framework's `describe` (vitest, jest, mocha, node:test). */
export type DescribeFunction = (name: string, body: () => void) => unknown;

/** A test framework's `it`; the body's promise settles when the case has passed or failed. */
export type ItFunction = (name: string, body: () => Promise<void>) => unknown;
