/**
 * verifyApproval: every refusal the deploy job relies on, one case each with its exact reason,
 * and the untouched approval accepted. Keys are node:crypto keys built here; envelopes that
 * agentflow would refuse to make are signed by hand, as DSSE says.
 */
import { describe, expect, it } from "vitest";
import type { ApproverClaim, Envelope, VerifyOptions } from "../../src/approval/index.js";
import {
  ApprovalFormatError,
  createApproval,
  signApproval,
  verifyApproval,
} from "../../src/approval/index.js";
import { AGENTFLOW_VERSION } from "../../src/model/index.js";
import type { TestKey } from "./helpers.js";
import { copy, sampleInput, sampleStatement, signedByHand, testKey } from "./helpers.js";

/** An envelope of any JSON value, signed by each test key with its claim, by hand. */
const signed = (value: unknown, signers: readonly [TestKey, ApproverClaim][]): Promise<Envelope> =>
  signedByHand(
    value,
    signers.map(([key, claim]) => [key.signer, claim] as const),
  );

const statement = sampleStatement();
const CREDIT = { role: "credit-officer", ticket: "CHG-1", time: "2026-01-31T09:30:00Z" };
const RISK = { role: "risk-officer", time: "2026-02-01T10:00:00Z" };
const alice = testKey();
const bob = testKey("p256");
const carol = testKey();
const short = (key: TestKey): string => `${key.keyid.slice(0, 12)}…`;

const messages = async (envelope: Envelope, options: VerifyOptions): Promise<string[]> =>
  (await verifyApproval(envelope, options)).reasons.map((r) => r.message);

