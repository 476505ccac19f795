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
import { visibleText } from "../model/index.js";
import type { ArtifactLocation } from "../report/sarif-uri.js";
import { artifactLocationOf, SRCROOT } from "../report/sarif-uri.js";
import type { FileRead } from "./conform-read.js";

/** The output formats. */
export const CONFORM_FORMATS = ["text", "json", "sarif"] as const;

/** What the outputs say besides the report. */
export interface ConformPlace {
  readonly basis: string;
  readonly files: readonly FileRead[];
}

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
  // Every line holds the runs' text (ids, models, a binary file's bytes in a parse error):
  // invisible characters shown escaped, as the audit report shows them, so `gpt-4o\u200B`
  // does not print as `gpt-4o` and no control character reaches the terminal.
  return lines.map(visibleText).join("\n") + "\n";
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

/** A result's location, as `location` makes it. */
interface SarifLocation {
  readonly physicalLocation: {
    readonly artifactLocation: ArtifactLocation;
    readonly region?: { readonly startLine: number };
  };
}

/**
 * Where an event is, as gate's and check's SARIF place files: a path below the working folder
 * relative to `%SRCROOT%`, any other a `file:` URI, every segment percent-encoded (a run file
 * may be called `my runs #1%.jsonl`).
 */
function location(at: EventAt | undefined, srcRoot: string | undefined): SarifLocation[] {
  if (at?.file === undefined || at.file === "-") return [];
  return [
    {
      physicalLocation: {
        artifactLocation: artifactLocationOf(at.file, srcRoot),
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

/**
 * `originalUriBaseIds` when a result's location is relative to `%SRCROOT%`: a base that a URI names
 * must be defined (SARIF 3.14.14), by its URI when it is known.
 */
function baseIds(
  results: readonly { readonly locations: readonly SarifLocation[] }[],
  srcRoot: string | undefined,
): Record<string, unknown> {
  const based = results.some((r) =>
    r.locations.some((l) => l.physicalLocation.artifactLocation.uriBaseId === SRCROOT),
  );
  if (!based) return {};
  const base =
    srcRoot === undefined
      ? { description: { text: "The folder agentflow was run in." } }
      : { uri: srcRoot.endsWith("/") ? srcRoot : `${srcRoot}/` };
  return { originalUriBaseIds: { [SRCROOT]: base } };
}

/**
 * The SARIF 2.1.0 log: one result per deviation (error) and per unverified part (warning).
 * `srcRoot`, the working folder as a `file:` URI, defines `%SRCROOT%`, as `formatSarif`'s does;
 * without it the base is described, not located.
 */
export function conformSarif(report: ConformanceReport, version: string, srcRoot?: string): string {
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
    locations: location(f.at, srcRoot),
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
        ...baseIds(results, srcRoot),
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
