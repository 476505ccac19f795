/**
 * The HTML "Operation" section: recorded runs checked against what was approved — the shares of
 * conforming, deviating and unverified runs, the deviations by class, and the worst runs each
 * with its deviations and its path drawn on the workflow. Says what the Markdown section says.
 */
import type { RunResult } from "../../conform/index.js";
import { deviationMessage, unverifiedMessage } from "../../conform/index.js";
import { escapeXml as esc } from "./escape.js";
import { code, tableOf, tag } from "./html-parts.js";
import type { OperationAudit } from "./operation-types.js";
import {
  eventWhere,
  headline,
  moreFindingsNote,
  pathNotDrawn,
  pathText,
  RUN_FINDINGS_LIMIT,
  runHeading,
} from "./operation.js";
import type { WorkflowLayout } from "./layout.js";
import { layoutCache, runPath, runPathSvg } from "./operation-path.js";
import { concat } from "./rows.js";
import type { WorkflowAudit } from "./types.js";

/** The section's anchor, for the table of contents. */
export const OPERATION_ANCHOR = "operation";

function overview(op: OperationAudit): string {
  const files = op.files.map(
    (f) =>
      `${code(f.file)} (${esc(f.source ?? "source not told")}, ${String(f.records)} record(s))`,
  );
  const shares = tableOf(
    ["verdict", "runs", "share"],
    [
      ["✔ conforming", op.conforming],
      ["✖ deviating", op.deviating],
      ["⚠ unverified (could not be checked in full: not counted as conforming)", op.unverified],
    ] as const,
    ([verdict, s]) => [esc(verdict), `<span class="num">${String(s.count)}</span>`, esc(s.percent)],
  );
  const unread = op.unread;
  const unreadItems = unread.first.map(
    (u) => `<li>${code(eventWhere(u.at))}: ${esc(u.reason)}</li>`,
  );
  return concat([
    `<p>${esc(`${String(op.runs)} recorded run(s), ${String(op.events)} event(s), checked against ${op.basis}.`)}${files.length === 0 ? "" : ` Read from ${files.join(", ")}.`}</p>`,
    `<div class="summary">${[
      tag(headline(op), op.ok ? "ok" : "bad"),
      tag(
        `process instances: ${String(op.instances.checked)} checked, ${String(op.instances.deviating)} deviating${op.unverifiedInstances === 0 ? "" : `, ${String(op.unverifiedInstances)} unverified`}`,
        op.instances.deviating > 0 ? "bad" : op.unverifiedInstances > 0 ? "warn" : "",
      ),
      tag(
        `${String(unread.count + unread.inRuns)} record(s) could not be read`,
        unread.count + unread.inRuns > 0 ? "warn" : "",
      ),
    ].join(" ")}</div>`,
    shares,
    unread.count + unread.inRuns === 0
      ? ""
      : `<p>${esc(`Records that could not be read: ${String(unread.count)} that no run could be given, ${String(unread.inRuns)} inside runs (each makes its run unverified).`)}</p>`,
    unreadItems.length === 0 ? "" : `<ul class="plain">${unreadItems.join("")}</ul>`,
  ]);
}

function classes(op: OperationAudit): string {
  if (op.classes.length === 0) return `<h3>Deviations by class</h3>\n<p>No deviation.</p>`;
  return concat([
    `<h3>Deviations by class</h3>`,
    tableOf(["class", "count", "what it means (its first occurrence)"], op.classes, (row) => [
      code(row.class),
      `<span class="num">${String(row.count)}</span>`,
      esc(row.meaning),
    ]),
  ]);
}

