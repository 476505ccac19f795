import type { TemplateRef, UpstreamQuery } from "../../model/index.js";
import { pointer, scanTemplates, templateStrings, upstreamAnswers } from "../../model/index.js";
import type { Rule } from "../types.js";

/**
 * A template that may be reported: one small record each, with the pointer and the message data
 * built only for those actually reported (at 100,000 tool nodes, building them eagerly for every
 * template cost more than the check).
 */
interface Finding {
  readonly i: number;
  readonly tokens: readonly string[];
  readonly text: string;
  readonly ref: TemplateRef;
  readonly messageId: string;
  readonly target: string;
  readonly reason: string;
  readonly query?: number;
}

/**
 * A tool param template reads a node's output at run time. If that node does not exist, has no
 * output (a decision), or does not run before the tool, the param is empty or stale when the
 * tool runs; a node reading its own output needs a loop to have run before. `{{input.<field>}}`
 * reads the workflow's input and must name a field of `inputSchema` (only the first field is
 * checked; deeper paths are the param types' business).
 */
export const rule: Rule = {
  meta: {
    code: "TEMPLATE_UNRESOLVABLE",
    defaultSeverity: "error",
    description: "A tool param template names a node that does not exist or does not run before it",
    docs: "docs/rules/TEMPLATE_UNRESOLVABLE.md",
    messages: {
      default: 'tool node "{{nodeId}}" reads "{{expression}}", but there is no node "{{ref}}"',
      "not-upstream":
        'tool node "{{nodeId}}" reads "{{expression}}", but "{{ref}}" does not run before it (it is not upstream)',
      decision:
        'tool node "{{nodeId}}" reads "{{expression}}", but "{{ref}}" is a decision, which has no output',
      input:
        'tool node "{{nodeId}}" reads "{{expression}}", but the workflow input declares no field "{{ref}}"',
      syntax:
        'tool node "{{nodeId}}" has a template it cannot read ({{reason}}); write <node>.output.<path> or input.<field> between double braces',
    },
    remediation:
      "reference a node that runs before the tool (connect it upstream) or a field of the workflow input",
  },
  check(context) {
    const { workflow, graph } = context;
    const hasNode = (id: string): boolean => graph.index.has(id);
    const inputs = new Set(Object.keys(workflow.inputSchema).map((k) => k.replace(/\?$/, "")));
    const findings: Finding[] = [];
    const queries: UpstreamQuery[] = [];
    workflow.nodes.forEach((node, i) => {
      if (node.type !== "tool") return;
      for (const { tokens, text } of templateStrings(node.config.params)) {
        for (const ref of scanTemplates(text, hasNode)) {
          const add = (messageId: string, target: string, reason: string): void => {
            findings.push({ i, tokens, text, ref, messageId, target, reason });
          };
          if (ref.kind === "syntax") add("syntax", ref.expression, ref.problem);
          else if (ref.kind === "input") {
            if (!inputs.has(ref.field)) add("input", ref.field, "unknown-input-field");
          } else {
            const source = graph.index.get(ref.nodeId);
            if (source === undefined) add("default", ref.nodeId, "unknown-node");
            else if (graph.nodes[source]?.type === "decision")
              add("decision", ref.nodeId, "decision");
            else {
              const query = queries.push({ source, target: i }) - 1;
              findings.push({
                i,
                tokens,
                text,
                ref,
                messageId: "not-upstream",
                target: ref.nodeId,
                reason: "not-upstream",
                query,
              });
            }
          }
        }
      }
    });
    const answers = upstreamAnswers(graph, queries);
    for (const f of findings) {
      if (f.query !== undefined && answers[f.query] === 1) continue;
      const nodeId = workflow.nodes[f.i]?.id ?? "";
      context.report({
        target: { kind: "node", nodeId },
        path: pointer("nodes", f.i, "config", "params", ...f.tokens),
        data: {
          nodeId,
          template: f.text.slice(f.ref.start, f.ref.end),
          expression: f.ref.expression,
          ref: f.target,
          reason: f.reason,
        },
        ...(f.messageId === "default" ? {} : { messageId: f.messageId }),
      });
    }
  },
};
