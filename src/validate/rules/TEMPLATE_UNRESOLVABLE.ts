import {
  forEachTemplate,
  forEachTemplateString,
  NODE_KIND,
  upstreamAnswersOf,
} from "../../model/index.js";
import type { TemplateKind } from "../../model/index.js";
import { templateReporter } from "../template-findings.js";
import type { Take } from "../../model/internal.js";
import { scratchScope } from "../../model/internal.js";
import type { Rule, RuleContext } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * A tool param template reads a node's output at run time. If that node does not exist, has no
 * output (a decision), or does not run before the tool, the param is empty or stale when the
 * tool runs; a node reading its own output needs a loop to have run before. `{{input.<field>}}`
 * reads the workflow's input and must name a field of `inputSchema` (only the first field is
 * checked; deeper paths are the param types' business).
 */
export const rule: Rule = defineRule({
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
    const { workflow } = context;
    // Built on first use: an inputSchema may have 100,000 fields and no template read one.
    let inputs: ReadonlySet<string> | undefined;
    const hasInput = (name: string): boolean => {
      inputs ??= new Set(Object.keys(workflow.inputSchema).map((k) => k.replace(/\?$/, "")));
      return inputs.has(name);
    };
    // Scratch arrays (scratch.ts), all given back when the check returns.
    scratchScope((take) => {
      check(context, hasInput, take);
    });
  },
});

/** How many distinct param texts one check remembers the templates of. */
const PARSED_LIMIT = 1024;

/** The body of the rule; `take` gives its temporaries. */
function check(context: RuleContext, hasInput: (name: string) => boolean, take: Take): void {
  const { workflow, graph } = context;
  const hasNode = (id: string): boolean => graph.index.has(id);
  const n = workflow.nodes.length;
  // Phase 1, allocation-free per template: which tool nodes have a finding for sure, and the
  // upstream questions. Phase 2 scans in full only the nodes that report something.
  const flagged = take(n);
  // Question q asks whether sources[q] runs before targets[q]; one per node to start with,
  // doubled (outside the pool) when a workflow has more templates than nodes.
  let sources = take(n);
  let targets = take(n);
  let asked = 0;
  // Node i's questions are sources[firstQuery[i] .. firstQuery[i + 1]), all with target i.
  const firstQuery = take(n + 1);
  // One visitor for all nodes (no closure per node): `at` is the node being scanned.
  let at = 0;
  const visit = (kind: TemplateKind, name: string): void => {
    if (kind === "syntax" || (kind === "input" && !hasInput(name))) flagged[at] = 1;
    if (kind !== "node") return;
    const source = graph.index.get(name);
    if (source === undefined || graph.kind[source] === NODE_KIND.decision) flagged[at] = 1;
    else {
      if (asked === sources.length) [sources, targets] = [grow(sources), grow(targets)];
      sources[asked] = source;
      targets[asked++] = at;
    }
  };
  // Parsed templates by text, as kind/name pairs: the tool nodes of a large workflow repeat the
  // same few params, and parsing each copy again was most of this rule's garbage.
  const parsed = new Map<string, readonly string[]>();
  const scan = (text: string): void => {
    let refs = parsed.get(text);
    if (refs === undefined) {
      const found: string[] = [];
      forEachTemplate(text, hasNode, (kind, name) => {
        found.push(kind, name);
      });
      refs = found;
      if (parsed.size < PARSED_LIMIT) parsed.set(text, refs);
    }
    for (let k = 0; k < refs.length; k += 2) visit(refs[k] as TemplateKind, refs[k + 1] ?? "");
  };

  workflow.nodes.forEach((node, i) => {
    firstQuery[i] = asked;
    if (graph.kind[i] !== NODE_KIND.tool || node.type !== "tool") return;
    at = i;
    forEachTemplateString(node.config.params, scan);
  });
  firstQuery[n] = asked;
  sources = sources.subarray(0, asked);
  targets = targets.subarray(0, asked);
  const answers = upstreamAnswersOf(graph, sources, targets);
  answers.forEach((answer, q) => {
    if (answer !== 1) flagged[targets[q] ?? 0] = 1;
  });
  const phase2 = templateReporter(context, hasInput);
  const upstream = new Map<number, boolean>(); // node i's answers by source (the target is i)
  flagged.forEach((flag, i) => {
    if (flag !== 1) return;
    // Cleared only when used: a clear allocates a new table, once per flagged node.
    if (upstream.size > 0) upstream.clear();
    for (let q = firstQuery[i] ?? 0; q < (firstQuery[i + 1] ?? 0); q++)
      upstream.set(sources[q] ?? 0, answers[q] === 1);
    phase2(i, upstream);
  });
}

/** A copy of `array` with twice the room. */
function grow(array: Int32Array): Int32Array {
  const out = new Int32Array(Math.max(16, 2 * array.length));
  out.set(array);
  return out;
}
