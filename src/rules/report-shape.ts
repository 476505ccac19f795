/**
 * Where a finding of a rule agentflow did not write is, checked when it is reported: a target
 * of one of the documented shapes, a path that is a string, a position of whole numbers, a
 * severity that exists. Every output reads these (SARIF's locations and levels, GitHub's
 * annotations, the text report's lines): a `null` target or a numeric path would crash one of
 * them and not another, and a severity such as `"critical"` would be neither an error nor a
 * warning — a finding of an error rule that no longer blocks. Each is read once into
 * agentflow's own object; a wrong one is the rule's mistake, named for `RULE_CRASHED`.
 */
import type { DiagnosticTarget, Severity, SourceLocation } from "../model/index.js";
import { WORKFLOW_TARGET } from "../model/index.js";
import { describeValue } from "./report-data.js";

/** A report that is not one of its scope: the rule's mistake, said in the message. */
export class BadReport extends Error {}

/** What a report holds, read field by field. */
export type RawReport = Readonly<Record<string, unknown>>;

const SEVERITIES: readonly unknown[] = ["error", "warning", "info"];

const TARGETS =
  '{ kind: "workflow" }, { kind: "node", nodeId }, { kind: "edge", index, from, to } or { kind: "bpmn-element", elementId }';

/**
 * The report's `key`, a string.
 *
 * @throws BadReport when it is none.
 */
export function stringField(report: RawReport, key: string, what: string): string {
  const value = report[key];
  if (typeof value === "string") return value;
  throw new BadReport(`its report's ${key} must be ${what}, not ${describeValue(value)}`);
}

function targetOf(value: unknown): DiagnosticTarget | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const t = value as RawReport;
  switch (t.kind) {
    case "workflow":
      return WORKFLOW_TARGET;
    case "node":
      return typeof t.nodeId === "string" ? { kind: "node", nodeId: t.nodeId } : undefined;
    case "edge": {
      const { index, from, to } = t;
      if (!Number.isSafeInteger(index) || (index as number) < 0) return undefined;
      if (typeof from !== "string" || typeof to !== "string") return undefined;
      return { kind: "edge", index: index as number, from, to };
    }
    case "bpmn-element": {
      const { elementId, path } = t;
      if (typeof elementId !== "string") return undefined;
      if (path === undefined) return { kind: "bpmn-element", elementId };
      return typeof path === "string" ? { kind: "bpmn-element", elementId, path } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A workflow report's target, read into agentflow's own object.
 *
 * @throws BadReport when it is none of the documented shapes.
 */
export function reportTarget(report: RawReport): DiagnosticTarget {
  const value = report.target;
  const target = targetOf(value);
  if (target !== undefined) return target;
  const kind =
    typeof value === "object" && value !== null
      ? ` of kind ${describeValue((value as RawReport).kind)}`
      : "";
  throw new BadReport(`its report's target must be ${TARGETS}, not ${describeValue(value)}${kind}`);
}

/**
 * A process report's `location`, when it gives one.
 *
 * @throws BadReport when it is no position.
 */
export function reportLocation(report: RawReport): SourceLocation | undefined {
  const value = report.location;
  if (value === undefined) return undefined;
  if (typeof value === "object" && value !== null) {
    const { line, column } = value as RawReport;
    if (Number.isSafeInteger(line) && Number.isSafeInteger(column)) {
      if ((line as number) >= 1 && (column as number) >= 1) {
        return { line: line as number, column: column as number };
      }
    }
  }
  throw new BadReport(
    "its report's location must be { line, column }, whole numbers from 1, or absent",
  );
}

/**
 * A process report's own `severity`, when it gives one (for findings that differ by kind, as
 * BPMN_PARSE's do).
 *
 * @throws BadReport when it is none of `error`, `warning` and `info`.
 */
export function reportSeverity(report: RawReport): Severity | undefined {
  const value = report.severity;
  if (value === undefined || SEVERITIES.includes(value)) return value as Severity | undefined;
  throw new BadReport(
    `its report's severity must be "error", "warning" or "info" (or absent), not ${describeValue(value)}`,
  );
}
