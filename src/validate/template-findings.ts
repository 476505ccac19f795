/**
 * Phase 2 of TEMPLATE_UNRESOLVABLE: the findings of one tool node whose params phase 1 flagged,
 * in document order, with pointers and data.
 *
 * Findings depend on a string's text alone (every upstream question of node i has target i), so
 * each distinct text is scanned once per node, or once per run when no node-output reference in
 * it asks whether a node runs before; pointer tokens are built only for the strings that report.
 *
 * A node lists at most {@link MAX_TEMPLATE_FINDINGS} findings, and stops listing earlier once its
 * pointers hold {@link MAX_TEMPLATE_POINTER_TOKENS} tokens in all; one `more` finding then gives
 * the count of the rest. Each pointer is as long as the params are deep, so listing every
 * template of 10,000-deep params would be a report of the square of their size.
 */
import type { TemplateRef } from "../model/index.js";
import { escapePointerToken, scanTemplates } from "../model/index.js";
import { forEachTemplateEntry } from "../model/internal.js";
import type { RuleContext } from "./types.js";

/** Findings listed per tool node; the rest are counted in one `more` finding. */
export const MAX_TEMPLATE_FINDINGS = 100;

/**
 * Pointer tokens listed per tool node, over all its findings: only params thousands of levels
 * deep reach it. The first string with a finding is always listed, however deep.
 */
export const MAX_TEMPLATE_POINTER_TOKENS = 100_000;

/** One finding of a template: the message, the name at fault and why. */
type Finding = readonly [ref: TemplateRef, messageId: string, name: string, reason: string];

/**
 * Builds the phase-2 reporter of one run (`hasInput` says whether the workflow input declares a
 * field): `(i, upstream)` reports tool node `i`, where `upstream` says, by source node index,
 * whether that source runs before node `i`. Built once per run, so that a node costs no closure.
 */
export function templateReporter(
  context: RuleContext,
  hasInput: (field: string) => boolean,
): (i: number, upstream: ReadonlyMap<number, boolean>) => void {
  const { workflow, graph } = context;
  const hasNode = (id: string): boolean => graph.index.has(id);
  let upstream: ReadonlyMap<number, boolean> = new Map();
  // Findings by text: in `byNode`, of the node being reported, the texts that ask whether a node
  // runs before it; in `byRun` the others, which every tool node shares.
  const byRun = new Map<string, Finding[]>();
  const byNode = new Map<string, Finding[]>();
  // For the node being reported: findings and pointer tokens in the strings kept so far, the
  // findings beyond the limits, and whether a limit was reached (listing stops there).
  let kept = 0;
  let tokens = 0;
  let unlisted = 0;
  let stopped = false;
  const findingsOf = (text: string): Finding[] => {
    const known = byRun.get(text) ?? byNode.get(text);
    if (known !== undefined) return known;
    const out: Finding[] = [];
    let asked = false;
    for (const ref of scanTemplates(text, hasNode)) {
      if (ref.kind === "syntax") out.push([ref, "syntax", ref.expression, ref.problem]);
      else if (ref.kind === "input") {
        if (!hasInput(ref.field)) out.push([ref, "input", ref.field, "unknown-input-field"]);
      } else {
        const source = graph.index.get(ref.nodeId);
        if (source === undefined) out.push([ref, "default", ref.nodeId, "unknown-node"]);
        else if (graph.nodes[source]?.type === "decision")
          out.push([ref, "decision", ref.nodeId, "decision"]);
        else {
          asked = true;
          if (upstream.get(source) !== true)
            out.push([ref, "not-upstream", ref.nodeId, "not-upstream"]);
        }
      }
    }
    (asked ? byNode : byRun).set(text, out);
    return out;
  };
  // Strings past the limit are only counted: their pointer tokens are never built.
  const reporting = (text: string, depth: number): boolean => {
    const count = findingsOf(text).length;
    if (count === 0) return false;
    stopped ||=
      kept > 0 && (kept >= MAX_TEMPLATE_FINDINGS || tokens + depth > MAX_TEMPLATE_POINTER_TOKENS);
    if (stopped) {
      unlisted += count;
      return false;
    }
    kept += count;
    tokens += depth;
    return true;
  };
  // The node being reported, its pointer prefix and how many findings it listed, read by `list`.
  let nodeId = "";
  let target: { readonly kind: "node"; readonly nodeId: string } = { kind: "node", nodeId };
  let params = "";
  let listed = 0;
  // One visitor for all nodes (no closure per node); called in document order for the strings
  // `reporting` kept. Index loops and no spread: at 50,000 reporting nodes, the iterators,
  // destructurings and spread objects per finding were half of this rule's garbage.
  const list = (text: string, tokensOf: () => readonly string[]): void => {
    const tokens = tokensOf();
    // One pointer per string, shared by its findings; not `pointer(...tokens)`, as a spread of
    // 100,000 tokens would overflow the stack. Joined into one flat string: each `+` would add a
    // node of a string tree the finding keeps.
    const pieces = new Array<string>(tokens.length + 1);
    pieces[0] = params;
    for (let k = 0; k < tokens.length; k++) pieces[k + 1] = escapePointerToken(tokens[k] ?? "");
    const path = pieces.join("/");
    const findings = findingsOf(text);
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
    for (let f = 0; f < findings.length; f++) {
      const finding = findings[f];
      if (finding === undefined) continue;
      if (listed === MAX_TEMPLATE_FINDINGS) {
        unlisted += 1; // the last kept string may hold more than the limit leaves
        continue;
      }
      listed += 1;
      const ref = finding[0];
      const messageId = finding[1];
      const data = {
        nodeId,
        template: text.slice(ref.start, ref.end),
        expression: ref.expression,
        ref: finding[2],
        reason: finding[3],
      };
      context.report(
        messageId === "default" ? { target, path, data } : { target, path, data, messageId },
      );
    }
  };
  return (i, answers) => {
    const node = workflow.nodes[i];
    if (node?.type !== "tool") return;
    upstream = answers;
    // Cleared only when used: a clear allocates a new table, and most nodes ask nothing.
    if (byNode.size > 0) byNode.clear();
    // Separate assignments: a destructuring of a fresh array allocated per node.
    kept = 0;
    tokens = 0;
    unlisted = 0;
    stopped = false;
    nodeId = node.id;
    target = { kind: "node", nodeId };
    params = `/nodes/${i}/config/params`;
    listed = 0;
    // `reporting` and `list` alternate per string: the counts they share are only summed.
    forEachTemplateEntry(node.config.params, reporting, list);
    if (unlisted === 0) return;
    context.report({
      target,
      path: params,
      messageId: "more",
      data: {
        nodeId,
        reason: "too-many",
        count: unlisted,
        listed,
        limit: MAX_TEMPLATE_FINDINGS,
      },
    });
  };
}
