/**
 * Mermaid flowchart export (SPEC 6): a picture of the workflow for people, which GitHub renders
 * in Markdown. Decisions are diamonds, tools are parallelograms, delegates are subroutine boxes
 * with dashed edges; loops show as edges back up the chart. A binary decision's diamond shows its
 * condition and its edges `onTrue` / `onFalse`; a multi-way FEEL decision's diamond shows its id
 * and each case's edge its condition (`cases/1: output.kind = "a"`), cut to 150 characters; a
 * natural-language decision shows "(natural language)" and no condition text. Node ids become
 * `n0`, `n1`... so that no id can break the syntax, and every label, of a node or an edge, is
 * quoted with `"` escaped.
 */
import type { AgentWorkflow, DecisionRoute } from "../../model/index.js";
import { decisionRoutes, isMultiway, visibleText } from "../../model/index.js";

/** Any character {@link label} replaces. */
const SYNTAX = /[&"<>`%]/;

/**
 * The most characters of escaped condition text on a case's edge: the edge label stays well
 * within the 200 characters a line the audit report keeps of a label (`MERMAID_LABEL_LIMIT`),
 * which would otherwise cut it through its closing quote.
 */
const CONDITION_LIMIT = 150;

/**
 * Escaped label text (`mermaidClip` outside this folder) cut to `max` characters (then `…`),
 * never inside an entity code such as `#quot;` nor between the halves of a surrogate pair: the
 * cut is on what Mermaid reads, not on the raw name.
 *
 * @example
 * ```ts
 * import { mermaidClip, mermaidLabel } from "agentflow/interop";
 *
 * mermaidClip(mermaidLabel('say "hi"'), 6); // → "say …"
 * mermaidClip("short", 10); // → "short"
 * ```
 */
export function clip(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  let cut = escaped.slice(0, max);
  const hash = cut.lastIndexOf("#");
  if (hash > cut.lastIndexOf(";") && /^#\w+;/.test(escaped.slice(hash))) cut = cut.slice(0, hash);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * A route's edge label: its name (`onTrue`, `cases/1`, `otherwise`) and bound, and for a case of
 * a FEEL decision its condition, which no other place of the chart shows (the diamond of a binary
 * decision shows its one condition; natural-language text is shown nowhere, as on the diamond).
 */
function routeLabel(route: DecisionRoute, feelCases: boolean): string {
  const bound = route.maxRetries === undefined ? "" : ` · max ${route.maxRetries}`;
  if (!feelCases || route.condition === undefined) return edgeLabel(route.label + bound);
  const condition = clip(edgeLabel(route.condition), CONDITION_LIMIT);
  return `${edgeLabel(route.label)}: ${condition}${edgeLabel(bound)}`;
}

/**
 * A label's text (`mermaidLabel` outside this folder), safe inside Mermaid's quotes and inside a
 * Markdown code fence: invisible characters escaped (a newline would end the line, and a line of
 * three backticks the fence), and what Mermaid reads as syntax (`%%` a comment or a directive
 * too) written as its entity codes.
 *
 * @example
 * ```ts
 * import { mermaidLabel } from "agentflow/interop";
 *
 * mermaidLabel('Say "hi" <b>'); // → "Say #quot;hi#quot; #lt;b#gt;"
 * mermaidLabel("two\nlines"); // → "two\\nlines"
 * mermaidLabel("%%{init: {}}%%"); // → "#37;#37;{init: {}}#37;#37;"
 * ```
 */
export function label(raw: string): string {
  const text = visibleText(raw);
  // Most labels need nothing: one test instead of five scans (100,000 nodes, 100,000 routes).
  if (!SYNTAX.test(text)) return text;
  return (
    text
      .replaceAll("&", "#amp;")
      .replaceAll('"', "#quot;")
      .replaceAll("<", "#lt;")
      .replaceAll(">", "#gt;")
      .replaceAll("`", "#96;")
      // `%%` starts a comment, and `%%{init: …}%%` a directive that restyles the whole chart
      // (hiding the bypass marks) wherever it stands, inside a label too.
      .replaceAll("%", "#37;")
  );
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
  const routes = new Map<number, { own: readonly DecisionRoute[]; feelCases: boolean }>();
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
      const text = node.config.conditionLanguage === "text";
      const feelCases = !text && isMultiway(node.config);
      if (index.get(node.id) === i) routes.set(i, { own, feelCases });
      // A multi-way decision's conditions are on its edges, one each: the diamond names it only.
      const first = own.find((r) => r.condition !== undefined);
      const shown = text ? "(natural language)" : feelCases ? undefined : (first?.condition ?? "");
      lines.push(
        `  ${id}{"${label(node.id)}${shown === undefined ? "" : `<br/>${label(shown)}`}"}`,
      );
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
  for (const [i, { own, feelCases }] of routes) {
    for (const route of own) {
      const target = route.next === "end" ? "endNode" : ref(route.next);
      if (route.next === "end") uses.end = true;
      else if (!index.has(route.next)) uses.missing = true;
      lines.push(`  n${i} -->${quotedEdgeLabel(routeLabel(route, feelCases))} ${target}`);
    }
  }
  if (uses.end) lines.push("  endNode((end))");
  if (uses.missing) lines.push('  missing["(missing node)"]');
  return lines.join("\n") + "\n";
}
