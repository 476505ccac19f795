/**
 * Custom rules the RuleTester tests run, made with `defineRule` as an organisation writes them,
 * and helpers that run a table with a collecting framework or with none.
 */
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import type { AnyRule } from "../../src/rules/index.js";
import { defineRule } from "../../src/rules/index.js";
import type { DescribeFunction, ItFunction, RuleTests } from "../../src/testing/index.js";
import { RuleTester } from "../../src/testing/index.js";
import type { RuleContext } from "../../src/validate/index.js";

/** llm nodes may use only the models in `options.models`; a `-preview` model is worded apart. */
export const modelRule = defineRule<RuleContext>({
  meta: {
    code: "MODEL_ALLOWED",
    defaultSeverity: "error",
    description: "An llm node uses a model outside the allow-list",
    docs: "https://example.com/policy/MODEL_ALLOWED",
    messages: {
      default: 'node "{{nodeId}}" uses {{model}}, which is not allowed',
      preview: 'node "{{nodeId}}" uses the preview model {{model}}',
    },
    remediation: "use one of {{allowed}}",
    schema: {
      type: "object",
      properties: { models: { type: "array", items: { type: "string" } } },
      additionalProperties: false,
    },
  },
  check({ workflow, options, report }) {
    const allowed: unknown[] = Array.isArray(options.models) ? options.models : [];
    workflow.nodes.forEach((node, i) => {
      if (node.type !== "llm" || allowed.includes(node.config.model)) return;
      const model = node.config.model;
      report({
        target: { kind: "node", nodeId: node.id },
        path: `/nodes/${String(i)}/config/model`,
        ...(model.endsWith("-preview") ? { messageId: "preview" } : {}),
        data: { nodeId: node.id, model, allowed },
      });
    });
  },
});

/** Agent tasks may run at most at level `options.max` (3 by default); an unknown level is reported. */
export const levelRule = defineRule<BpmnRuleContext>({
  meta: {
    code: "LEVEL_CAP",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task runs above the organisation's level cap",
    docs: "https://example.com/policy/LEVEL_CAP",
    messages: {
      default: 'agent task "{{elementId}}" runs at level {{level}}, above {{max}}',
      unknown: 'agent task "{{elementId}}" runs at an unknown level',
    },
    schema: {
      type: "object",
      properties: { max: { type: "integer", minimum: 0, maximum: 5 } },
      additionalProperties: false,
    },
  },
  check(context) {
    const max = typeof context.options.max === "number" ? context.options.max : 3;
    for (const task of context.analysis?.tasks ?? []) {
      const { id, path } = task.node;
      if (task.level === undefined) {
        context.report({ elementId: id, path, messageId: "unknown", data: { elementId: id } });
      } else if (task.level > max) {
        context.report({ elementId: id, path, data: { elementId: id, level: task.level, max } });
      }
    }
  },
});

/** A registered test: its group, name and body. */
export interface Registered {
  readonly group: string;
  readonly name: string;
  readonly body: () => Promise<void>;
}

/** Swaps the tester's framework functions while `during` runs (it reads them synchronously). */
function withFramework<T>(
  describe: DescribeFunction | null,
  it: ItFunction | null,
  during: () => T,
): T {
  RuleTester.describe = describe;
  RuleTester.it = it;
  RuleTester.itOnly = null;
  try {
    return during();
  } finally {
    // Unset, not the functions read before: those are this file's, and the tester outlives it.
    RuleTester.describe = RuleTester.it = RuleTester.itOnly = undefined;
  }
}

/** The tests `run` registers with a collecting `describe`/`it`. */
export function registered(
  rule: AnyRule,
  tests: RuleTests,
  tester = new RuleTester(),
): Registered[] {
  const out: Registered[] = [];
  let group = "";
  void withFramework(
    (name, body) => {
      group = name;
      body();
    },
    (name, body) => {
      out.push({ group, name, body });
    },
    () => tester.run(rule.meta.code, rule, tests),
  );
  return out;
}

/** The error `run` rejects with when no framework is set, or `undefined` when it resolves. */
export async function failureOf(
  rule: AnyRule,
  tests: RuleTests,
  tester = new RuleTester(),
): Promise<AggregateError | undefined> {
  const pending = withFramework(null, null, () => tester.run(rule.meta.code, rule, tests));
  try {
    await pending;
    return undefined;
  } catch (error) {
    if (error instanceof AggregateError) return error;
    throw error;
  }
}

/** The messages of each failed case, in the order the cases ran. */
export async function failedCases(
  rule: AnyRule,
  tests: RuleTests,
  tester = new RuleTester(),
): Promise<string[]> {
  const failure = await failureOf(rule, tests, tester);
  return (failure?.errors ?? []).map((e: unknown) => (e instanceof Error ? e.message : String(e)));
}
