/**
 * The words of the report's Approval section, shared by the Markdown and HTML renderings so that
 * both say the same thing: whose claims these are, what drifted, which agent tasks changed.
 */
import type { ApprovalTaskView, ApprovalView, ApprovedFileView } from "./types.js";

/** How many hex digits of a key id or digest are shown before the ellipsis. */
const SHOWN = 12;

/** A key id or digest shortened for a table cell: its first 12 hex digits and `…`. */
export function shortHex(hex: string): string {
  return hex.length <= SHOWN ? hex : `${hex.slice(0, SHOWN)}…`;
}

/** The sentence that opens the section: which approval, made with what. */
export function approvalIntro(view: ApprovalView): string {
  return `${view.file} (${view.fileHash}) approves ${String(view.files.length)} file(s), made with agentflow ${view.version} and rule set ${view.ruleSetDigest}.`;
}

/**
 * Whose word the signer table is: the envelope's own claims, unless trusted keys were given —
 * then how many signatures verified.
 */
export function signersNote(view: ApprovalView): string {
  const v = view.verification;
  if (v === null) {
    return "These signers, roles, tickets and times are what the envelope claims: no signature was verified (give --trusted-keys to check them, or run agentflow verify).";
  }
  const verified = view.signers.filter((s) => s.verified === true).length;
  const checked = `Checked against ${String(v.trustedKeys)} trusted key(s): ${String(verified)} of ${String(view.signers.length)} signature(s) verified`;
  return verified === view.signers.length
    ? `${checked}.`
    : `${checked}; the claims of the others are the envelope's word only.`;
}

/** A signature's check, for its table cell. */
export function verifiedText(verified: boolean | null): string {
  if (verified === null) return "not checked";
  return verified ? "✔ verified" : "✖ not verified";
}

/** A file's status, for its table cell. */
export function fileStatusText(status: ApprovedFileView["status"]): string {
  if (status === "unchanged") return "✔ unchanged";
  return status === "changed" ? "✖ changed since the approval" : "✖ missing";
}

/** The sentence over the file table: what drifted, or that nothing did. */
export function filesSummary(files: readonly ApprovedFileView[]): string {
  const changed = files.filter((f) => f.status === "changed").length;
  const missing = files.filter((f) => f.status === "missing").length;
  if (changed + missing === 0) {
    return "Every approved file is unchanged: its bytes now have the approved sha256.";
  }
  return `${String(changed)} of ${String(files.length)} approved file(s) changed since the approval, ${String(missing)} missing (compared by the sha256 of their bytes now, under the repository root).`;
}

/** The sentence over the task table. */
export function decisionSummary(decision: NonNullable<ApprovalView["decision"]>): string {
  if (decision.entry === null) {
    return "The approval holds no decision for this process file: every agent task is new to it.";
  }
  if (decision.tasks.length === 0) {
    return `No agent task's decision changed since the approval (its entry ${decision.entry}).`;
  }
  return `${String(decision.tasks.length)} agent task(s) differ from the approved decision (its entry ${decision.entry}):`;
}

/** What changed about one task, for its table cell. */
export function taskChangeText(task: ApprovalTaskView): string {
  if (task.change === "added") return "not in the approval";
  if (task.change === "removed") return "approved, no longer in the process";
  return `changed since the approval: ${task.fields.join(", ")}`;
}

/** What the signatures are worth, for the header tag: its words and how it reads. */
function signaturesTag(view: ApprovalView): { readonly text: string; readonly kind: TagKind } {
  if (view.verification === null) return { text: "signatures not checked", kind: "warn" };
  const verified = view.signers.filter((s) => s.verified === true).length;
  const all = view.signers.length;
  if (verified === 0) return { text: "no signature verified", kind: "bad" };
  if (verified === all) return { text: "signatures verified", kind: "ok" };
  return { text: `${String(verified)} of ${String(all)} signature(s) verified`, kind: "warn" };
}

/** How a header tag reads: as the page's tags are styled. */
export type TagKind = "ok" | "warn" | "bad";

/**
 * The summary line of the section, for the page header: drift or none, and what the signatures
 * are worth. The header is what a reader takes in at a glance, so a green tag needs both: nothing
 * drifted, and every signature verified with a trusted key. Unchecked signatures (no
 * `--trusted-keys`) are the envelope's word, a warning; none verified is as bad as drift.
 */
export function approvalTag(view: ApprovalView): { readonly text: string; readonly kind: TagKind } {
  const drifted = view.files.filter((f) => f.status !== "unchanged").length;
  const tasks = view.decision?.tasks.length ?? 0;
  const signatures = signaturesTag(view);
  if (drifted === 0 && tasks === 0 && view.decision?.entry !== null) {
    const mark = signatures.kind === "ok" ? "✔" : signatures.kind === "warn" ? "⚠" : "✖";
    return { text: `${mark} approval: nothing changed, ${signatures.text}`, kind: signatures.kind };
  }
  return {
    text: `✖ approval: ${String(drifted)} file(s), ${String(tasks)} agent task(s) changed, ${signatures.text}`,
    kind: "bad",
  };
}
