/**
 * The tester's own checks of a table, before any rule runs: a case that cannot mean what its
 * author meant (a misspelt key, an invalid case expecting nothing, a messageId the rule does not
 * define, options its schema refuses) fails as such, never as a pass.
 */
import type { RuleMeta, RuleScope } from "../rules/index.js";
import { optionsProblem } from "../rules/internal.js";

const COMMON = ["name", "options", "severity", "only"];
const CASE_KEYS: Readonly<Record<RuleScope, readonly string[]>> = {
  workflow: [...COMMON, "workflow", "resolvers"],
  process: [...COMMON, "xml", "gate"],
};
const ERROR_KEYS: Readonly<Record<RuleScope, readonly string[]>> = {
  workflow: ["code", "messageId", "message", "target", "path", "data", "severity", "location"],
  process: [
    "code",
    "messageId",
    "message",
    "target",
    "path",
    "data",
    "severity",
    "elementId",
    "location",
  ],
};
const SETTINGS: readonly unknown[] = ["error", "warning", "info", "off"];

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const list = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(", ");

/** Why the rule or the table cannot be run at all, or `undefined`. */
export function tableProblem(rule: unknown, tests: unknown): string | undefined {
  if (!isRecord(rule) || !isRecord(rule.meta) || typeof rule.check !== "function") {
    return "the rule must be a rule made with defineRule (meta and check)";
  }
  if (!isRecord(tests)) return "the tests must be an object { valid, invalid }";
  for (const key of ["valid", "invalid"]) {
    if (!Array.isArray(tests[key])) return `tests.${key} must be an array of cases`;
  }
  const extra = Object.keys(tests).filter((k) => k !== "valid" && k !== "invalid");
  return extra.length === 0 ? undefined : `tests has unknown keys ${list(extra)}`;
}

function errorProblem(
  scope: RuleScope,
  meta: RuleMeta,
  error: unknown,
  i: number,
): string | undefined {
  const where = `errors[${String(i)}]`;
  if (!isRecord(error)) return `${where} must be an object`;
  const unknown = Object.keys(error).filter((k) => !ERROR_KEYS[scope].includes(k));
  if (unknown.length > 0) {
    return `${where} has unknown keys ${list(unknown)} (a ${scope} finding has ${list(ERROR_KEYS[scope])})`;
  }
  const id = error.messageId;
  if (id !== undefined && (typeof id !== "string" || !Object.hasOwn(meta.messages, id))) {
    return `${where} expects messageId ${JSON.stringify(id)}, which ${meta.code}'s meta.messages does not define (defined: ${Object.keys(meta.messages).join(", ")})`;
  }
  return undefined;
}

function documentProblem(
  scope: RuleScope,
  c: Readonly<Record<string, unknown>>,
): string | undefined {
  if (scope === "workflow") {
    const w = c.workflow;
    return typeof w === "string" || isRecord(w)
      ? undefined
      : "a workflow rule's case needs `workflow` (an object, or YAML/JSON text)";
  }
  if (typeof c.xml !== "string") return "a process rule's case needs `xml` (BPMN text)";
  return gateProblem(c.gate);
}

/** Why `gate` cannot be a case's gate options (the tester runs the rule alone), or `undefined`. */
export function gateProblem(gate: unknown): string | undefined {
  if (gate === undefined) return undefined;
  if (!isRecord(gate)) return "`gate` must be an object of gate options";
  const set = ["rules", "ruleSet"].filter((k) => Object.hasOwn(gate, k));
  return set.length === 0
    ? undefined
    : `\`gate\` sets ${list(set)}: the tester runs the rule alone, at the case's severity and options`;
}

/** Why the case is not a well-formed case of its kind for `meta`'s rule, or `undefined`. */
export function caseProblem(
  meta: RuleMeta,
  kind: "valid" | "invalid",
  c: unknown,
): string | undefined {
  const scope = meta.scope ?? "workflow";
  if (!isRecord(c)) return "a case must be an object";
  if (typeof c.name !== "string" || c.name === "") return "a case needs a `name`";
  const allowed = kind === "valid" ? CASE_KEYS[scope] : [...CASE_KEYS[scope], "errors"];
  const unknown = Object.keys(c).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const hint =
      kind === "valid" && unknown.includes("errors") ? "; a case with errors is invalid" : "";
    return `unknown keys ${list(unknown)} (a ${scope} rule's ${kind} case has ${list(allowed)})${hint}`;
  }
  const document = documentProblem(scope, c);
  if (document !== undefined) return document;
  if (c.severity !== undefined && !SETTINGS.includes(c.severity)) {
    return `severity ${JSON.stringify(c.severity)} is none of error, warning, info, off`;
  }
  if (c.options !== undefined && !isRecord(c.options)) return "`options` must be an object";
  if (c.only !== undefined && typeof c.only !== "boolean") return "`only` must be true or false";
  const options = optionsProblem(meta.schema, c.options ?? {});
  if (options !== undefined)
    return `the case's options do not fit ${meta.code}'s schema: ${options}`;
  if (kind === "valid") return undefined;
  const errors = c.errors;
  if (!Array.isArray(errors)) return "an invalid case needs `errors`, the findings it expects";
  if (errors.length === 0) return "an invalid case must expect at least one error";
  for (const [i, error] of errors.entries()) {
    const problem = errorProblem(scope, meta, error, i);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
