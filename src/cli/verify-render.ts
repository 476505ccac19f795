/**
 * What `agentflow verify` prints: in `text`, one line per reason (each reason's own message, which
 * names the file and what changed) or one line saying who verified; in `json`, the result as
 * data; in `sarif`, one result per reason whose rule is the reason's code and whose artifact is
 * the subject concerned (the approval itself for a reason about signatures or the statement).
 * Each error of the registry the gate ran with again (a conflict, an unreadable document) is
 * shown too, in every format: it blocks every decision checked with it, so it is often why a
 * decision changed, and a reader of the report alone must see it.
 */
import type { VerifiedSigner, VerifyResult } from "../approval/index.js";
import { visibleText } from "../model/index.js";
import { fileUriOf } from "../report/index.js";

/** The output formats `verify` accepts. */
export const VERIFY_FORMATS = ["text", "json", "sarif"] as const;

/** An error of the registry the gate ran with again, on the file it concerns. */
export interface RegistryError {
  /** The file: its name relative to the root, or the path as read when it is outside the root. */
  readonly file: string;
  /** Whether `file` is a name relative to the root. */
  readonly named: boolean;
  readonly code: string;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Where the reasons point (the repository root, and the approval file's name from it), and the
 * registry's errors the gate found when it ran again.
 */
export interface VerifyPlace {
  /** The approval as given on the command line. */
  readonly approval: string;
  /** The repository root, absolute. */
  readonly root: string;
  /** The approval's path relative to the root, or undefined when it is elsewhere. */
  readonly approvalName: string | undefined;
  /** The registry's errors, in the order the registry found them; none when the gate did not run. */
  readonly registry: readonly RegistryError[];
}

/**
 * A line of the text report: its names (a subject's, a registry file's, a claim) come from files
 * and folders others name, so a carriage return or an escape sequence in one would let it print
 * as another line (`verified: …`); they are shown escaped, as every other report shows names.
 */
const line = (text: string): string => `${visibleText(text)}\n`;

/** A registry error as one line, as the gate says it on stderr. */
const registryLine = (e: RegistryError): string =>
  line(`the registry: ${e.file}: ${e.message.replaceAll("\n", " ")} (${e.code})`);

function signerText(s: VerifiedSigner): string {
  const ticket = s.ticket === undefined ? "" : `, ticket ${s.ticket}`;
  return `key ${s.keyid.slice(0, 12)}… as ${s.role}${ticket} at ${s.time}`;
}

/** The text report: one line per reason, or the verified signers and subjects. */
export function verifyText(result: VerifyResult, place: VerifyPlace): string {
  if (!result.ok) {
    const reasons = result.reasons.map((r) => line(r.message.replaceAll("\n", " ")));
    return [...reasons, ...place.registry.map(registryLine)].join("");
  }
  const subjects = result.statement?.subject.length ?? 0;
  const signers = result.signers.map(signerText).join("; ");
  return line(
    `${place.approval}: verified: ${String(subjects)} subject(s) unchanged; ${String(result.signers.length)} trusted signature(s): ${signers}`,
  );
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
    registry: place.registry.map(({ file, code, message, data }) => ({
      file,
      code,
      message,
      data,
    })),
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

/** One SARIF result: an error at the start of its artifact. */
function sarifResult(
  code: string,
  codes: readonly string[],
  message: string,
  artifactLocation: Record<string, unknown>,
  data: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return {
    ruleId: code,
    ruleIndex: codes.indexOf(code),
    level: "error",
    message: { text: message },
    locations: [{ physicalLocation: { artifactLocation, region: { startLine: 1 } } }],
    properties: { data },
  };
}

/**
 * The SARIF 2.1.0 log: one result per reason, its rule the reason's code, then one per registry
 * error, its rule the error's code.
 */
export function verifySarif(result: VerifyResult, place: VerifyPlace, version: string): string {
  const reasonCodes: ReadonlySet<string> = new Set(result.reasons.map((r) => r.code));
  const registryCodes = new Set(place.registry.map((e) => e.code));
  const codes = [...new Set([...reasonCodes, ...registryCodes])].sort();
  const rules = codes.map((code) => ({
    id: code,
    name: code,
    shortDescription: {
      text: reasonCodes.has(code) ? `approval refused: ${code}` : `the registry: ${code}`,
    },
    helpUri: `https://agentflow.dev/docs/${reasonCodes.has(code) ? "approval" : "registry"}.md`,
    defaultConfiguration: { level: "error" },
  }));
  const results = [
    ...result.reasons.map((r) =>
      sarifResult(r.code, codes, r.message, artifactOf(r.subject, place), r.data),
    ),
    ...place.registry.map((e) =>
      sarifResult(
        e.code,
        codes,
        `the registry: ${e.file}: ${e.message}`,
        e.named ? artifactOf(e.file, place) : { uri: fileUriOf(e.file) ?? encodePath(e.file) },
        e.data,
      ),
    ),
  ];
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
