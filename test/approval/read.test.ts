/** readApproval: the envelope and its statement for showing, malformed input refused. */
import { describe, expect, it } from "vitest";
import { ApprovalFormatError, createApproval, readApproval } from "../../src/approval/index.js";
import { sampleStatement, testKey } from "./helpers.js";

describe("readApproval", async () => {
  const statement = sampleStatement();
  const envelope = await createApproval(statement, testKey().signer);

  it("reads the envelope's JSON value or its text", () => {
    expect(readApproval(envelope)).toEqual({ envelope, statement });
    expect(readApproval(JSON.stringify(envelope, null, 2))).toEqual({ envelope, statement });
  });

  it("does not check signatures (verifyApproval does)", () => {
    const unsigned = { ...envelope, signatures: [{ keyid: "x", sig: "AAAA" }] };
    expect(readApproval(unsigned).statement).toEqual(statement);
  });

  it("refuses text that is not JSON, and a malformed envelope, saying where", () => {
    expect(() => readApproval("{")).toThrow(new ApprovalFormatError("envelope: not JSON"));
    expect(() => readApproval({ ...envelope, signatures: [{ sig: 1 }] })).toThrow(
      new ApprovalFormatError("signatures[0].sig: not a string"),
    );
  });

  it("refuses a payload that is not an approval statement, with the statement's problems", () => {
    const other = { ...envelope, payload: Buffer.from('{"_type":"x"}').toString("base64") };
    expect(() => readApproval(other)).toThrow(ApprovalFormatError);
    expect(() => readApproval(other)).toThrow(
      new ApprovalFormatError(
        [
          "payload: not an approval statement:",
          "statement subject: missing",
          "statement predicateType: missing",
          "statement predicate: missing",
          'statement _type: must be "https://in-toto.io/Statement/v1"',
        ].join("\n"),
      ),
    );
  });
});
