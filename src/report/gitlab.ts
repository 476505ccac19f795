/**
 * The `gitlab` format: a GitLab Code Quality report, the subset of the Code Climate issue format
 * GitLab reads (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
 * `location.lines.begin`), shown in merge-request widgets and diffs when a job uploads it as
 * `artifacts:reports:codequality`.
 */
import { sha256 } from "../model/index.js";
import type { Diagnostic, Severity } from "../model/index.js";
import { waiverText } from "./extension.js";
import { slashedPath } from "./sarif-uri.js";
import type { CheckedFile } from "./types.js";

/**
 * Severities as GitLab names them. An error blocks promotion and is `major`, a warning `minor`,
 * as the ESLint GitLab formatters map them; `critical` and `blocker` are left to security tools.
 */
const SEVERITIES: Readonly<Record<Severity, "major" | "minor" | "info">> = {
  error: "major",
  warning: "minor",
  info: "info",
};

/** One issue of the report. */
export interface GitlabIssue {
  readonly type: "issue";
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: "major" | "minor" | "info";
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
  /**
   * agentflow's own fields, which GitLab does not read (it reads the fields above only): the
   * digest of the rule set that judged, and the waiver of a waived finding.
   */
  readonly agentflow?: {
    readonly ruleSet?: string;
    readonly waived?: NonNullable<Diagnostic["waived"]>;
  };
}

/** Options of {@link formatGitlab}. */
export interface GitlabFormatOptions {
  /** The rule set's digest, carried by every issue (`agentflow.ruleSet`). */
  readonly ruleSet?: string;
  /**
   * Whether a backslash in a file path separates folders, as on Windows; by default, whether
   * agentflow runs on Windows. Elsewhere a backslash is part of a file name, and stays.
   */
  readonly windowsPaths?: boolean;
}

/**
 * What a finding is about: the id where it has one, with the part of its JSON Pointer below the
 * node or edge (`/config`, `/type`), so that two findings of one code on one node are told apart
 * by what they point at rather than by their order (fixing one must not hand its fingerprint to
 * the other), while moving the node in the file keeps both; a BPMN element by its id alone; else
 * the whole pointer.
 */
function subject(d: Diagnostic): string {
  const target = d.target;
  const below = d.path.replace(/^\/(nodes|edges)\/\d+(?=\/|$)/, "");
  // A BPMN pointer is the element's place among its siblings, which moves with no change to it.
  if (target.kind === "bpmn-element") return `element:${target.elementId}`;
  if (target.kind === "node") return `node:${target.nodeId}:${below}`;
  if (target.kind === "edge") return `edge:${target.from}->${target.to}:${below}`;
  return `pointer:${d.path}`;
}

/** A path as GitLab matches it to the repository: slashes between folders, no leading `./`. */
function repositoryPath(file: string, windows: boolean | undefined): string {
  let path = slashedPath(file, windows);
  while (path.startsWith("./")) path = path.slice(2);
  return path;
}

/**
 * Renders checked files as a GitLab Code Quality report (a JSON array, in file order and, within
 * a file, in the order given). The fingerprint hashes the code, the file and what the finding is
 * about (element or node id and the pointer below it, else the pointer), never the line or the
 * message, so an issue keeps its
 * identity when lines move or wording changes; the same finding twice on one subject is told
 * apart by its occurrence, since GitLab drops issues whose fingerprints repeat.
 *
 * @example
 * ```ts
 * import { formatGitlab, type CheckedFile } from "agentflow/report";
 *
 * const files: CheckedFile[] = [
 *   {
 *     file: "agents/triage.agent.yaml",
 *     kind: "AgentWorkflow",
 *     diagnostics: [
 *       {
 *         code: "BUDGET_MISSING",
 *         severity: "warning",
 *         message: 'workflow "agnt-triage" runs at autonomy 2 but states no budget',
 *         target: { kind: "workflow" },
 *         path: "",
 *         data: { level: 2 },
 *         location: { line: 1, column: 1 },
 *       },
 *     ],
 *   },
 * ];
 * const [issue] = JSON.parse(formatGitlab(files)) as { severity: string; location: unknown }[];
 * issue?.severity; // → "minor"
 * issue?.location; // → { path: "agents/triage.agent.yaml", lines: { begin: 1 } }
 * ```
 */
export function formatGitlab(
  files: readonly CheckedFile[],
  options: GitlabFormatOptions = {},
): string {
  const issues: GitlabIssue[] = [];
  const seen = new Map<string, number>();
  for (const file of files) {
    const path = repositoryPath(file.file, options.windowsPaths);
    for (const d of file.diagnostics) {
      const key = JSON.stringify([d.code, path, subject(d)]);
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      const own = {
        ...(options.ruleSet === undefined ? {} : { ruleSet: options.ruleSet }),
        ...(d.waived === undefined ? {} : { waived: d.waived }),
      };
      issues.push({
        type: "issue",
        // A waived finding is shown as info, with its waiver: it does not block the merge.
        description: d.waived === undefined ? d.message : `${d.message} (${waiverText(d.waived)})`,
        check_name: d.code,
        fingerprint: sha256(JSON.stringify(["agentflow/v1", key, occurrence])),
        severity: d.waived === undefined ? SEVERITIES[d.severity] : "info",
        location: { path, lines: { begin: d.location?.line ?? 1 } },
        ...(Object.keys(own).length === 0 ? {} : { agentflow: own }),
      });
    }
  }
  return JSON.stringify(issues, null, 2) + "\n";
}
