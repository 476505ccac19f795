/**
 * What `agentflow verify` prints: in `text`, one line per reason (each reason's own message, which
 * names the file and what changed) or one line saying who verified; in `json`, the result as
 * data; in `sarif`, one result per reason whose rule is the reason's code and whose artifact is
 * the subject concerned (the approval itself for a reason about signatures or the statement).
 */
import type { VerifiedSigner, VerifyResult } from "../approval/index.js";
import { fileUriOf } from "../report/index.js";

/** The output formats `verify` accepts. */
export const VERIFY_FORMATS = ["text", "json", "sarif"] as const;

/** Where the reasons point: the repository root, and the approval file's name from it. */
export interface VerifyPlace {
  /** The approval as given on the command line. */
  readonly approval: string;
  /** The repository root, absolute. */
  readonly root: string;
  /** The approval's path relative to the root, or undefined when it is elsewhere. */
  readonly approvalName: string | undefined;
}

function signerText(s: VerifiedSigner): string {
  const ticket = s.ticket === undefined ? "" : `, ticket ${s.ticket}`;
  return `key ${s.keyid.slice(0, 12)}… as ${s.role}${ticket} at ${s.time}`;
}

/** The text report: one line per reason, or the verified signers and subjects. */
export function verifyText(result: VerifyResult, place: VerifyPlace): string {
  if (!result.ok) {
    return result.reasons.map((r) => `${r.message.replaceAll("\n", " ")}\n`).join("");
  }
  const subjects = result.statement?.subject.length ?? 0;
  const signers = result.signers.map(signerText).join("; ");
  return `${place.approval}: verified: ${String(subjects)} subject(s) unchanged; ${String(result.signers.length)} trusted signature(s): ${signers}\n`;
}

/** The JSON report: the result's data (the statement itself is the approval's). */
export function verifyJson(result: VerifyResult, place: VerifyPlace): string {
  const data = {
    approval: place.approval,
    ok: result.ok,
    reasons: result.reasons.map((r) => ({
      code: r.code,
      ...(r.subject === undefined ? {} : { subject: r.subject }),
      message: r.message,
      data: r.data,
    })),
    signers: result.signers,
    subjects: result.statement?.subject.length ?? null,
  };
  return JSON.stringify(data, null, 2) + "\n";
}

/** Lone UTF-16 surrogates (a tampered subject name may hold one) would make encoding throw. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const encodePath = (name: string): string =>
  name
    .split("/")
    .map((s) => encodeURIComponent(s.replace(LONE_SURROGATE, "\uFFFD")))
    .join("/");

/** A SARIF artifact location for a subject name (relative to the root) or the approval. */
function artifactOf(subject: string | undefined, place: VerifyPlace): Record<string, unknown> {
  const name = subject ?? place.approvalName;
  if (name !== undefined) return { uri: encodePath(name), uriBaseId: "%SRCROOT%" };
  return { uri: fileUriOf(place.approval) ?? encodePath(place.approval) };
}

/** The SARIF 2.1.0 log: one result per reason, its rule the reason's code. */
export function verifySarif(result: VerifyResult, place: VerifyPlace, version: string): string {
  const codes = [...new Set(result.reasons.map((r) => r.code))].sort();
  const rules = codes.map((code) => ({
    id: code,
    name: code,
    shortDescription: { text: `approval refused: ${code}` },
    helpUri: "https://agentflow.dev/docs/approval.md",
    defaultConfiguration: { level: "error" },
  }));
  const results = result.reasons.map((r) => ({
    ruleId: r.code,
    ruleIndex: codes.indexOf(r.code),
    level: "error",
    message: { text: r.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactOf(r.subject, place),
          region: { startLine: 1 },
        },
      },
    ],
    properties: { data: r.data },
  }));
  const root = fileUriOf(place.root);
  const run = {
    tool: {
      driver: {
        name: "agentflow",
        informationUri: "https://agentflow.dev/",
        version,
        semanticVersion: version,
        rules,
      },
    },
    ...(root === undefined ? {} : { originalUriBaseIds: { "%SRCROOT%": { uri: `${root}/` } } }),
    results,
    properties: { approval: place.approval, ok: result.ok, signers: result.signers },
  };
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [run],
  };
  return JSON.stringify(log, null, 2) + "\n";
}