describe("verifyApproval", () => {
  it("accepts an untouched approval, naming its signers", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const result = await verifyApproval(envelope, {
      trustedKeys: [bob.trusted(), alice.trusted(["credit-officer"])],
      current: sampleStatement(),
      requireRoles: ["credit-officer"],
      maxAgeMs: 86_400_000,
      now: new Date("2026-02-01T09:30:00Z"),
    });
    expect(result).toEqual({
      ok: true,
      reasons: [],
      signers: [{ index: 0, keyid: alice.keyid, ...CREDIT }],
      statement,
    });
  });

  it("accepts two distinct trusted keys for a threshold of 2, with both roles", async () => {
    const envelope = await signApproval(
      await createApproval(statement, alice.signer),
      bob.signer,
      RISK,
    );
    const result = await verifyApproval(envelope, {
      trustedKeys: [alice.trusted(), bob.trusted()],
      threshold: 2,
      requireRoles: ["credit-officer", "risk-officer"],
    });
    expect(result.reasons).toEqual([]);
    expect(result.signers.map((s) => [s.keyid, s.role])).toEqual([
      [alice.keyid, "credit-officer"],
      [bob.keyid, "risk-officer"],
    ]);
  });

  it("THRESHOLD_NOT_MET: one signature of two", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const result = await verifyApproval(envelope, {
      trustedKeys: [alice.trusted(), bob.trusted()],
      threshold: 2,
    });
    expect(result.ok).toBe(false);
    expect(result.reasons).toEqual([
      {
        code: "THRESHOLD_NOT_MET",
        message: "2 distinct trusted signatures needed, 1 verified",
        data: { threshold: 2, verified: 1 },
      },
    ]);
  });

  it("KEY_REPEATED: the same key twice counts once", async () => {
    const envelope = await signed(statement, [
      [alice, CREDIT],
      [alice, RISK],
    ]);
    const result = await verifyApproval(envelope, { trustedKeys: [alice.trusted()], threshold: 2 });
    expect(result.reasons.map((r) => r.message)).toEqual([
      `signature 2 (key ${short(alice)}): the same key as signature 1, counted once`,
      "2 distinct trusted signatures needed, 1 verified",
    ]);
    expect(result.signers).toHaveLength(1);
  });

  it("SIGNATURE_UNTRUSTED: a key the verifier does not trust", async () => {
    const envelope = await createApproval(statement, carol.signer);
    expect(await messages(envelope, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(carol)}): not from a trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("reads the key id as a hint: a signature without one, or in capitals, counts for the trusted key that verifies it", async () => {
    const envelope = await createApproval(statement, alice.signer);
    for (const keyid of ["", alice.keyid.toUpperCase(), carol.keyid]) {
      const hinted = { ...envelope, signatures: envelope.signatures.map((s) => ({ ...s, keyid })) };
      const result = await verifyApproval(hinted, {
        trustedKeys: [carol.trusted(), alice.trusted()],
      });
      expect(result.reasons).toEqual([]);
      expect(result.signers.map((s) => s.keyid)).toEqual([alice.keyid]);
    }
  });

  it("SIGNATURE_UNTRUSTED: a signature without a key id that no trusted key verifies", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const anonymous = {
      ...envelope,
      signatures: envelope.signatures.map((s) => ({ ...s, keyid: "" })),
    };
    expect(await messages(anonymous, { trustedKeys: [carol.trusted()] })).toEqual([
      "signature 1 (no key id): not from a trusted key",
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("KEY_REPEATED: one key's two signatures under two key ids count once", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const first = envelope.signatures[0];
    if (first === undefined) throw new Error("no signature");
    const twice = { ...envelope, signatures: [first, { ...first, keyid: "" }] };
    const result = await verifyApproval(twice, { trustedKeys: [alice.trusted()], threshold: 2 });
    expect(result.reasons.map((r) => r.message)).toEqual([
      `signature 2 (key ${short(alice)}): the same key as signature 1, counted once`,
      "2 distinct trusted signatures needed, 1 verified",
    ]);
  });

  it("CLAIM_INVALID: a claim dated later than now, or holding a line break", async () => {
    const late = await createApproval(statement, alice.signer, {
      role: "credit-officer",
      time: "2099-01-01T00:00:00Z",
    });
    expect(await messages(late, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): its approver claim's time 2099-01-01T00:00:00Z is later than now`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
    const forged = await createApproval(statement, alice.signer, {
      role: "risk\n::error::all good",
      time: "2026-01-31T09:30:00Z",
    });
    expect(await messages(forged, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): its approver claim's role or ticket holds a control character`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("SIGNATURE_INVALID: a key id of a trusted key on another key's signature", async () => {
    const forged = await createApproval(statement, {
      keyid: alice.keyid,
      sign: (data: Uint8Array) => carol.signer.sign(data),
    });
    expect(await messages(forged, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): does not verify with the trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("SIGNATURE_INVALID: a payload changed after signing", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const changed = copy(statement) as unknown as { predicate: { ruleSet: { preset: string } } };
    changed.predicate.ruleSet.preset = "all";
    const tampered = {
      ...envelope,
      payload: Buffer.from(JSON.stringify(changed)).toString("base64"),
    };
    expect(await messages(tampered, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): does not verify with the trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("SIGNATURE_INVALID: a trusted key whose verify throws has not verified", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const throwing = { keyid: alice.keyid, verify: () => Promise.reject(new Error("HSM offline")) };
    expect(
      (await verifyApproval(envelope, { trustedKeys: [throwing] })).reasons.map((r) => r.code),
    ).toEqual(["SIGNATURE_INVALID", "THRESHOLD_NOT_MET"]);
  });

  it("ENVELOPE_PAYLOAD_TYPE: a payload type swapped (and the signature no longer verifies)", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const swapped = { ...envelope, payloadType: "application/vnd.in-toto.v2+json" };
    expect(await messages(swapped, { trustedKeys: [alice.trusted()] })).toEqual([
      'envelope: payload type "application/vnd.in-toto.v2+json" is not application/vnd.in-toto+json',
      `signature 1 (key ${short(alice)}): does not verify with the trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("CLAIM_INVALID: a role edited in the claim after signing", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const [mine] = envelope.signatures;
    if (mine?.extension === undefined) throw new Error("no claim");
    const ext = { ...mine.extension.ext, role: "risk-officer" };
    const edited = {
      ...envelope,
      signatures: [{ ...mine, extension: { ...mine.extension, ext } }],
    };
    expect(await messages(edited, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): its approver claim's signature does not verify with the same key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("CLAIM_INVALID: a claim moved from another approval", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const other = await createApproval(sampleStatement({ version: "9.9.9" }), alice.signer);
    const [mine] = envelope.signatures;
    const theirs = other.signatures[0]?.extension;
    if (mine === undefined || theirs === undefined) throw new Error("unsigned");
    const moved = { ...envelope, signatures: [{ ...mine, extension: theirs }] };
    expect(
      (await verifyApproval(moved, { trustedKeys: [alice.trusted()] })).reasons.map((r) => r.code),
    ).toEqual(["CLAIM_INVALID", "THRESHOLD_NOT_MET"]);
  });

  it("CLAIM_INVALID: a signature without a claim, and a claim with an impossible time", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const bare = {
      ...envelope,
      signatures: envelope.signatures.map((s) => ({ keyid: s.keyid, sig: s.sig })),
    };
    expect(await messages(bare, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): carries no approver claim`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
    const late = await signed(statement, [[alice, { role: "r", time: "2026-13-01T00:00:00Z" }]]);
    expect(await messages(late, { trustedKeys: [alice.trusted()] })).toEqual([
      `signature 1 (key ${short(alice)}): its approver claim's time "2026-13-01T00:00:00Z" is not an ISO 8601 UTC time`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("ROLE_NOT_GRANTED: a role the trusted key may not sign as", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const result = await verifyApproval(envelope, {
      trustedKeys: [alice.trusted(["risk-officer", "auditor"])],
    });
    expect(result.reasons.map((r) => r.message)).toEqual([
      `signature 1 (key ${short(alice)}): role credit-officer is not granted to this key (granted: risk-officer, auditor)`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
    expect(result.signers).toEqual([]);
  });

  it("ROLE_MISSING: a required role no verified signer claims", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const result = await verifyApproval(envelope, {
      trustedKeys: [alice.trusted()],
      requireRoles: ["risk-officer", "credit-officer", "risk-officer"],
    });
    expect(result.reasons).toEqual([
      {
        code: "ROLE_MISSING",
        message: "role risk-officer: no trusted signer",
        data: { role: "risk-officer" },
      },
    ]);
  });

  it("APPROVAL_EXPIRED: older than the maximum age (and not at exactly the maximum)", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const options = { trustedKeys: [alice.trusted()], maxAgeMs: 30 * 86_400_000 };
    expect(await messages(envelope, { ...options, now: new Date("2026-03-02T09:30:00Z") })).toEqual(
      [],
    );
    const result = await verifyApproval(envelope, {
      ...options,
      now: new Date("2026-03-02T09:30:00.001Z"),
    });
    expect(result.reasons).toEqual([
      {
        code: "APPROVAL_EXPIRED",
        message: "approved 2026-01-31T09:30:00Z, older than --max-age 30d",
        data: { time: "2026-01-31T09:30:00Z", maxAgeMs: 2_592_000_000, ageMs: 2_592_000_001 },
      },
    ]);
  });

  it("APPROVAL_EXPIRED: an approval dated later than now (beyond 5 minutes of clock skew)", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const options = { trustedKeys: [alice.trusted()], maxAgeMs: 86_400_000 };
    // The claim's own time is then in the future too: only the age line is asserted here.
    const early = await verifyApproval(envelope, {
      ...options,
      now: new Date("2026-01-31T09:25:00Z"),
    });
    expect(early.reasons.filter((r) => r.code === "APPROVAL_EXPIRED")).toEqual([]);
    const earlier = await verifyApproval(envelope, {
      ...options,
      now: new Date("2026-01-31T09:24:59.999Z"),
    });
    expect(
      earlier.reasons.filter((r) => r.code === "APPROVAL_EXPIRED").map((r) => r.message),
    ).toEqual([
      "approved 2026-01-31T09:30:00Z, later than now: --max-age 1d cannot be counted from a time to come",
    ]);
  });

  it("VERSION_CHANGED: another agentflow runs", async () => {
    const envelope = await createApproval(statement, alice.signer);
    expect(await messages(envelope, { trustedKeys: [alice.trusted()], version: "0.2.0" })).toEqual([
      `agentflow 0.2.0 runs; ${AGENTFLOW_VERSION} approved`,
    ]);
  });

  it("reports drift from the current statement, version once", async () => {
    const envelope = await createApproval(statement, alice.signer);
    const files = sampleInput().files.map((f) =>
      f.name === "processes/loan.bpmn" ? { ...f, bytes: "<definitions />\n" } : f,
    );
    const current = sampleStatement({ version: "0.2.0", files });
    const result = await verifyApproval(envelope, {
      trustedKeys: [alice.trusted()],
      version: "0.2.0",
      current,
    });
    expect(result.reasons.map((r) => r.code)).toEqual(["VERSION_CHANGED", "SUBJECT_CHANGED"]);
  });

  it("STATEMENT_INVALID and SUBJECTS_UNSORTED / SUBJECT_DUPLICATE: a signed statement reordered or duplicated", async () => {
    const reordered = { ...statement, subject: [...statement.subject].reverse() };
    const result = await verifyApproval(await signed(reordered, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
    });
    expect(result.ok).toBe(false);
    expect(result.statement).toBeUndefined();
    expect(new Set(result.reasons.map((r) => r.code))).toEqual(new Set(["SUBJECTS_UNSORTED"]));
    const first = statement.subject[0];
    const duplicated = { ...statement, subject: [first, ...statement.subject] };
    const again = await verifyApproval(await signed(duplicated, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
    });
    expect(again.reasons.map((r) => r.code)).toEqual(["SUBJECT_DUPLICATE"]);
    const odd = await verifyApproval(await signed({ hello: "world" }, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
    });
    expect(odd.reasons.map((r) => r.code)).toContain("STATEMENT_INVALID");
  });

  it("PROCESS_BLOCKED: a statement that records a blocked promotion approves nothing", async () => {
    const [process] = sampleInput().processes;
    const blocked = sampleStatement({
      processes: process === undefined ? [] : [{ ...process, allowed: false }],
    });
    // Signed by a tool other than agentflow's, which would refuse it; the gate blocks it now too.
    const result = await verifyApproval(await signed(blocked, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
      current: blocked,
    });
    expect(result.ok).toBe(false);
    expect(result.reasons).toEqual([
      {
        code: "PROCESS_BLOCKED",
        subject: "processes/loan.bpmn",
        message:
          "processes/loan.bpmn: approved as promotion BLOCKED; a blocked promotion cannot be approved",
        data: { process: "processes/loan.bpmn" },
      },
    ]);
  });

  it("STATEMENT_INVALID: the config the statement records is none of its subjects", async () => {
    const unpinned = { ...copy(statement) };
    unpinned.predicate = {
      ...unpinned.predicate,
      inputs: { ...unpinned.predicate.inputs, config: "nope.json" },
    };
    const result = await verifyApproval(await signed(unpinned, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
    });
    expect(result.statement).toBeUndefined();
    expect(result.reasons.map((r) => r.message)).toEqual([
      'statement predicate.inputs.config: names "nope.json", which is not a subject of kind config',
    ]);
    const pointedAtProcess = { ...copy(statement) };
    pointedAtProcess.predicate = {
      ...pointedAtProcess.predicate,
      inputs: { ...pointedAtProcess.predicate.inputs, config: "processes/loan.bpmn" },
    };
    const asProcess = await verifyApproval(await signed(pointedAtProcess, [[alice, CREDIT]]), {
      trustedKeys: [alice.trusted()],
    });
    expect(asProcess.reasons.map((r) => r.data)).toEqual([
      {
        pointer: "/predicate/inputs/config",
        problem: "config-not-subject",
        detail: "processes/loan.bpmn",
      },
    ]);
  });

  it("throws ApprovalFormatError for a malformed envelope and RangeError for a bad threshold", async () => {
    const envelope = await createApproval(statement, alice.signer);
    await expect(
      verifyApproval({ ...envelope, payload: "%" }, { trustedKeys: [] }),
    ).rejects.toThrow(new ApprovalFormatError("payload: not base64"));
    await expect(verifyApproval(envelope, { trustedKeys: [], threshold: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(verifyApproval(envelope, { trustedKeys: [], threshold: 1.5 })).rejects.toThrow(
      RangeError,
    );
    await expect(
      verifyApproval(envelope, { trustedKeys: [], maxAgeMs: Number.NaN }),
    ).rejects.toThrow(RangeError);
  });
});
