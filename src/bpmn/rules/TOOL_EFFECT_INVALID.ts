import { nodeEntry } from "../process-index.js";
import { preview } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * `btv:toolEffect` states a tool's effect; a value that is no effect is not ignored (which would
 * quietly fall back to a mapping or a default the author meant to override): the tool's effect
 * is unknown, which counts as needing a gate, and this error says what is wrong.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "TOOL_EFFECT_INVALID",
    scope: "process",
    defaultSeverity: "error",
    description: "btv:toolEffect is not one of the six tool effects",
    docs: "docs/rules/TOOL_EFFECT_INVALID.md",
    messages: {
      default:
        'btv:toolEffect "{{value}}" on "{{elementId}}" is not an effect (expected read, propose, notify, write-reversible, write-irreversible or external-commitment); the tool\'s effect counts as unknown',
    },
    remediation: 'write one of the six effects, e.g. btv:toolEffect="read"',
  },
  check(context) {
    const analysis = context.analysis;
    if (analysis === undefined) return;
    const index = analysis.prepared.graph.index;
    for (const { node, value } of analysis.prepared.invalidToolEffects) {
      const entry = nodeEntry(index, node);
      context.report({
        elementId: entry.id,
        path: `${entry.path}/toolEffect`,
        data: { elementId: entry.id, value: preview(value) },
      });
    }
  },
});
