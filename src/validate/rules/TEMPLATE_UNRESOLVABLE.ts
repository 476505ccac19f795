import type { TemplateKind } from "../../model/index.js";
import { forEachTemplate, forEachTemplateString, upstreamAnswersOf } from "../../model/index.js";
import { templateReporter } from "../template-findings.js";
import type { Rule } from "../types.js";

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
      more: 'tool node "{{nodeId}}" has {{count}} more templates that cannot be filled, not listed (a node lists at most {{limit}}, fewer when its params are thousands of levels deep)',
    },
    remediation:
      "reference a node that runs before the tool (connect it upstream) or a field of the workflow input",
  },
  check(context) {
    const { workflow, graph } = context;
    const hasNode = (id: string): boolean => graph.index.has(id);
    // Built on first use: an inputSchema may have 100,000 fields and no template read one.
    let inputs: ReadonlySet<string> | undefined;
    const hasInput = (name: string): boolean => {
      inputs ??= new Set(Object.keys(workflow.inputSchema).map((k) => k.replace(/\?$/, "")));
      return inputs.has(name);
    };
    // Phase 1, allocation-free per template: which tool nodes have a finding for sure, and the
    // upstream questions. Phase 2 scans in full only the nodes that report something.
    const flagged = new Uint8Array(workflow.nodes.length);
    const sources: number[] = [];
    const targets: number[] = [];
    // Node i's questions are sources[firstQuery[i] .. firstQuery[i + 1]), all with target i.
    const firstQuery = new Int32Array(workflow.nodes.length + 1);
    // One visitor for all nodes (no closure per node): `at` is the node being scanned.
    let at = 0;
    const visit = (kind: TemplateKind, name: string): void => {
      if (kind === "syntax" || (kind === "input" && !hasInput(name))) flagged[at] = 1;
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
    firstQuery[workflow.nodes.length] = sources.length;
    const answers = upstreamAnswersOf(graph, sources, targets);
    answers.forEach((answer, q) => {
      if (answer !== 1) flagged[targets[q] ?? 0] = 1;
    });
    const phase2 = templateReporter(context, hasInput);
    const upstream = new Map<number, boolean>(); // node i's answers by source (the target is i)
    flagged.forEach((flag, i) => {
      if (flag !== 1) return;
      upstream.clear();
      for (let q = firstQuery[i] ?? 0; q < (firstQuery[i + 1] ?? 0); q++)
        upstream.set(sources[q] ?? 0, answers[q] === 1);
      phase2(i, upstream);
    });
  },
};
