/**
 * `RuleTester`: table-driven tests of a rule, workflow or process, in the manner of ESLint's and
 * typescript-eslint's. It registers one `describe` per rule and one `it` per case with whatever
 * test framework is there, and runs the cases itself when there is none.
 */
import type { AnyRule } from "../rules/index.js";
import { defineRule } from "../rules/index.js";
import { assertCase } from "./assert-case.js";
import { configuredSeverity, processOutcome, workflowOutcome } from "./run-case.js";
import { caseProblem, gateProblem, tableProblem } from "./table.js";
import type {
  DescribeFunction,
  InvalidCase,
  ItFunction,
  ProcessValidCase,
  RuleTesterDefaults,
  RuleTests,
  ValidCase,
  WorkflowValidCase,
} from "./types.js";

/** A case with the test name it runs under. */
interface Planned {
  readonly label: string;
  readonly kind: "valid" | "invalid";
  readonly c: ValidCase | InvalidCase;
  readonly only: boolean;
}

/** A function the test framework defines as a global (`describe`, `it`), if it does. */
function globalFunction(name: string): unknown {
  const value: unknown = Reflect.get(globalThis, name);
  return typeof value === "function" ? value : undefined;
}

function nameOf(c: unknown, i: number): string {
  const name: unknown = typeof c === "object" && c !== null ? Reflect.get(c, "name") : undefined;
  return typeof name === "string" && name !== "" ? name : `#${String(i + 1)}`;
}

