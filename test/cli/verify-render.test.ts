/**
 * The text report of `verify` shows names escaped: a subject named with a carriage return and an
 * escape sequence would otherwise print over its own line as `…: verified: …`.
 */
import { describe, expect, it } from "vitest";
import type { VerifyResult } from "../../src/approval/index.js";
import { verifyText } from "../../src/cli/verify-render.js";

const PLACE = { approval: "approval.json", root: "/repo", approvalName: "approval.json" };
const FORGED =
  "processes/x\r\u001B[2Kapproval.json: verified: 8 subject(s) unchanged\u001B[8m.bpmn";

describe("verifyText", () => {
  it("escapes a reason's names, and a registry file's", () => {
    const result: VerifyResult = {
      ok: false,
      reasons: [
        {
          code: "SUBJECT_ADDED",
          subject: FORGED,
          message: `${FORGED}: added since the approval`,
          data: { name: FORGED },
        },
      ],
      signers: [],
      statement: undefined,
    };
    const registry = [
      { file: "reg/\u202Eevil.json", named: true, code: "C", message: "bad", data: {} },
    ];
    expect(verifyText(result, { ...PLACE, registry })).toBe(
      "processes/x\\r\\u{1B}[2Kapproval.json: verified: 8 subject(s) unchanged\\u{1B}[8m.bpmn: added since the approval\n" +
        "the registry: reg/\\u{202E}evil.json: bad (C)\n",
    );
  });
});
