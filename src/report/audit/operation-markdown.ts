/**
 * The Markdown "Operation" section: what the HTML section says, with each worst run's path drawn
 * as a Mermaid flowchart of its workflow (GitHub renders it).
 */
import type { RunResult } from "../../conform/index.js";
import { deviationMessage, unverifiedMessage } from "../../conform/index.js";
import { markdownCode, markdownText } from "./markdown-escape.js";
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
import { runPath, runPathMermaid } from "./operation-path.js";
import type { WorkflowAudit } from "./types.js";

const cellCode = (text: string): string => markdownCode(text, { cell: true });

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function head(cells: readonly string[]): string[] {
  return [row(cells), `|${cells.map(() => "---").join("|")}|`];
}

function overview(op: OperationAudit): string[] {
  const files = op.files.map(
    (f) =>
      `${markdownCode(f.file)} (${markdownText(f.source ?? "source not told")}, ${String(f.records)} record(s))`,
  );
  const unread = op.unread;
  const lines = [
    `${markdownText(`${String(op.runs)} recorded run(s), ${String(op.events)} event(s), checked against ${op.basis}.`)}${files.length === 0 ? "" : ` Read from ${files.join(", ")}.`}`,
    "",
    `**${headline(op)}.** Process instances: ${String(op.instances.checked)} checked, ${String(op.instances.deviating)} deviating${op.unverifiedInstances === 0 ? "" : `, ${String(op.unverifiedInstances)} unverified (not ended before a gate their agent task requires)`}. Records that could not be read: ${String(unread.count + unread.inRuns)}.`,
    "",
    ...head(["verdict", "runs", "share"]),
    row(["✔ conforming", String(op.conforming.count), op.conforming.percent]),
    row(["✖ deviating", String(op.deviating.count), op.deviating.percent]),
    row([
      "⚠ unverified (could not be checked in full: not counted as conforming)",
      String(op.unverified.count),
      op.unverified.percent,
    ]),
    "",
  ];
  if (unread.count + unread.inRuns > 0) {
    lines.push(
      markdownText(
        `Records that could not be read: ${String(unread.count)} that no run could be given, ${String(unread.inRuns)} inside runs (each makes its run unverified).`,
      ),
      "",
    );
    for (const u of unread.first) {
      lines.push(`- ${markdownCode(eventWhere(u.at))}: ${markdownText(u.reason)}`);
    }
    if (unread.first.length > 0) lines.push("");
  }
  return lines;
}

function classes(op: OperationAudit): string[] {
  const lines = ["### Deviations by class", ""];
  if (op.classes.length === 0) return [...lines, "No deviation.", ""];
  lines.push(...head(["class", "count", "what it means (its first occurrence)"]));
  for (const c of op.classes) {
    lines.push(row([cellCode(c.class), String(c.count), markdownText(c.meaning)]));
  }
  lines.push("");
  return lines;
}

function instances(op: OperationAudit): string[] {
  if (op.deviatingInstances.length === 0) return [];
  const lines = [
    `### Deviating process instances (${String(op.deviatingInstances.length)} of ${String(op.instances.deviating)} listed)`,
    "",
    ...head(["instance", "process", "event", "class", "what happened"]),
  ];
  for (const i of op.deviatingInstances) {
    for (const d of i.deviations.slice(0, RUN_FINDINGS_LIMIT)) {
      lines.push(
        row([
          cellCode(i.instance),
          cellCode(i.process),
          cellCode(eventWhere(d.at)),
          cellCode(d.class),
          markdownText(deviationMessage(d)),
        ]),
      );
    }
  }
  lines.push("");
  return lines;
}

function runLines(run: RunResult, workflows: readonly WorkflowAudit[]): string[] {
  const lines = [`#### ${markdownText(runHeading(run))}`, ""];
  if (run.at !== undefined) lines.push(markdownText(`Began at ${eventWhere(run.at)}.`), "");
  if (run.deviations.length > 0) {
    lines.push(...head(["event", "class", "node", "what the run did"]));
    for (const d of run.deviations.slice(0, RUN_FINDINGS_LIMIT)) {
      lines.push(
        row([
          cellCode(eventWhere(d.at)),
          cellCode(d.class),
          d.node === undefined ? "" : cellCode(d.node),
          markdownText(deviationMessage(d)),
        ]),
      );
    }
    lines.push("");
  }
  if (run.unverified.length > 0) {
    lines.push(...head(["event", "unverified", "why"]));
    for (const u of run.unverified.slice(0, RUN_FINDINGS_LIMIT)) {
      lines.push(
        row([cellCode(eventWhere(u.at)), cellCode(u.reason), markdownText(unverifiedMessage(u))]),
      );
    }
    lines.push("");
  }
  for (const note of [
    moreFindingsNote(run.deviations.length, "deviation(s)"),
    moreFindingsNote(run.unverified.length, "unverified part(s)"),
  ]) {
    if (note !== undefined) lines.push(markdownText(note), "");
  }
  const path = runPath(run, workflows);
  lines.push(markdownText(pathText(path.visited)), "");
  if (path.offGraph.length > 0) {
    lines.push(
      markdownText(`Deviating nodes the workflow does not have: ${path.offGraph.join(", ")}.`),
      "",
    );
  }
  const w = path.workflow;
  const note = pathNotDrawn(run, w !== undefined, w?.drawing.drawn ?? false);
  if (note !== undefined || w === undefined) lines.push(markdownText(note ?? ""), "");
  else {
    lines.push(
      "```mermaid",
      runPathMermaid({ ...path, workflow: w }).trimEnd(),
      "```",
      "",
      markdownText(
        "Nodes the run executed are numbered (n) in the order it first executed them and outlined bold; nodes a deviation names are marked ✖ with their count and outlined in red. Dashed edges close a loop.",
      ),
      "",
    );
  }
  return lines;
}

/** The Operation section as Markdown lines; `workflows` are the report's. */
export function operationMarkdown(
  op: OperationAudit,
  workflows: readonly WorkflowAudit[],
): string[] {
  const lines = ["## Operation", "", ...overview(op), ...classes(op), ...instances(op)];
  lines.push(
    `### Worst runs (${String(op.worst.length)} shown: most deviations first, then unverified)`,
    "",
  );
  if (op.worst.length === 0) {
    lines.push(op.runs === 0 ? "No run was checked." : "Every run conforms.", "");
  }
  for (const run of op.worst) lines.push(...runLines(run, workflows));
  return lines;
}
