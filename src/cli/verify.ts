/**
 * `agentflow verify <approval.json> --trusted-keys <dir|file> [paths…]`: the deploy job's check.
 * Exit 0 only when the envelope's signatures verify from enough distinct trusted keys (with the
 * required roles), the approval is young enough, and the gate on the same inputs now gives
 * exactly the approved statement: every subject's bytes, every decision, the rule set and the
 * version. Otherwise exit 1, one line per reason. A malformed envelope or key, or a trusted-keys
 * folder with no key, is exit 2. The keys trusted are only those `--trusted-keys` names.
 */
import type {
  ApprovalStatement,
  StatementInput,
  VerifyOptions,
  VerifyResult,
} from "../approval/index.js";
import {
  ApprovalFormatError,
  createStatement,
  parseEnvelope,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
  verifyApproval,
} from "../approval/index.js";
import type { Gathered } from "./approval-inputs.js";
import { presentSubjects, readApprovalJson, regather } from "./approval-regather.js";
import { repositoryRoot, subjectName } from "./approval-root.js";
import { emitReport } from "./emit.js";
import { checkOutputPath } from "./output.js";
import type { CliIo } from "./io.js";
import { UsageError, wholeNumber } from "./io.js";
import { checkOutputBesideKeys, loadTrustedKeys } from "./trusted-keys.js";
import { packageVersion } from "./version.js";
import type { RegistryError, VerifyPlace } from "./verify-render.js";
import { VERIFY_FORMATS, verifyJson, verifySarif, verifyText } from "./verify-render.js";

/** Options of `agentflow verify`, as commander parses them. */
export interface VerifyCliOptions {
  readonly format: string;
  readonly trustedKeys?: readonly string[];
  readonly threshold?: string;
  readonly requireRoles?: string;
  readonly maxAge?: string;
  readonly now?: string;
  readonly registry?: string;
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly root?: string;
  readonly outputFile?: string;
}

/** `--threshold`: a whole number ≥ 1 (default 1). */
export function parseThreshold(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = wholeNumber(value);
  if (n === undefined || n < 1) {
    throw new UsageError(`--threshold needs a whole number ≥ 1, got '${value}'`);
  }
  return n;
}

/** `--require-roles a,b`: the roles, each named. */
export function parseRoles(value: string | undefined): string[] {
  if (value === undefined) return [];
  const roles = value.split(",").map((r) => r.trim());
  if (roles.some((r) => r === "")) {
    throw new UsageError(
      `--require-roles '${value}' names an empty role; give roles separated by commas`,
    );
  }
  return [...new Set(roles)];
}

const UNIT_MS: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000 };

/** `--max-age`: `<n>d`, `<n>h` or `<n>m` (minutes), n a whole number ≥ 1, in milliseconds. */
export function parseMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^([1-9][0-9]*)([dhm])$/.exec(value);
  const unit = UNIT_MS[match?.[2] ?? ""];
  if (match === null || unit === undefined) {
    throw new UsageError(
      `--max-age needs a whole number ≥ 1 with a unit, d (days), h (hours) or m (minutes), e.g. 30d; got '${value}'`,
    );
  }
  const ms = Number(match[1]) * unit;
  if (!Number.isSafeInteger(ms)) throw new UsageError(`--max-age '${value}' is too large`);
  return ms;
}

/** `--now`: an ISO 8601 time with a date, a time and a zone (default: the clock). */
export function parseNow(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
  const ms = Date.parse(value);
  if (!iso.test(value) || !Number.isFinite(ms)) {
    throw new UsageError(
      `--now needs an ISO 8601 time with its zone, e.g. 2026-03-01T12:00:00Z; got '${value}'`,
    );
  }
  return new Date(ms);
}

/**
 * The statement the files give now. With no file left (every approved path gone, no config),
 * there is no subject to make a valid statement of: the bare one says every approved subject was
 * removed.
 */
function currentStatement(gathered: Gathered, now: Date): ApprovalStatement {
  const input: StatementInput = {
    ...gathered.input,
    approver: { role: "verifier", time: now.toISOString() },
  };
  if (input.files.length > 0) return createStatement(input);
  return {
    _type: STATEMENT_TYPE,
    subject: [],
    predicateType: PREDICATE_TYPE,
    predicate: {
      agentflow: { version: input.version },
      ruleSet: input.ruleSet,
      inputs: input.inputs,
      processes: [],
      approver: input.approver,
    },
  };
}

