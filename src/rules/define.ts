/**
 * `defineRule`: the one way a rule is made, for agentflow's own rules and an organisation's
 * alike. It checks the rule's shape once, when the module loads, so that a mistake in a custom
 * rule (a missing default message, options schema that does not compile) is an error naming the
 * rule, not a silent fall-back when a finding is worded.
 */
import type { Severity } from "../model/index.js";
import { compileOptionsSchema } from "./options.js";
import type { RuleDefinition } from "./types.js";

const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/** A code: letters, digits, `_` and `-`, with at most one `<namespace>/` prefix. */
const CODE = /^(?:[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w-]*$/;

function problemOf(rule: RuleDefinition<never>): string | undefined {
  const meta = (rule as { meta?: unknown }).meta;
  if (typeof meta !== "object" || meta === null) return "has no meta";
  const m = meta as Record<string, unknown>;
  if (typeof m.code !== "string" || !CODE.test(m.code)) {
    return `meta.code ${JSON.stringify(m.code)} is no rule code (letters, digits, _ and -, at most one namespace/ prefix)`;
  }
  if (!(SEVERITIES as readonly unknown[]).includes(m.defaultSeverity)) {
    return `meta.defaultSeverity must be one of ${SEVERITIES.join(", ")}`;
  }
  for (const key of ["description", "docs"] as const) {
    if (typeof m[key] !== "string" || m[key] === "")
      return `meta.${key} must be a non-empty string`;
  }
  const messages = m.messages;
  if (typeof messages !== "object" || messages === null) return "meta.messages must be an object";
  for (const [id, text] of Object.entries(messages)) {
    if (typeof text !== "string") return `meta.messages.${id} must be a string`;
  }
  if (!Object.hasOwn(messages, "default")) return "meta.messages has no 'default' message";
  if (m.remediation !== undefined && typeof m.remediation !== "string") {
    return "meta.remediation must be a string";
  }
  if (m.scope !== undefined && m.scope !== "workflow" && m.scope !== "process") {
    return `meta.scope must be 'workflow' or 'process', not ${JSON.stringify(m.scope)}`;
  }
  if (typeof (rule as { check?: unknown }).check !== "function") return "has no check function";
  return undefined;
}

/**
 * Checks and freezes a rule. Every built-in rule is made with it, as a plugin's rules are.
 *
 * @throws TypeError naming the rule and what is wrong with it.
 *
 * @example
 * ```ts
 * import { defineRule } from "agentflow/rules";
 *
 * const rule = defineRule({
 *   meta: {
 *     code: "MODEL_ALLOWED",
 *     defaultSeverity: "error",
 *     description: "An llm node uses a model outside the allow-list",
 *     docs: "https://example.com/policy/MODEL_ALLOWED",
 *     messages: { default: 'node "{{nodeId}}" uses {{model}}, which is not allowed' },
 *     schema: { type: "object", properties: { models: { type: "array" } } },
 *   },
 *   check() {},
 * });
 * rule.meta.code; // → "MODEL_ALLOWED"
 * ```
 */
export function defineRule<C>(rule: RuleDefinition<C>): RuleDefinition<C> {
  const problem = problemOf(rule);
  if (problem !== undefined) {
    const code = (rule as { meta?: { code?: unknown } }).meta?.code;
    const name = typeof code === "string" ? code : "a rule";
    throw new TypeError(`defineRule: ${name} ${problem}`);
  }
  if (rule.meta.schema !== undefined) {
    const error = compileOptionsSchema(rule.meta.schema);
    if (typeof error === "string") {
      throw new TypeError(`defineRule: ${rule.meta.code} meta.schema does not compile: ${error}`);
    }
  }
  return Object.freeze({
    ...rule,
    meta: Object.freeze({ ...rule.meta, messages: Object.freeze({ ...rule.meta.messages }) }),
  });
}
