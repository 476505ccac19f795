/**
 * Mermaid flowchart export (SPEC 6): a picture of the workflow for people, which GitHub renders
 * in Markdown. Decisions are diamonds, tools are parallelograms, delegates are subroutine boxes
 * with dashed edges; loops show as edges back up the chart. Node ids become `n0`, `n1`... so that
 * no id can break the syntax, and every label is quoted with `"` escaped.
 */
import type { AgentWorkflow } from "../../model/index.js";
import { decisionRoutes } from "../../model/index.js";

/** Characters Mermaid would read as syntax inside a quoted label. */
function label(text: string): string {
  return text
    .replaceAll("&", "#amp;")
    .replaceAll('"', "#quot;")
    .replaceAll("<", "#lt;")
    .replaceAll(">", "#gt;");
}

function edgeLabel(text: string): string {
  return label(text).replaceAll("|", "#124;");
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
 * //     "  n0 -->|data| n1",
 * //     "  n1 -->|onTrue| n2",
 * //     "  n1 -->|onFalse| endNode",
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
  const ids = new Map([...index].map(([id, i]) => [id, `n${i}`]));
  const ref = (id: string): string => ids.get(id) ?? "missing";
  // Assigned inside the callbacks below; an object keeps the flow analysis honest about that.
  const uses = { end: false, missing: false };
  wf.nodes.forEach((node, i) => {
    const id = `n${i}`;
    if (node.type === "llm") {
      lines.push(`  ${id}["${label(node.id)}<br/>llm · ${label(node.config.model)}"]`);
    } else if (node.type === "tool") {
      lines.push(`  ${id}[/"${label(node.id)}<br/>${label(node.config.usesTool)}"/]`);
    } else {
      const first = decisionRoutes(node.config).find((r) => r.condition !== undefined);
      const text =
        node.config.conditionLanguage === "text" ? "(natural language)" : (first?.condition ?? "");
      lines.push(`  ${id}{"${label(node.id)}<br/>${label(text)}"}`);
    }
  });
  wf.edges.forEach((edge, k) => {
    const from = ids.get(edge.from);
    if (edge.edgeType === "delegate") {
      lines.push(`  d${k}[["${label(edge.to)}"]]`);
      lines.push(`  ${from ?? "missing"} -.->|delegate| d${k}`);
      if (from === undefined) uses.missing = true;
      return;
    }
    const source = index.get(edge.from);
    if (source !== undefined && wf.nodes[source]?.type === "decision") return;
    const to = ids.get(edge.to);
    if (from === undefined || to === undefined) uses.missing = true;
    lines.push(`  ${ref(edge.from)} -->|${edgeLabel(edge.when ?? edge.edgeType)}| ${ref(edge.to)}`);
  });
  wf.nodes.forEach((node, i) => {
    if (node.type !== "decision" || index.get(node.id) !== i) return;
    for (const route of decisionRoutes(node.config)) {
      const bound = route.maxRetries === undefined ? "" : ` · max ${route.maxRetries}`;
      const target = route.next === "end" ? "endNode" : ref(route.next);
      if (route.next === "end") uses.end = true;
      else if (!ids.has(route.next)) uses.missing = true;
      lines.push(`  n${i} -->|${edgeLabel(route.label + bound)}| ${target}`);
    }
  });
  if (uses.end) lines.push("  endNode((end))");
  if (uses.missing) lines.push('  missing["(missing node)"]');
  return lines.join("\n") + "\n";
}