/** The registry's errors the gate found, each on its file, named from the root when inside it. */
function registryErrors(gathered: Gathered | undefined, cwd: string): RegistryError[] {
  const out: RegistryError[] = [];
  for (const file of gathered?.run.registry ?? []) {
    let name: string | undefined;
    try {
      name = subjectName(gathered?.root ?? cwd, cwd, file.file);
    } catch {
      name = undefined;
    }
    for (const { severity, code, message, data } of file.diagnostics) {
      if (severity !== "error") continue;
      out.push({ file: name ?? file.file, named: name !== undefined, code, message, data });
    }
  }
  return out;
}

/**
 * Verifies the approval file's JSON (read once, so that both checks judge the same bytes); an
 * envelope or payload that is malformed is a {@link UsageError} (exit 2), not a reason.
 */
async function verifiedFile(
  file: string,
  value: unknown,
  options: VerifyOptions,
): Promise<VerifyResult> {
  try {
    return await verifyApproval(parseEnvelope(value), options);
  } catch (error) {
    if (error instanceof ApprovalFormatError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

/** Runs the command; resolves to the exit code. */
export async function runVerify(
  approvalFile: string,
  paths: readonly string[],
  options: VerifyCliOptions,
  io: CliIo,
): Promise<number> {
  if (!(VERIFY_FORMATS as readonly string[]).includes(options.format)) {
    throw new UsageError(
      `unknown format '${options.format}' (expected ${VERIFY_FORMATS.join(", ")})`,
    );
  }
  const threshold = parseThreshold(options.threshold);
  const requireRoles = parseRoles(options.requireRoles);
  const maxAgeMs = parseMaxAge(options.maxAge);
  const now = parseNow(options.now);
  if (options.outputFile !== undefined) {
    await checkOutputPath(options.outputFile);
    await checkOutputBesideKeys(options.outputFile, options.trustedKeys ?? []);
  }
  const { keys: trustedKeys, reads: keyReads } = await loadTrustedKeys(options.trustedKeys ?? []);
  const cwd = process.cwd();
  const checks: VerifyOptions = {
    trustedKeys,
    threshold,
    requireRoles,
    ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
    now,
  };
  const value = await readApprovalJson(approvalFile);
  let result = await verifiedFile(approvalFile, value, checks);
  let gathered: Gathered | undefined;
  // The gate runs again only on a statement enough trusted keys signed: the inputs it records
  // choose a config, and a config chooses plugins, whose code runs. An approval nobody trusted
  // must not choose what runs on the deploy job; it is refused on its signatures alone.
  if (result.statement !== undefined && result.signers.length >= threshold) {
    gathered = await regather(
      result.statement.predicate.inputs,
      { ...options, paths, approvalFile },
      io,
      cwd,
    );
    result = await verifiedFile(approvalFile, value, {
      ...checks,
      current: currentStatement(gathered, now),
      present: await presentSubjects(result.statement, gathered, cwd),
    });
  }
  const root = gathered?.root ?? repositoryRoot(options.root, [cwd], cwd);
  let approvalName: string | undefined;
  try {
    approvalName = subjectName(root, cwd, approvalFile);
  } catch {
    approvalName = undefined;
  }
  const place: VerifyPlace = {
    approval: approvalFile,
    root,
    approvalName,
    registry: registryErrors(gathered, cwd),
  };
  const report =
    options.format === "json"
      ? verifyJson(result, place)
      : options.format === "sarif"
        ? verifySarif(result, place, packageVersion())
        : verifyText(result, place);
  const summary = result.ok
    ? `verified (${String(result.signers.length)} trusted signature(s))`
    : `refused: ${String(result.reasons.length)} reason(s)`;
  const reads = [
    ...(gathered?.run.reads ?? []),
    { path: approvalFile, role: "the approval" },
    ...keyReads,
  ];
  await emitReport(report, options.outputFile, reads, summary, io);
  if (!result.ok && options.outputFile === undefined) {
    io.stderr(`agentflow: ${approvalFile}: ${summary}\n`);
  }
  return result.ok ? 0 : 1;
}
