/**
 * What the review puts on the process picture, as data: per agent task its level, gate status
 * and the link to its first finding; per AGENT_GATE_BYPASS finding the path it names. Built from
 * the report's data alone, so the Markdown and the HTML mark the same things.
 */
import type { AgentGateStatus, AgentTaskSummary } from "../../../bpmn/index.js";
import { agentGateStatus } from "../../../bpmn/index.js";
import { FINDINGS_LIMIT } from "../limits.js";
import type { ProcessAudit } from "../types.js";

/** An agent task's gate status as the picture shows it: `AgentGateStatus` of agentflow/bpmn. */
export type GateMark = AgentGateStatus;

/** Every {@link GateMark}, in the legend's order. */
export const GATE_MARKS: readonly GateMark[] = [
  "reached",
  "missing",
  "bypassed",
  "optional",
  "not-needed",
  "unresolved",
];

/** The words and sign of each {@link GateMark}; the colour only repeats them. */
export const GATE_MARK_TEXT: Readonly<Record<GateMark, string>> = {
  reached: "✔ gate reached",
  missing: "✖ gate missing",
  bypassed: "✖ gate bypassed",
  optional: "⚠ gate optional",
  "not-needed": "— no gate needed",
  unresolved: "? workflow unresolved",
};

/** The mark of a task: its `agentGateStatus` (agentflow/bpmn), the rule the modeller shows too. */
export function gateMark(
  task: Pick<AgentTaskSummary, "requirement" | "gate" | "resolution">,
): GateMark {
  return agentGateStatus(task);
}

/** One agent task's mark. */
export interface AgentMark {
  readonly level: number | null;
  readonly mark: GateMark;
  /** Its first listed finding in the page (`#finding-n`), if it has one. */
  readonly href: string | undefined;
  /** How many findings name it. */
  readonly findings: number;
}

/** One AGENT_GATE_BYPASS finding: the task, the path it names, and the finding's number. */
export interface BypassMark {
  readonly taskId: string;
  /** Element ids from the agent task to the end it reaches without a gate. */
  readonly path: readonly string[];
  /** The finding's page-wide number. */
  readonly finding: number;
  readonly listed: boolean;
}

/** Everything the picture marks. */
export interface ProcessMarks {
  readonly agents: ReadonlyMap<string, AgentMark>;
  readonly bypasses: readonly BypassMark[];
}

/** Reads the marks of `process`; findings are numbered from 1, as the page numbers them. */
export function processMarks(process: ProcessAudit): ProcessMarks {
  const first = new Map<string, string>();
  const counts = new Map<string, number>();
  const bypasses: BypassMark[] = [];
  let num = 0;
  for (const rule of process.rules) {
    rule.diagnostics.forEach((d, i) => {
      num += 1;
      if (d.target.kind !== "bpmn-element") return;
      const id = d.target.elementId;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      const listed = i < FINDINGS_LIMIT;
      if (listed && !first.has(id)) first.set(id, `#finding-${String(num)}`);
      const ids = d.data.pathIds;
      if (d.code === "AGENT_GATE_BYPASS" && Array.isArray(ids)) {
        const path = ids.filter((x): x is string => typeof x === "string");
        bypasses.push({ taskId: id, path, finding: num, listed });
      }
    });
  }
  const agents = new Map<string, AgentMark>();
  for (const t of process.agentTasks) {
    if (agents.has(t.elementId)) continue;
    agents.set(t.elementId, {
      level: t.level,
      mark: gateMark(t),
      href: first.get(t.elementId),
      findings: counts.get(t.elementId) ?? 0,
    });
  }
  return { agents, bypasses };
}

/** A badge's text: the level and the gate status, e.g. `L3 · ✖ gate missing`. */
export function badgeText(mark: AgentMark): string {
  return `L${mark.level === null ? "?" : String(mark.level)} · ${GATE_MARK_TEXT[mark.mark]}`;
}