function runBlock(
  run: RunResult,
  k: number,
  workflows: readonly WorkflowAudit[],
  layoutOf: (w: WorkflowAudit) => WorkflowLayout,
): string {
  const anchor = `op-run-${String(k + 1)}`;
  const shown = run.deviations.slice(0, RUN_FINDINGS_LIMIT);
  const firstOf = new Map<string, number>();
  shown.forEach((d, j) => {
    if (d.node !== undefined && !firstOf.has(d.node)) firstOf.set(d.node, j);
  });
  const deviations =
    shown.length === 0
      ? ""
      : tableOf(
          ["event", "class", "node", "what the run did"],
          shown.map((d, j) => ({ d, j })),
          ({ d, j }) => [
            // The anchor a deviating node of the drawing links to.
            `<span id="${anchor}-d-${String(j + 1)}">${code(eventWhere(d.at))}</span>`,
            code(d.class),
            d.node === undefined ? "" : code(d.node),
            esc(deviationMessage(d)),
          ],
        );
  const unverified =
    run.unverified.length === 0
      ? ""
      : tableOf(
          ["event", "unverified", "why"],
          run.unverified.slice(0, RUN_FINDINGS_LIMIT),
          (u) => [code(eventWhere(u.at)), code(u.reason), esc(unverifiedMessage(u))],
        );
  const more = [
    moreFindingsNote(run.deviations.length, "deviation(s)"),
    moreFindingsNote(run.unverified.length, "unverified part(s)"),
  ].flatMap((note) => (note === undefined ? [] : [`<p>${esc(note)}</p>`]));
  const path = runPath(run, workflows);
  const note = pathNotDrawn(
    run,
    path.workflow !== undefined,
    path.workflow?.drawing.drawn ?? false,
  );
  const off =
    path.offGraph.length === 0
      ? ""
      : `<p>${esc(`Deviating nodes the workflow does not have: ${path.offGraph.join(", ")}.`)}</p>`;
  let picture = `<p class="note">${esc(note ?? "")}</p>`;
  if (note === undefined && path.workflow !== undefined) {
    const w = path.workflow;
    const svg = runPathSvg({ ...path, workflow: w }, layoutOf(w), {
      idPrefix: anchor,
      title: `Path of run ${run.run} on ${w.id}@${w.version}: ${String(path.visited.length)} node(s) executed, ${String(path.deviating.size)} deviating`,
      hrefOf: (node) => `#${anchor}-d-${String((firstOf.get(node) ?? 0) + 1)}`,
    });
    picture = concat([
      `<figure class="diagram-box">`,
      svg,
      `<figcaption>${esc("Nodes the run executed are outlined bold and numbered in the order it first executed them; nodes a deviation names are outlined in red, badged ✖ with their count, and linked to the deviation. Dashed edges close a loop.")}</figcaption>`,
      `</figure>`,
    ]);
  }
  return concat([
    `<h4 id="${anchor}">${esc(runHeading(run))}</h4>`,
    run.at === undefined ? "" : `<p>${esc(`Began at ${eventWhere(run.at)}.`)}</p>`,
    deviations,
    unverified,
    ...more,
    `<p>${esc(pathText(path.visited))}</p>`,
    off,
    picture,
  ]);
}

function instances(op: OperationAudit): string {
  if (op.deviatingInstances.length === 0) return "";
  const rows = op.deviatingInstances.flatMap((i) =>
    i.deviations.slice(0, RUN_FINDINGS_LIMIT).map((d) => ({ i, d })),
  );
  return concat([
    `<h3>Deviating process instances (${String(op.deviatingInstances.length)} of ${String(op.instances.deviating)} listed)</h3>`,
    tableOf(["instance", "process", "event", "class", "what happened"], rows, ({ i, d }) => [
      code(i.instance),
      code(i.process),
      code(eventWhere(d.at)),
      code(d.class),
      esc(deviationMessage(d)),
    ]),
  ]);
}

/** The Operation section; `workflows` are the report's, on which the worst runs are drawn. */
export function operationSection(op: OperationAudit, workflows: readonly WorkflowAudit[]): string {
  const layoutOf = layoutCache();
  const worst =
    op.worst.length === 0
      ? `<p>${esc(op.runs === 0 ? "No run was checked." : "Every run conforms.")}</p>`
      : concat(op.worst.map((run, k) => runBlock(run, k, workflows, layoutOf)));
  return concat([
    `<section class="operation" id="${OPERATION_ANCHOR}">`,
    `<h2>Operation</h2>`,
    overview(op),
    classes(op),
    instances(op),
    `<h3>${esc(`Worst runs (${String(op.worst.length)} shown: most deviations first, then unverified)`)}</h3>`,
    worst,
    `</section>`,
  ]);
}
