/**
 * The HTML section on one agent workflow: its identity and hash, autonomy declared and justified
 * with the reasons, the diagram (laid out with dagre, drawn as inline SVG, nodes with findings
 * linked to them), every rule result, the simulation trail and route coverage.
 */
import { autonomyLevelInfo } from "../../autonomy/index.js";
import type { AutonomyLevel, Diagnostic } from "../../model/index.js";
import { escapeXml as esc } from "./escape.js";
import type { NumberedFinding } from "./html-parts.js";
import {
  code,
  findingHref,
  hash,
  numberFindings,
  ruleSection,
  tableOf,
  tag,
} from "./html-parts.js";
import { layoutGraph } from "./layout.js";
import {
  coverageLimits,
  edgeCells,
  FINDINGS_LIMIT,
  importedHeading,
  importUnlistedNote,
  mergeParallelEdges,
  nodeCells,
  notDrawnNote,
} from "./limits.js";
import { concat } from "./rows.js";
import type { NodeFindingLink } from "./svg.js";
import { renderLegendSvg, renderWorkflowSvg } from "./svg.js";
import type { WorkflowAudit } from "./types.js";

function levelName(level: number): string {
  return Number.isInteger(level) && level >= 0 && level <= 5
    ? autonomyLevelInfo(level as AutonomyLevel).name
    : "unknown";
}

/** The node of `w` that a process finding names (the tool call that needs a gate), if any. */
function processNode(d: Diagnostic, w: WorkflowAudit): string | undefined {
  const { ref, nodeId } = d.data;
  return ref === `${w.id}@${w.version}` && typeof nodeId === "string" ? nodeId : undefined;
}

/**
 * Per node: the first of its findings in the page, and the codes of all of them — the
 * workflow's own, and the process findings that name one of its nodes.
 */
function nodeLinks(
  w: WorkflowAudit,
  start: number,
  processFindings: readonly NumberedFinding[],
): Map<string, NodeFindingLink> {
  const links = new Map<string, { href: string | undefined; codes: string[] }>();
  const add = (nodeId: string | undefined, f: NumberedFinding): void => {
    if (nodeId === undefined) return;
    const href = f.listed ? findingHref(f.n) : undefined;
    const seen = links.get(nodeId);
    // Appended in place: 100,000 findings on one node must not copy the list each time.
    if (seen === undefined) links.set(nodeId, { href, codes: [f.diagnostic.code] });
    else {
      seen.href ??= href;
      seen.codes.push(f.diagnostic.code);
    }
  };
  for (const f of processFindings) add(processNode(f.diagnostic, w), f);
  for (const f of numberFindings(w.rules, start).flat()) {
    const d = f.diagnostic;
    add(d.target.kind === "node" ? d.target.nodeId : undefined, f);
  }
  return links;
}

function autonomy(w: WorkflowAudit): string {
  const coherent = w.declaredLevel >= w.justifiedLevel;
  const reasons =
    w.reasons.length === 0
      ? ["no loop, branch, delegation or planner: level 1 is justified"]
      : w.reasons.map((r) => {
          const at = [...r.nodeIds].join(", ") || `edges ${r.edgeIndexes.join(", ")}`;
          return `level ${String(r.level)}: ${r.feature} at ${at}`;
        });
  const fact = (k: string, v: string, d: string): string =>
    `<div class="fact"><div class="k">${esc(k)}</div><div class="v">${v}</div><div class="d">${esc(d)}</div></div>`;
  return [
    `<h3>Autonomy</h3>`,
    `<p>Declared level ${String(w.declaredLevel)}; the graph justifies level ${String(w.justifiedLevel)}. A gate downstream is <strong>${esc(w.gateRequirement)}</strong>.</p>`,
    `<div class="facts">`,
    fact("declared level", esc(w.declaredLevel), levelName(w.declaredLevel)),
    fact(
      "justified level",
      `${esc(w.justifiedLevel)} ${coherent ? tag("✔ covered", "ok") : tag("✖ above declared", "bad")}`,
      levelName(w.justifiedLevel),
    ),
    fact("gate downstream", esc(w.gateRequirement), "what the BPMN process must provide"),
    `</div>`,
    `<ul class="plain">${reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>`,
  ].join("\n");
}

/** What stands in for a graph over the drawing limit: the note, and every node and edge. */
function graphTables(w: WorkflowAudit): string {
  const nodes = tableOf(["node", "type", "name", "findings"], w.nodes, (n) => {
    const [id, type, name, findings] = nodeCells(n);
    return [code(id), esc(type), esc(name), esc(findings)];
  });
  const edges = tableOf(["from", "to", "label", "edges"], mergeParallelEdges(w.edges), (m) => {
    const [from, to, label, count] = edgeCells(m);
    return [code(from), code(to), esc(label), `<span class="num">${count}</span>`];
  });
  return concat([
    `<h3>Diagram</h3>`,
    `<p class="note">${esc(notDrawnNote(w.drawing))}</p>`,
    `<h4>Nodes</h4>`,
    nodes,
    `<h4>Edges</h4>`,
    edges,
  ]);
}

