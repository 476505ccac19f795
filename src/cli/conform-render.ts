/**
 * `conform`'s outputs: text for people (one line per deviation and per unverified part, with
 * the file, line and ids of the event that shows it), JSON (the report with every message), and
 * SARIF 2.1.0 (each deviation a result at its run file and line).
 */
import type {
  ConformanceReport,
  Deviation,
  EventAt,
  RunResult,
  Unverified,
} from "../conform/index.js";
import { deviationMessage, unverifiedMessage } from "../conform/index.js";
import { fileUriOf } from "../report/index.js";
import type { FileRead } from "./conform-read.js";

/** The output formats. */
export const CONFORM_FORMATS = ["text", "json", "sarif"] as const;

/** What the outputs say besides the report. */
export interface ConformPlace {
  readonly basis: string;
  readonly files: readonly FileRead[];
}

/** Control characters (a binary file's bytes in a parse error) shown escaped, never raw. */
const safe = (text: string): string =>
  text.replace(
    // eslint-disable-next-line no-control-regex -- the control characters are what it replaces
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

function where(at: EventAt | undefined): string {
  if (at === undefined) return "";
  const file = at.file ?? "";
  const line = at.line === undefined ? `#${at.index}` : `:${at.line}`;
  const ids = Object.entries(at.ids ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const time = at.time === undefined ? "" : ` ${at.time}`;
  return `${file}${line}${time}${ids === "" ? "" : ` [${ids}]`}`;
}

const runName = (run: RunResult): string =>
  `run ${run.run}${run.workflow === null ? "" : ` (${run.workflow})`}`;

/** The one-line summary. */
export function conformSummary(report: ConformanceReport): string {
  const s = report.summary;
  const classes = Object.entries(s.deviationsByClass)
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");
  const unmapped = report.unmapped.count === 0 ? "" : `; ${report.unmapped.count} record(s) unread`;
  const instances = report.instances.filter((i) => i.deviations.length > 0).length;
  const open = report.instances.filter(
    (i) => i.deviations.length === 0 && i.unverified.length > 0,
  ).length;
  const inst =
    report.instances.length === 0
      ? ""
      : `; ${report.instances.length} process instance(s), ${instances} deviating${open === 0 ? "" : `, ${open} unverified`}`;
  if (s.runs === 0 && report.instances.length === 0) {
    return `0 run(s) and 0 process instance(s): nothing was checked, so nothing conforms${unmapped}`;
  }
  return `${s.runs} run(s): ${s.conforming} conforming, ${s.deviating} deviating, ${s.unverified} unverified${inst}${unmapped}${classes === "" ? "" : ` (${classes})`}`;
}

/** The text report. */
export function conformText(report: ConformanceReport, place: ConformPlace): string {
  const lines: string[] = [`checked against ${place.basis}`];
  for (const run of report.runs) {
    if (run.verdict === "conforming") continue;
    lines.push(`${runName(run)}: ${run.verdict}`);
    for (const d of run.deviations)
      lines.push(`  ${where(d.at)}  ${d.class}  ${deviationMessage(d)}`);
    for (const u of run.unverified)
      lines.push(`  ${where(u.at)}  unverified ${u.reason}  ${unverifiedMessage(u)}`);
  }
  for (const instance of report.instances) {
    if (instance.deviations.length === 0 && instance.unverified.length === 0) continue;
    const verdict = instance.deviations.length > 0 ? "deviating" : "unverified";
    lines.push(`process instance ${instance.instance} (${instance.process}): ${verdict}`);
    for (const d of instance.deviations)
      lines.push(`  ${where(d.at)}  ${d.class}  ${deviationMessage(d)}`);
    for (const u of instance.unverified)
      lines.push(`  ${where(u.at)}  unverified ${u.reason}  ${unverifiedMessage(u)}`);
  }
  for (const u of report.unmapped.first) lines.push(`unread record ${where(u.at)}: ${u.reason}`);
  if (report.unmapped.count > report.unmapped.first.length) {
    lines.push(
      `… and ${report.unmapped.count - report.unmapped.first.length} more unread record(s)`,
    );
  }
  lines.push(conformSummary(report));
  return lines.map(safe).join("\n") + "\n";
}

const withMessage = (d: Deviation): Deviation & { readonly message: string } => ({
  ...d,
  message: deviationMessage(d),
});
const withReason = (u: Unverified): Unverified & { readonly message: string } => ({
  ...u,
  message: unverifiedMessage(u),
});

/** The JSON report. */
export function conformJson(report: ConformanceReport, place: ConformPlace): string {
  const out = {
    basis: place.basis,
    files: place.files,
    summary: report.summary,
    runs: report.runs.map((r) => ({
      ...r,
      deviations: r.deviations.map(withMessage),
      unverified: r.unverified.map(withReason),
    })),
    instances: report.instances.map((i) => ({
      ...i,
      deviations: i.deviations.map(withMessage),
      unverified: i.unverified.map(withReason),
    })),
    unmapped: report.unmapped,
  };
  return JSON.stringify(out, null, 2) + "\n";
}

function location(at: EventAt | undefined): Record<string, unknown>[] {
  if (at?.file === undefined || at.file === "-") return [];
  const uri = fileUriOf(at.file) ?? at.file;
  return [
    {
      physicalLocation: {
        artifactLocation: { uri },
        ...(at.line === undefined ? {} : { region: { startLine: at.line } }),
      },
    },
  ];
}

/** A run's or an instance's findings as SARIF results take them, named `run`. */
function itemFindings(
  item: { readonly deviations: readonly Deviation[]; readonly unverified: readonly Unverified[] },
  run: string,
) {
  return [
    ...item.deviations.map((d) => ({
      id: d.class,
      level: "error",
      text: deviationMessage(d),
      at: d.at,
      run,
      data: d.data,
    })),
    ...item.unverified.map((u) => ({
      id: `UNVERIFIED_${u.reason}`,
      level: "warning",
      text: unverifiedMessage(u),
      at: u.at,
      run,
      data: u.data,
    })),
  ];
}

/**
 * The unread records the report counts and does not list (it keeps the first twenty), as one
 * result that says how many: a SARIF reader counting results must not take them for none.
 */
function unlisted(report: ConformanceReport) {
  const more = report.unmapped.count - report.unmapped.first.length;
  if (more <= 0) return [];
  return [
    {
      id: "UNREAD_RECORD",
      level: "warning",
      text: `${more} more record(s) that no run could be given were not read, and are not listed here (${report.unmapped.count} in all; the first ${report.unmapped.first.length} are listed)`,
      at: undefined,
      run: "",
      data: { unlisted: more, count: report.unmapped.count },
    },
  ];
}

/** The SARIF 2.1.0 log: one result per deviation (error) and per unverified part (warning). */
export function conformSarif(report: ConformanceReport, version: string): string {
  const findings = [
    ...report.runs.flatMap((r) => itemFindings(r, r.run)),
    ...report.instances.flatMap((i) => itemFindings(i, i.instance)),
    ...report.unmapped.first.map((u) => ({
      id: "UNREAD_RECORD",
      level: "warning",
      text: u.reason,
      at: u.at,
      run: "",
      data: {},
    })),
    ...unlisted(report),
  ];
  const ids = [...new Set(findings.map((f) => f.id))].sort();
  const rules = ids.map((id) => ({
    id,
    name: id,
    shortDescription: { text: `run conformance: ${id}` },
    helpUri: "https://agentflow.dev/docs/conform.md",
  }));
  const results = findings.map((f) => ({
    ruleId: f.id,
    ruleIndex: ids.indexOf(f.id),
    level: f.level,
    message: { text: f.text },
    locations: location(f.at),
    properties: { run: f.run, event: f.at ?? null, data: f.data },
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "agentflow",
            informationUri: "https://agentflow.dev/",
            version,
            semanticVersion: version,
            rules,
          },
        },
        results,
        properties: {
          summary: report.summary,
          unreadRecords: { count: report.unmapped.count, listed: report.unmapped.first.length },
        },
      },
    ],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