function plan(kind: "valid" | "invalid", cases: readonly (ValidCase | InvalidCase)[]): Planned[] {
  return cases.map((c, i) => ({
    label: `${kind}: ${nameOf(c, i)}`,
    kind,
    c,
    only: typeof c === "object" && (c as { only?: unknown }).only === true,
  }));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What `defineRule` finds wrong with the rule (a rule made without it is checked the same). */
function ruleProblem(rule: AnyRule): string | undefined {
  try {
    defineRule(rule);
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * Tests one rule against a table of valid cases (no finding of the rule) and invalid cases
 * (exactly the findings listed, in order: code, messageId, message, target, path, a subset of
 * `data`, severity, element, location). Every case also fails when the rule crashes
 * (`RULE_CRASHED`), reports a messageId its `meta.messages` does not define, leaves a
 * placeholder of a message without data, or — for a process rule — finds something else when
 * the process is evaluated synchronously. A workflow rule's case is run with `createValidator`,
 * a process rule's with `checkProcess`, the rule under test alone, at the case's `severity`
 * and `options`.
 *
 * @example
 * ```ts
 * import { defineRule } from "agentflow/rules";
 * import { RuleTester } from "agentflow/testing";
 * import type { RuleContext } from "agentflow/validate";
 *
 * // The organisation allows its agents only some models.
 * const rule = defineRule<RuleContext>({
 *   meta: {
 *     code: "MODEL_ALLOWED",
 *     defaultSeverity: "error",
 *     description: "An llm node uses a model outside the allow-list",
 *     docs: "https://example.com/policy/MODEL_ALLOWED",
 *     messages: { default: 'node "{{nodeId}}" uses {{model}}, which is not allowed' },
 *     schema: {
 *       type: "object",
 *       properties: { models: { type: "array", items: { type: "string" } } },
 *       additionalProperties: false,
 *     },
 *   },
 *   check({ workflow, options, report }) {
 *     const allowed = Array.isArray(options.models) ? options.models : [];
 *     workflow.nodes.forEach((node, i) => {
 *       if (node.type !== "llm" || allowed.includes(node.config.model)) return;
 *       report({
 *         target: { kind: "node", nodeId: node.id },
 *         path: `/nodes/${String(i)}/config/model`,
 *         data: { nodeId: node.id, model: node.config.model },
 *       });
 *     });
 *   },
 * });
 *
 * const workflow = (model: string) => `kind: AgentWorkflow
 * id: agnt-summary
 * version: 1.0.0
 * name: Summary
 * autonomyLevel: 1
 * inputSchema: { text: text }
 * outputSchema: { summary: text }
 * nodes:
 *   - id: write
 *     type: llm
 *     config: { model: ${model}, promptRef: prm:summary@1.0.0, structuredOutput: true }
 * edges: []
 * `;
 * const options = { models: ["gpt-4o"] };
 *
 * // Under vitest, jest, mocha or node:test: `RuleTester.describe = describe` and
 * // `RuleTester.it = it` (globals are used as they are). With neither, `run` runs the cases
 * // itself, and its promise rejects with every failed case.
 * const tester = new RuleTester();
 * await tester.run("MODEL_ALLOWED", rule, {
 *   valid: [{ name: "an allowed model", workflow: workflow("gpt-4o"), options }],
 *   invalid: [
 *     {
 *       name: "a model outside the list",
 *       workflow: workflow("o1-preview"),
 *       options,
 *       errors: [
 *         {
 *           messageId: "default",
 *           path: "/nodes/0/config/model",
 *           data: { model: "o1-preview" },
 *           location: { line: 11, column: 22 },
 *         },
 *       ],
 *     },
 *   ],
 * });
 *
 * // a table that does not hold: the case names what failed
 * const failed = await tester
 *   .run("MODEL_ALLOWED", rule, {
 *     valid: [{ name: "o1-preview", workflow: workflow("o1-preview"), options }],
 *     invalid: [],
 *   })
 *   .catch((error: unknown) => (error as AggregateError).errors.map((e: Error) => e.message.split("\n")[0]));
 * failed; // → ["valid: o1-preview: Should have no errors of MODEL_ALLOWED but had 1:"]
 * ```
 */
export class RuleTester {
  static #describe: DescribeFunction | null | undefined;
  static #it: ItFunction | null | undefined;
  static #itOnly: ItFunction | null | undefined;

  /**
   * The `describe` cases are grouped with: the one set here, else a global `describe`. `null`
   * means none even when a global exists (then `run` runs the cases itself).
   */
  static get describe(): DescribeFunction | undefined {
    const own = RuleTester.#describe;
    return own === undefined
      ? (globalFunction("describe") as DescribeFunction | undefined)
      : (own ?? undefined);
  }

  static set describe(value: DescribeFunction | null | undefined) {
    RuleTester.#describe = value;
  }

  /** The `it` each case is registered with: the one set here, else a global `it`. */
  static get it(): ItFunction | undefined {
    const own = RuleTester.#it;
    return own === undefined
      ? (globalFunction("it") as ItFunction | undefined)
      : (own ?? undefined);
  }

  static set it(value: ItFunction | null | undefined) {
    RuleTester.#it = value;
  }

  /** The `it` of a case marked `only`: the one set here, else `RuleTester.it.only`. */
  static get itOnly(): ItFunction | undefined {
    const own = RuleTester.#itOnly;
    if (own !== undefined) return own ?? undefined;
    const it = RuleTester.it;
    const only: unknown = it === undefined ? undefined : Reflect.get(it, "only");
    return typeof only === "function" ? (only.bind(it) as ItFunction) : undefined;
  }

  static set itOnly(value: ItFunction | null | undefined) {
    RuleTester.#itOnly = value;
  }

  readonly #defaults: RuleTesterDefaults;

  /** `defaults` (resolvers, gate options) are merged under every case's own. */
  constructor(defaults: RuleTesterDefaults = {}) {
    if (typeof defaults !== "object" || (defaults as unknown) === null) {
      throw new TypeError("new RuleTester(defaults): defaults must be an object");
    }
    const gate = gateProblem(defaults.gate);
    if (gate !== undefined) throw new TypeError(`new RuleTester(defaults): ${gate}`);
    this.#defaults = defaults;
  }

  /**
   * Tests `rule` against `tests`. With a test framework, registers `describe(name)` with one
   * `it` per case (`valid: <name>`, `invalid: <name>`) and resolves at once; without one, runs
   * every case and rejects with an `AggregateError` naming each case that failed.
   *
   * @throws TypeError when `rule` is no rule or `tests` no table (a malformed case fails as a case).
   */
  run(name: string, rule: AnyRule, tests: RuleTests): Promise<void> {
    const problem = tableProblem(rule, tests) ?? ruleProblem(rule);
    if (problem !== undefined) throw new TypeError(`RuleTester.run("${name}"): ${problem}`);
    const cases = [...plan("valid", tests.valid), ...plan("invalid", tests.invalid)];
    const describe = RuleTester.describe;
    const it = RuleTester.it;
    if (describe === undefined && it === undefined) return this.#runAll(name, rule, cases);
    if (describe === undefined || it === undefined) {
      throw new TypeError("RuleTester: set both RuleTester.describe and RuleTester.it, or neither");
    }
    const itOnly = cases.some((p) => p.only) ? RuleTester.itOnly : undefined;
    if (cases.some((p) => p.only) && itOnly === undefined) {
      throw new TypeError("RuleTester: a case is marked `only`, but RuleTester.itOnly is not set");
    }
    describe(name, () => {
      for (const p of cases) {
        (p.only && itOnly !== undefined ? itOnly : it)(p.label, () => this.#runCase(rule, p));
      }
    });
    return Promise.resolve();
  }

  /** Runs the cases one after another; rejects with every failure. */
  async #runAll(name: string, rule: AnyRule, cases: readonly Planned[]): Promise<void> {
    const chosen = cases.some((p) => p.only) ? cases.filter((p) => p.only) : cases;
    const failures: Error[] = [];
    for (const p of chosen) {
      try {
        await this.#runCase(rule, p);
      } catch (error) {
        failures.push(new Error(`${p.label}: ${messageOf(error)}`, { cause: error }));
      }
    }
    if (failures.length === 0) return;
    const lines = failures.map((f) => `  - ${f.message.replaceAll("\n", "\n    ")}`);
    throw new AggregateError(
      failures,
      `${name}: ${String(failures.length)} of ${String(chosen.length)} cases failed\n${lines.join("\n")}`,
    );
  }

  async #runCase(rule: AnyRule, p: Planned): Promise<void> {
    const problem = caseProblem(rule.meta, p.kind, p.c);
    if (problem !== undefined) throw new TypeError(`invalid ${p.kind} case: ${problem}`);
    const outcome =
      rule.meta.scope === "process"
        ? await processOutcome(rule, p.c as ProcessValidCase, this.#defaults)
        : await workflowOutcome(rule, p.c as WorkflowValidCase, this.#defaults);
    assertCase(rule, p.c, outcome, configuredSeverity(rule, p.c));
  }
}