function diagram(
  w: WorkflowAudit,
  index: number,
  start: number,
  processFindings: readonly NumberedFinding[],
): string {
  if (!w.drawing.drawn) return graphTables(w);
  const prefix = `wf-${String(index + 1)}`;
  const links = nodeLinks(w, start, processFindings);
  const marked = w.nodes.filter((n) => n.findings.length > 0 || links.has(n.id)).length;
  const svg = renderWorkflowSvg(layoutGraph(w), {
    idPrefix: prefix,
    title: `Graph of ${w.id}@${w.version}: ${String(w.nodes.length)} nodes, ${String(w.edges.length)} edges`,
    links,
  });
  const caption =
    marked === 0
      ? "No node has a finding."
      : `${String(marked)} node(s) with findings: outlined in red, badged ✖ with their count, and linked to the findings.`;
  return [
    `<h3>Diagram</h3>`,
    `<figure class="diagram-box">`,
    renderLegendSvg(),
    svg,
    `<figcaption>${esc(`${caption} Dashed edges close a loop. Laid out top to bottom with dagre.`)}</figcaption>`,
    `</figure>`,
  ].join("\n");
}

/** What the import declared, above the verdicts it affects. */
function importedSection(w: WorkflowAudit): string {
  const imported = w.imported;
  if (imported === undefined) return "";
  const rows = tableOf(
    ["code", "where", "what was lost or guessed"],
    imported.warnings.slice(0, FINDINGS_LIMIT),
    (d) => [
      code(d.code),
      `${d.location === undefined ? "" : esc(`${String(d.location.line)}:${String(d.location.column)} `)}${code(d.path || "/")}`,
      esc(d.message),
    ],
  );
  const more = importUnlistedNote(imported.warnings.length);
  return concat([
    `<h3>${esc(importedHeading(imported.title, imported.warnings.length))}</h3>`,
    rows,
    more === undefined ? "" : `<p>${esc(more)}</p>`,
  ]);
}

function simulations(w: WorkflowAudit): string[] {
  return w.simulations.map((sim) => {
    const on = sim.kind === "fixtures" ? "on the given fixtures" : "of the first explored run";
    const rows = tableOf(["step", "type", "node", "what happened"], sim.trail, (t) => [
      `<span class="num">${esc(t.step)}</span>`,
      esc(t.type),
      t.nodeId === undefined ? "" : code(t.nodeId),
      esc(t.message),
    ]);
    return [
      `<h3>Simulation ${on}: ${esc(sim.status)} in ${String(sim.steps)} steps (${String(sim.moves)} moves)</h3>`,
      rows,
    ].join("\n");
  });
}

function coverage(w: WorkflowAudit): string {
  const x = w.exploration;
  if (x === undefined) return "";
  const limits = coverageLimits(w);
  const mark = { taken: "✔", blocked: "✖", "not-reached": "—", unreachable: "✖" } as const;
  const rows = tableOf(["decision", "route", "to", "coverage", "runs"], x.coverage, (c) => [
    code(c.nodeId),
    esc(c.route),
    code(c.next),
    esc(`${mark[c.status]} ${c.status}${c.reason === undefined ? "" : ` (${c.reason})`}`),
    esc(c.runs),
  ]);
  const outcomes = [
    ...x.ends.map((e) => `completes at ${code(e.nodeId)} in ${String(e.runs)} run(s)`),
    ...x.blocks.map(
      (b) => `stops at ${code(b.nodeId)} in ${String(b.runs)} run(s): ${esc(b.reason)}`,
    ),
  ];
  return concat([
    `<h3>Route coverage (${String(x.runs)} explored run(s)${limits.length > 0 ? "; " + esc(limits.join("; ")) : ""})</h3>`,
    rows,
    outcomes.length === 0
      ? ""
      : `<ul class="plain">${outcomes.map((o) => `<li>${o}</li>`).join("")}</ul>`,
  ]);
}

/**
 * The section on workflow number `index` (0-based) of the report; its findings are numbered after
 * the `start` findings of the sections above. `processFindings` (numbered) may name its nodes.
 */
export function workflowSection(
  w: WorkflowAudit,
  index: number,
  start: number,
  processFindings: readonly NumberedFinding[] = [],
): string {
  return concat([
    `<section class="workflow" id="wf-${String(index + 1)}">`,
    `<h2>Workflow ${esc(`${w.id}@${w.version}`)}</h2>`,
    `<p><strong>${esc(w.name)}</strong> — from ${esc(w.source)}, content hash ${hash(w.contentHash)}.</p>`,
    importedSection(w),
    autonomy(w),
    diagram(w, index, start, processFindings),
    `<h3>Rules</h3>`,
    ruleSection(w.rules, start),
    ...simulations(w),
    coverage(w),
    `</section>`,
  ]);
}
