/**
 * A recorded run's path drawn on its workflow, with the report's own drawing: the same graph
 * (graph.ts), laid out by the same layout (layout.ts), drawn by the same SVG renderer (svg.ts)
 * for HTML and as Mermaid for Markdown. The nodes the run executed are bold and numbered in the
 * order it first executed them; the nodes a deviation names are outlined and badged ✖ n. The
 * workflow's own rule findings are left off: this picture is about the run.
 */
import type { RunResult } from "../../conform/index.js";
import {
  mermaidEdgeLabel,
  mermaidLabel as label,
  mermaidQuotedEdgeLabel,
} from "../../interop/index.js";
import type { WorkflowLayout } from "./layout.js";
import { layoutGraph } from "./layout.js";
import { cutMermaidLabels } from "./limits.js";
import type { NodeFindingLink } from "./svg.js";
import { renderWorkflowSvg } from "./svg.js";
import type { GraphNode, WorkflowAudit } from "./types.js";

/** What a run did on its workflow's graph. */
export interface RunPath {
  /** The workflow the run was checked against, when the report reviews it. */
  readonly workflow: WorkflowAudit | undefined;
  /** The nodes the run executed, in first-execution order. */
  readonly visited: readonly string[];
  /** Per node of the graph a deviation names: the deviations' classes (repeats kept). */
  readonly deviating: ReadonlyMap<string, readonly string[]>;
  /** Nodes a deviation names that the graph does not have (a node the workflow lacks). */
  readonly offGraph: readonly string[];
}

/** The run's path on the workflow of `workflows` it was checked against. */
export function runPath(run: RunResult, workflows: readonly WorkflowAudit[]): RunPath {
  const workflow = workflows.find((w) => `${w.id}@${w.version}` === run.workflow);
  const ids = new Set(workflow?.nodes.map((n) => n.id));
  const deviating = new Map<string, string[]>();
  const offGraph: string[] = [];
  for (const d of run.deviations) {
    if (d.node === undefined) continue;
    if (!ids.has(d.node)) {
      if (!offGraph.includes(d.node)) offGraph.push(d.node);
      continue;
    }
    const list = deviating.get(d.node);
    if (list === undefined) deviating.set(d.node, [d.class]);
    else list.push(d.class);
  }
  return { workflow, visited: run.visited, deviating, offGraph };
}

/** The workflow's graph with no rule findings on it: the run's marks are the only ones. */
function bare(nodes: readonly GraphNode[]): GraphNode[] {
  return nodes.map((n) => (n.findings.length === 0 ? n : { ...n, findings: [] }));
}

/** Lays out each workflow once, however many of its runs are drawn. */
export function layoutCache(): (w: WorkflowAudit) => WorkflowLayout {
  const cache = new Map<WorkflowAudit, WorkflowLayout>();
  return (w) => {
    let layout = cache.get(w);
    if (layout === undefined) {
      layout = layoutGraph({ nodes: bare(w.nodes), edges: w.edges });
      cache.set(w, layout);
    }
    return layout;
  };
}

/**
 * The run's path as inline SVG; `hrefOf` gives each deviating node's link (its first deviation
 * in the page). Only for a workflow whose graph the report draws.
 */
export function runPathSvg(
  path: RunPath & { readonly workflow: WorkflowAudit },
  layout: WorkflowLayout,
  options: { readonly idPrefix: string; readonly title: string; hrefOf: (node: string) => string },
): string {
  const links = new Map<string, NodeFindingLink>();
  for (const [node, codes] of path.deviating)
    links.set(node, { href: options.hrefOf(node), codes });
  return renderWorkflowSvg(layout, {
    idPrefix: options.idPrefix,
    title: options.title,
    links,
    visited: path.visited,
    markNoun: "deviation",
  });
}

function mermaidNode(id: string, node: GraphNode, text: string): string {
  switch (node.type) {
    case "llm":
      return `  ${id}["${text}"]`;
    case "tool":
      return `  ${id}[/"${text}"/]`;
    case "decision":
      return `  ${id}{"${text}"}`;
    case "delegate":
      return `  ${id}[["${text}"]]`;
    case "end":
      return `  ${id}((end))`;
  }
}

/**
 * The run's path as a Mermaid flowchart: the workflow's graph, each executed node labelled with
 * its order (`(1) id`) and each deviating node with `✖ n` (the marks are text, not only the
 * classes' colour), both styled by class.
 */
export function runPathMermaid(path: RunPath & { readonly workflow: WorkflowAudit }): string {
  const w = path.workflow;
  const order = new Map<string, number>();
  path.visited.forEach((id, i) => {
    if (!order.has(id)) order.set(id, i + 1);
  });
  const ref = new Map<string, string>();
  const lines = ["flowchart TD"];
  w.nodes.forEach((node, i) => {
    const id = `p${String(i)}`;
    ref.set(node.id, id);
    const step = order.get(node.id);
    const marks = path.deviating.get(node.id);
    const head = [
      step === undefined ? "" : `(${String(step)}) `,
      // A delegate's box is named by the workflow it delegates to; every other node by its id.
      label(node.type === "delegate" ? node.label : node.id),
      marks === undefined ? "" : ` ✖ ${String(marks.length)}`,
    ].join("");
    lines.push(mermaidNode(id, node, `${head}<br/>${node.type}`));
  });
  for (const e of w.edges) {
    const from = ref.get(e.from);
    const to = ref.get(e.to);
    if (from === undefined || to === undefined) continue;
    const arrow = e.back ? "-.->" : "-->";
    const text = e.label === "" ? "" : mermaidQuotedEdgeLabel(mermaidEdgeLabel(e.label));
    lines.push(`  ${from} ${arrow}${text} ${to}`);
  }
  const visited = [...order.keys()].flatMap((id) => ref.get(id) ?? []);
  const deviating = [...path.deviating.keys()].flatMap((id) => ref.get(id) ?? []);
  lines.push("  classDef visited stroke:#0f172a,stroke-width:4px");
  lines.push("  classDef deviating stroke:#c62828,stroke-width:4px,color:#c62828");
  if (visited.length > 0) lines.push(`  class ${visited.join(",")} visited`);
  if (deviating.length > 0) lines.push(`  class ${deviating.join(",")} deviating`);
  return cutMermaidLabels(lines.join("\n") + "\n");
}
