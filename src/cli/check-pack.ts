/**
 * `check` on a policy pack (`kind: PolicyPack`): the pack is read as `gate` reads it from a
 * config, and each problem is a `POLICY_PACK_INVALID` error at its place, so a pack can be
 * checked in CI before any config names it.
 */
import type { Diagnostic } from "../model/index.js";
import { WORKFLOW_TARGET } from "../model/index.js";
import { readPolicyPack } from "../policy/index.js";
import type { CheckedFile } from "../report/index.js";

/** The code of a problem of a policy pack found by `check`. */
export const POLICY_PACK_INVALID = "POLICY_PACK_INVALID";

/** Checks the text of a policy pack. */
export function checkPack(file: string, text: string): CheckedFile {
  const reading = readPolicyPack(text, file);
  if ("pack" in reading) {
    const { pack } = reading;
    return {
      file,
      kind: "PolicyPack",
      id: pack.name,
      version: pack.version,
      contentHash: pack.sha256,
      diagnostics: [],
    };
  }
  const diagnostics = reading.problems.map((p): Diagnostic => {
    const rule = p.ruleId === undefined ? "" : `rule ${p.ruleId}: `;
    const place = p.place === "" ? "" : `${p.place}: `;
    return {
      code: POLICY_PACK_INVALID,
      severity: "error",
      message: `${rule}${place}${p.message}`,
      remediation: "fix the pack (docs/policies.md); agentflow refuses to run a pack with problems",
      target: WORKFLOW_TARGET,
      path: "",
      data: { ...(p.ruleId === undefined ? {} : { ruleId: p.ruleId }), place: p.place },
      ...(p.line === undefined ? {} : { location: { line: p.line, column: p.column ?? 1 } }),
    };
  });
  return { file, kind: "PolicyPack", diagnostics };
}
