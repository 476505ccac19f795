/**
 * The statement `approve` signs: every input by the sha256 of its raw bytes (as on disk: a CRLF
 * file and its LF twin are different inputs), the decisions, and the first approver's claim.
 * Subjects and processes are sorted so that the same inputs named in another order give the
 * same bytes, hence the same payload to sign.
 */
import { sha256Bytes } from "../model/internal.js";
import { statementProblems } from "./check.js";
import { byCodeUnits } from "./internal.js";
import { PREDICATE_TYPE, STATEMENT_TYPE } from "./types.js";
import type {
  ApprovalInputs,
  ApprovalStatement,
  ApproverClaim,
  ProcessApproval,
  Subject,
  SubjectKind,
} from "./types.js";

/** One input file: its subject name (POSIX, relative to the repository root) and raw bytes. */
export interface StatementFile {
  readonly name: string;
  readonly kind: SubjectKind;
  /** The raw bytes; a string is taken as its UTF-8 bytes. */
  readonly bytes: Uint8Array | string;
}

/** What a statement is made of. */
export interface StatementInput {
  readonly files: readonly StatementFile[];
  readonly processes: readonly ProcessApproval[];
  readonly inputs: ApprovalInputs;
  readonly ruleSet: { readonly digest: string; readonly preset: string };
  /** The running agentflow's version. */
  readonly version: string;
  readonly approver: ApproverClaim;
}

const encoder = new TextEncoder();

/** A process decision with its fields in one order, whatever order the caller built them in. */
function normalized(p: ProcessApproval): ProcessApproval {
  return {
    name: p.name,
    processIds: [...p.processIds],
    allowed: p.allowed,
    agentTasks: p.agentTasks.map((t) => ({
      elementId: t.elementId,
      source: t.source,
      ref: t.ref,
      declaredLevel: t.declaredLevel,
      justifiedLevel: t.justifiedLevel,
      effectiveLevel: t.effectiveLevel,
      gate: t.gate,
      resolution: t.resolution,
      workflow: t.workflow,
      contentHash: t.contentHash,
      dependencies: t.dependencies.map((d) => ({
        kind: d.kind,
        ref: d.ref,
        name: d.name,
        contentHash: d.contentHash,
        failure: d.failure,
      })),
    })),
  };
}

function unique<T>(items: readonly T[], nameOf: (item: T) => string, what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    const name = nameOf(item);
    if (seen.has(name)) throw new TypeError(`${what} "${name}" is given twice`);
    seen.add(name);
  }
}

/**
 * The statement of `input`, hashing each file's bytes synchronously. Throws a `TypeError` for
 * two files or two processes of one name, or for a statement that would not pass
 * `statementProblems` (a process that is not a file of kind process, a workflow named by no
 * file…): a caller's mistake, not a reason to refuse an approval.
 *
 * @example
 * ```ts
 * import { createStatement } from "agentflow/approval";
 *
 * const statement = createStatement({
 *   files: [
 *     { name: "processes/loan.bpmn", kind: "process", bytes: "<definitions/>\r\n" },
 *     { name: "agentflow.config.json", kind: "config", bytes: new Uint8Array([123, 125]) },
 *   ],
 *   processes: [{ name: "processes/loan.bpmn", processIds: ["Loan"], allowed: true, agentTasks: [] }],
 *   inputs: { paths: ["processes"], registry: ["registry"], config: "agentflow.config.json" },
 *   ruleSet: { digest: "sha256:4bfaa9f8a7cb", preset: "recommended" },
 *   version: "0.1.0",
 *   approver: { role: "risk-officer", ticket: "CHG-1234", time: "2026-01-31T09:30:00Z" },
 * });
 * statement.subject.map((s) => s.name); // → ["agentflow.config.json", "processes/loan.bpmn"]
 * statement.subject[0]?.digest.sha256.slice(0, 12); // → "44136fa355b3"
 * ```
 */
export function createStatement(input: StatementInput): ApprovalStatement {
  unique(input.files, (f) => f.name, "file");
  unique(input.processes, (p) => p.name, "process");
  const subject: Subject[] = input.files
    .map((file) => ({
      name: file.name,
      digest: {
        sha256: sha256Bytes(
          typeof file.bytes === "string" ? encoder.encode(file.bytes) : file.bytes,
        ),
      },
      annotations: { agentflowKind: file.kind },
    }))
    .sort((a, b) => byCodeUnits(a.name, b.name));
  const { approver } = input;
  const statement: ApprovalStatement = {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: PREDICATE_TYPE,
    predicate: {
      agentflow: { version: input.version },
      ruleSet: { digest: input.ruleSet.digest, preset: input.ruleSet.preset },
      inputs: {
        paths: [...input.inputs.paths],
        registry: [...input.inputs.registry],
        config: input.inputs.config,
      },
      processes: input.processes.map(normalized).sort((a, b) => byCodeUnits(a.name, b.name)),
      approver:
        approver.ticket === undefined
          ? { role: approver.role, time: approver.time }
          : { role: approver.role, ticket: approver.ticket, time: approver.time },
    },
  };
  const problems = statementProblems(statement);
  if (problems.length > 0) {
    throw new TypeError(`not an approval statement:\n${problems.map((p) => p.message).join("\n")}`);
  }
  return statement;
}
