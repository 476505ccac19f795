import type { TemplateKind, TemplateRef } from "../../model/index.js";
import {
  forEachTemplate,
  forEachTemplateString,
  pointer,
  scanTemplates,
  templateStrings,
  upstreamAnswersOf,
} from "../../model/index.js";
import type { Rule, RuleContext } from "../types.js";

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
    // Phase 1, allocation-free per template: which tool nodes have a finding for sure, and the
    // upstream questions. Phase 2 scans in full only the nodes that report something.
    const flagged = new Uint8Array(workflow.nodes.length);
    const sources: number[] = [];
    const targets: number[] = [];
    // A node's questions are contiguous, from firstQuery[i], in the order phase 2 meets them.
    const firstQuery = new Int32Array(workflow.nodes.length);
    // One visitor for all nodes (no closure per node): `at` is the node being scanned.
    let at = 0;
    const visit = (kind: TemplateKind, name: string): void => {
      if (kind === "syntax" || (kind === "input" && !inputs.has(name))) flagged[at] = 1;
      if (kind !== "node") return;
      const source = graph.index.get(name);
      if (source === undefined || graph.nodes[source]?.type === "decision") flagged[at] = 1;
      else {
        sources.push(source);
        targets.push(at);
      }
    };
    const scan = (text: string): void => {
      forEachTemplate(text, hasNode, visit);
    };
    workflow.nodes.forEach((node, i) => {
      firstQuery[i] = sources.length;
      if (node.type !== "tool") return;
      at = i;
      forEachTemplateString(node.config.params, scan);
    });
    const answers = upstreamAnswersOf(graph, sources, targets);
    answers.forEach((answer, q) => {
      if (answer !== 1) flagged[targets[q] ?? 0] = 1;
    });
    flagged.forEach((flag, i) => {
      if (flag === 1)
        reportNode(context, i, { inputs, hasNode, answers, next: firstQuery[i] ?? 0 });
    });
  },
};

/** Phase 2: every finding of tool node `i`, in document order, with pointers and data. */
function reportNode(
  context: RuleContext,
  i: number,
  phase1: {
    readonly inputs: ReadonlySet<string>;
    readonly hasNode: (id: string) => boolean;
    readonly answers: Uint8Array;
    next: number;
  },
): void {
  const { workflow, graph } = context;
  const { inputs, hasNode, answers } = phase1;
  const node = workflow.nodes[i];
  if (node?.type !== "tool") return;
  const report = (
    tokens: readonly string[],
    text: string,
    ref: TemplateRef,
    messageId: string,
    target: string,
    reason: string,
  ): void => {
    context.report({
      target: { kind: "node", nodeId: node.id },
      path: pointer("nodes", i, "config", "params", ...tokens),
      data: {
        nodeId: node.id,
        template: text.slice(ref.start, ref.end),
        expression: ref.expression,
        ref: target,
        reason,
      },
      ...(messageId === "default" ? {} : { messageId }),
    });
  };
  for (const { tokens, text } of templateStrings(node.config.params)) {
    for (const ref of scanTemplates(text, hasNode)) {
      if (ref.kind === "syntax") report(tokens, text, ref, "syntax", ref.expression, ref.problem);
      else if (ref.kind === "input") {
        if (!inputs.has(ref.field))
          report(tokens, text, ref, "input", ref.field, "unknown-input-field");
      } else {
        const source = graph.index.get(ref.nodeId);
        if (source === undefined) report(tokens, text, ref, "default", ref.nodeId, "unknown-node");
        else if (graph.nodes[source]?.type === "decision")
          report(tokens, text, ref, "decision", ref.nodeId, "decision");
        else if (answers[phase1.next++] !== 1) {
          report(tokens, text, ref, "not-upstream", ref.nodeId, "not-upstream");
        }
      }
    }
  }
}
