/**
 * Mermaid flowchart export (SPEC 6): a picture of the workflow for people, which GitHub renders
 * in Markdown. Decisions are diamonds, tools are parallelograms, delegates are subroutine boxes
 * with dashed edges; loops show as edges back up the chart. Node ids become `n0`, `n1`... so that
 * no id can break the syntax, and every label, of a node or an edge, is quoted with `"` escaped.
 */
import type { AgentWorkflow, DecisionRoute } from "../../model/index.js";
import { decisionRoutes, visibleText } from "../../model/index.js";

/** Any character {@link label} replaces. */
const SYNTAX = /[&"<>`]/;

/**
 * A label's text (`mermaidLabel` outside this folder), safe inside Mermaid's quotes and inside a
 * Markdown code fence: invisible characters escaped (a newline would end the line, and a line of
 * three backticks the fence), and what Mermaid reads as syntax written as its entity codes.
 *
 * @example
 * ```ts
 * import { mermaidLabel } from "agentflow/interop";
 *
 * mermaidLabel('Say "hi" <b>'); // → "Say #quot;hi#quot; #lt;b#gt;"
 * mermaidLabel("two\nlines"); // → "two\\nlines"
 * ```
 */
export function label(raw: string): string {
  const text = visibleText(raw);
  // Most labels need nothing: one test instead of five scans (100,000 nodes, 100,000 routes).
  if (!SYNTAX.test(text)) return text;
  return text
    .replaceAll("&", "#amp;")
    .replaceAll('"', "#quot;")
    .replaceAll("<", "#lt;")
    .replaceAll(">", "#gt;")
    .replaceAll("`", "#96;");
}

/**
 * An edge label's text (`mermaidEdgeLabel` outside this folder): {@link label}, with `|` (which
 * would end it) as its entity code.
 *
 * @example
 * ```ts
 * import { mermaidEdgeLabel } from "agentflow/interop";
 *
 * mermaidEdgeLabel("yes | no"); // → "yes #124; no"
 * ```
 */
export function edgeLabel(text: string): string {
  const quoted = label(text);
  return quoted.includes("|") ? quoted.replaceAll("|", "#124;") : quoted;
}

/**
 * An edge's label as it stands in a link, `|"…"|` (`mermaidQuotedEdgeLabel` outside this
 * folder), as both flowcharts (a workflow's, a process's) write it: unquoted, Mermaid reads
 * `( ) [ ] { }` and `@` in a label as syntax and refuses the chart. `escaped` is
 * {@link edgeLabel}'s text, cut to a length or not.
 *
 * @example
 * ```ts
 * import { mermaidEdgeLabel, mermaidQuotedEdgeLabel } from "agentflow/interop";
 *
 * `a -->${mermaidQuotedEdgeLabel(mermaidEdgeLabel("retry (max 3) @ 5s"))} b`;
 * // → 'a -->|"retry (max 3) @ 5s"| b'
 * ```
 */
export function quotedEdgeLabel(escaped: string): string {
  return `|"${escaped}"|`;
}

/**
 * The workflow as Mermaid `flowchart TD` text. Deterministic: the same workflow gives the same
 * text. Edges that leave a decision are not drawn (they document routes, which are drawn).
 *
 * @example
 * ```ts
 * import { exportMermaid } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * exportMermaid(wf).split("\n");
 * // → [
 * //     "flowchart TD",
 * //     '  n0["llm-extract<br/>llm · gpt-4o"]',
 * //     '  n1{"dec-validate<br/>output.is_valid = true"}',
 * //     '  n2["llm-classify<br/>llm · gpt-4o"]',
 * //     '  n0 -->|"data"| n1',
 * //     '  n1 -->|"onTrue"| n2',
 * //     '  n1 -->|"onFalse"| endNode',
 * //     "  endNode((end))",
 * //     "",
 * //   ]
 * ```
 */
export function exportMermaid(wf: AgentWorkflow): string {
  const lines = ["flowchart TD"];
  // First node of each id, as the flow graph resolves duplicates.
  const index = new Map<string, number>();
  wf.nodes.forEach((node, i) => {
    if (!index.has(node.id)) index.set(node.id, i);
  });
  const ref = (id: string): string => {
    const i = index.get(id);
    return i === undefined ? "missing" : `n${String(i)}`;
  };
  // Each decision's routes, read once: a decision may have 100,000 of them.
  const routes = new Map<number, readonly DecisionRoute[]>();
  // Assigned inside the callbacks below; an object keeps the flow analysis honest about that.
  const uses = { end: false, missing: false };
  wf.nodes.forEach((node, i) => {
    const id = `n${i}`;
    if (node.type === "llm") {
      lines.push(`  ${id}["${label(node.id)}<br/>llm · ${label(node.config.model)}"]`);
    } else if (node.type === "tool") {
      lines.push(`  ${id}[/"${label(node.id)}<br/>${label(node.config.usesTool)}"/]`);
    } else {
      const own = decisionRoutes(node.config);
      if (index.get(node.id) === i) routes.set(i, own);
      const first = own.find((r) => r.condition !== undefined);
      const text =
        node.config.conditionLanguage === "text" ? "(natural language)" : (first?.condition ?? "");
      lines.push(`  ${id}{"${label(node.id)}<br/>${label(text)}"}`);
    }
  });
  wf.edges.forEach((edge, k) => {
    const source = index.get(edge.from);
    const from = ref(edge.from);
    if (edge.edgeType === "delegate") {
      lines.push(`  d${k}[["${label(edge.to)}"]]`);
      lines.push(`  ${from} -.->${quotedEdgeLabel("delegate")} d${k}`);
      if (source === undefined) uses.missing = true;
      return;
    }
    if (source !== undefined && wf.nodes[source]?.type === "decision") return;
    const to = ref(edge.to);
    if (source === undefined || !index.has(edge.to)) uses.missing = true;
    lines.push(`  ${from} -->${quotedEdgeLabel(edgeLabel(edge.when ?? edge.edgeType))} ${to}`);
  });
  for (const [i, own] of routes) {
    for (const route of own) {
      const bound = route.maxRetries === undefined ? "" : ` · max ${route.maxRetries}`;
      const target = route.next === "end" ? "endNode" : ref(route.next);
      if (route.next === "end") uses.end = true;
      else if (!index.has(route.next)) uses.missing = true;
      lines.push(`  n${i} -->${quotedEdgeLabel(edgeLabel(route.label + bound))} ${target}`);
    }
  }
  if (uses.end) lines.push("  endNode((end))");
  if (uses.missing) lines.push('  missing["(missing node)"]');
  return lines.join("\n") + "\n";
}
