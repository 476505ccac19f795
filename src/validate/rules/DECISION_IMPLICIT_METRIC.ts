import type { ConditionAnalysis } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** The self-reported metrics looked for when the rule is given no `names` option. */
const DEFAULT_NAMES: readonly string[] = ["confidence"];

/**
 * Splits a name into lower-case words at `_`, `-`, spaces and other punctuation, and at camelCase
 * boundaries (`modelConfidence`, `LLMConfidence`), so that a metric is found as a whole word and
 * never inside another one (`confidential` is not `confidence`). The patterns have no nested
 * quantifiers: linear on any input.
 */
function words(name: string): string[] {
  return name
    .split(/[^\p{L}\p{N}]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** Whether `needle` occurs as a contiguous run of words in `haystack`. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((w, k) => haystack[start + k] === w)) return true;
  }
  return false;
}

/** The configured names (`names: string[]`), or the default when the option is absent or not a list. */
function metricNames(options: Readonly<Record<string, unknown>>): string[] {
  const names = Object.hasOwn(options, "names") ? options.names : undefined;
  if (!Array.isArray(names)) return [...DEFAULT_NAMES];
  return names.filter((n): n is string => typeof n === "string");
}

/**
 * A decision that routes on a number the model reports about itself (its "confidence") routes on
 * a value nothing checks: a model can be confidently wrong, and the number is not calibrated. The
 * condition should read a field whose truth can be checked (`is_complete`, a count of sources).
 *
 * A field matches when the last segment of its qualified name contains a configured name as whole
 * words, case-insensitively: `confidence` finds `output.confidence`, `output.confidence_score`,
 * `output.review.modelConfidence` and the bare `confidence` (a name FEEL conditions cannot read,
 * which CONDITION_NOT_SIMULABLE also reports), but not `output.confidential` and not
 * `output.confidence.value` (only the last segment is looked at). Natural-language conditions are
 * not searched: they read no fields, and DECISION_UNSTRUCTURED reports them. One report per
 * condition, naming the first metric field it reads.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "DECISION_IMPLICIT_METRIC",
    defaultSeverity: "error",
    description: "A decision routes on a self-reported metric such as confidence",
    docs: "docs/rules/DECISION_IMPLICIT_METRIC.md",
    messages: {
      default:
        'route {{route}} of decision "{{nodeId}}" routes on "{{field}}", a self-reported {{metric}}: a model can be confidently wrong, so the route rests on an unchecked number',
    },
    remediation:
      'route on a field whose truth can be checked (e.g. "output.is_complete = true" or a count of sources), not on the model\'s own {{metric}}',
  },
  check({ workflow, facts, options, report }) {
    const metrics = metricNames(options)
      .map((name) => ({ name, words: words(name) }))
      .filter((m) => m.words.length > 0);
    if (metrics.length === 0) return;
    const conditions = facts.conditions();
    // Large workflows read the same few fields in many conditions: split each name once.
    const metricOf = new Map<string, string | undefined>();
    const match = (field: string): string | undefined => {
      if (metricOf.has(field)) return metricOf.get(field);
      const segments = words(field.slice(field.lastIndexOf(".") + 1));
      const metric = metrics.find((m) => containsRun(segments, m.words))?.name;
      metricOf.set(field, metric);
      return metric;
    };
    const isMetric = (field: string): boolean => match(field) !== undefined;
    // Analyses are shared (the cases of a wide decision mostly have one): the last one's answer
    // is reused, a comparison per case instead of a walk of its fields.
    let lastAnalysis: ConditionAnalysis | undefined;
    let lastReads = false;
    const readsMetric = (analysis: ConditionAnalysis): boolean => {
      if (analysis !== lastAnalysis) {
        lastAnalysis = analysis;
        lastReads = analysis.fields.some(isMetric);
      }
      return lastReads;
    };
    workflow.nodes.forEach((node, i) => {
      const list = conditions[i] ?? [];
      // Index loops, and the matches collected only for a condition that has one: a decision may
      // have 100,000 cases, and an array per case was most of this rule's garbage.
      // eslint-disable-next-line @typescript-eslint/prefer-for-of -- an iterator result per case too
      for (let k = 0; k < list.length; k++) {
        const condition = list[k];
        if (condition === undefined || !readsMetric(condition.analysis)) continue;
        const matches = condition.analysis.fields.flatMap((field) => {
          const metric = match(field);
          return metric === undefined ? [] : [{ field, metric }];
        });
        const first = matches[0];
        if (first === undefined) continue;
        report({
          target: { kind: "node", nodeId: node.id },
          path: condition.path,
          data: {
            nodeId: node.id,
            route: condition.label,
            field: first.field,
            metric: first.metric,
            fields: matches.map((m) => m.field),
          },
        });
      }
    });
  },
});
