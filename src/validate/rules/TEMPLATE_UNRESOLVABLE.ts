import type { UpstreamQuery } from "../../model/index.js";
import { pointer, scanTemplates, templateStrings, upstreamAnswers } from "../../model/index.js";
import type { Rule } from "../types.js";

interface Finding {
  readonly i: number;
  readonly path: string;
  readonly messageId: string;
  readonly data: Readonly<Record<string, unknown>>;
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
        // Built on first use: most templates are fine, and this runs for every param string.
        let pathCache: string | undefined;
        const pathOf = (): string =>
          (pathCache ??= pointer("nodes", i, "config", "params", ...tokens));
        for (const t of scanTemplates(text, hasNode)) {
          const base = {
            nodeId: node.id,
            template: text.slice(t.start, t.end),
            expression: t.expression,
          };
          const add = (messageId: string, ref: string, reason: string, query?: number): void => {
            const data = { ...base, ref, reason };
            const path = pathOf();
            findings.push(
              query === undefined
                ? { i, path, messageId, data }
                : { i, path, messageId, data, query },
            );
          };
          if (t.kind === "syntax") add("syntax", t.expression, t.problem);
          else if (t.kind === "input") {
            if (!inputs.has(t.field)) add("input", t.field, "unknown-input-field");
          } else {
            const source = graph.index.get(t.nodeId);
            if (source === undefined) add("default", t.nodeId, "unknown-node");
            else if (graph.nodes[source]?.type === "decision")
              add("decision", t.nodeId, "decision");
            else
              add(
                "not-upstream",
                t.nodeId,
                "not-upstream",
                queries.push({ source, target: i }) - 1,
              );
          }
        }
      }
    });
    const answers = upstreamAnswers(graph, queries);
    for (const { i, path, messageId, data, query } of findings) {
      if (query !== undefined && answers[query] === 1) continue;
      const nodeId = workflow.nodes[i]?.id ?? "";
      context.report({
        target: { kind: "node", nodeId },
        path,
        data,
        ...(messageId === "default" ? {} : { messageId }),
      });
    }
  },
};
