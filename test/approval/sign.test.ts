/**
 * createApproval and signApproval: the envelope DSSE describes (checked here with a verifier
 * written from the specification, not agentflow's), each signature's signed claim, and the
 * refusals: a key that already signed, a statement that drifted, a claim that cannot be.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ApprovalStatement, Envelope } from "../../src/approval/index.js";
import {
  ApprovalError,
  ApprovalFormatError,
  createApproval,
  signApproval,
} from "../../src/approval/index.js";
import { generateKeyPair, pemSigner } from "../../src/keys/index.js";
import { copy, sampleInput, sampleStatement, testKey } from "./helpers.js";

/** DSSE's PAE, written from protocol.md with Buffer. */
function specPae(type: string, body: Buffer): Buffer {
  const t = Buffer.from(type, "utf8");
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${String(t.length)} `),
    t,
    Buffer.from(` ${String(body.length)} `),
    body,
  ]);
}

const statement = sampleStatement();
const claim = { role: "risk-officer", ticket: "CHG-2", time: "2026-02-01T10:00:00Z" };

/** The reasons' codes of an ApprovalError a call throws. */
async function refusal(call: Promise<unknown>): Promise<string[]> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApprovalError) return error.reasons.map((r) => r.code);
    throw error;
  }
  throw new Error("not refused");
}

describe("createApproval", () => {
  it("writes a DSSE envelope an independent verifier accepts", async () => {
    const alice = testKey();
    const envelope = await createApproval(statement, alice.signer);
    expect(envelope.payloadType).toBe("application/vnd.in-toto+json");
    const payload = Buffer.from(envelope.payload, "base64");
    expect(payload.toString("utf8")).toBe(JSON.stringify(statement));
    const [signature] = envelope.signatures;
    expect(signature?.keyid).toBe(alice.keyid);
    const sig = Buffer.from(signature?.sig ?? "", "base64");
    const trusted = alice.trusted();
    expect(trusted.verify(specPae(envelope.payloadType, payload), sig)).toBe(true);
    expect(trusted.verify(specPae("application/json", payload), sig)).toBe(false);
  });

  it("signs the claim (the statement's approver by default) over the payload's digest", async () => {
    const alice = testKey("p256");
    const envelope = await createApproval(statement, alice.signer);
    const extension = envelope.signatures[0]?.extension;
    expect(extension?.kind).toBe("application/vnd.agentflow.approver+json");
    expect(extension?.ext).toMatchObject({
      role: "credit-officer",
      ticket: "CHG-1",
      time: "2026-01-31T09:30:00Z",
    });
    const payload = Buffer.from(envelope.payload, "base64");
    const body = JSON.stringify({
      payloadSha256: createHash("sha256").update(payload).digest("hex"),
      role: "credit-officer",
      ticket: "CHG-1",
      time: "2026-01-31T09:30:00Z",
    });
    const signed = specPae("application/vnd.agentflow.approver+json", Buffer.from(body));
    expect(alice.trusted().verify(signed, Buffer.from(extension?.ext.sig ?? "", "base64"))).toBe(
      true,
    );
  });

  it("leaves the ticket out of a claim without one, in the extension and in what is signed", async () => {
    const alice = testKey();
    const envelope = await createApproval(statement, alice.signer, {
      role: "r",
      time: "2026-02-01T00:00:00Z",
    });
    const ext = envelope.signatures[0]?.extension?.ext;
    expect(Object.keys(ext ?? {})).toEqual(["role", "time", "sig"]);
    const payload = Buffer.from(envelope.payload, "base64");
    const body = `{"payloadSha256":"${createHash("sha256").update(payload).digest("hex")}","role":"r","time":"2026-02-01T00:00:00Z"}`;
    const signed = specPae("application/vnd.agentflow.approver+json", Buffer.from(body));
    expect(alice.trusted().verify(signed, Buffer.from(ext?.sig ?? "", "base64"))).toBe(true);
  });

  it("awaits a signer that answers with a promise (a KMS)", async () => {
    const alice = testKey();
    const kms = { keyid: alice.keyid, sign: async (data: Uint8Array) => alice.signer.sign(data) };
    const envelope = await createApproval(statement, kms);
    expect(envelope.signatures).toHaveLength(1);
  });

  it("refuses an invalid statement or claim", async () => {
    const alice = testKey();
    const broken = { ...statement, subject: [...statement.subject].reverse() } as ApprovalStatement;
    expect(await refusal(createApproval(broken, alice.signer))).toEqual([
      "SUBJECTS_UNSORTED",
      "SUBJECTS_UNSORTED",
      "SUBJECTS_UNSORTED",
    ]);
    expect(
      await refusal(createApproval(statement, alice.signer, { role: "", time: claim.time })),
    ).toEqual(["CLAIM_INVALID"]);
    expect(
      await refusal(createApproval(statement, alice.signer, { role: "r", time: "now" })),
    ).toEqual(["CLAIM_INVALID"]);
  });
});

describe("signApproval", () => {
  it("adds a signature with its own claim, keeping the payload and the first signature", async () => {
    const alice = testKey();
    const bob = testKey("p256");
    const first = await createApproval(statement, alice.signer);
    const both = await signApproval(first, bob.signer, claim, { current: sampleStatement() });
    expect(both.payload).toBe(first.payload);
    expect(both.signatures[0]).toEqual(first.signatures[0]);
    expect(both.signatures[1]?.keyid).toBe(bob.keyid);
    expect(both.signatures[1]?.extension?.ext).toMatchObject(claim);
    const payload = Buffer.from(both.payload, "base64");
    const sig = Buffer.from(both.signatures[1]?.sig ?? "", "base64");
    expect(bob.trusted().verify(specPae(both.payloadType, payload), sig)).toBe(true);
  });

  it("refuses an envelope whose statement records a blocked promotion (PROCESS_BLOCKED)", async () => {
    const [process] = sampleInput().processes;
    const blocked = sampleStatement({
      processes: process === undefined ? [] : [{ ...process, allowed: false }],
    });
    const alice = testKey();
    expect(await refusal(createApproval(blocked, alice.signer))).toEqual(["PROCESS_BLOCKED"]);
    // One another tool signed: the co-signer refuses it as well, whatever the files say now.
    const first = await createApproval(statement, alice.signer);
    const payload = Buffer.from(JSON.stringify(blocked)).toString("base64");
    const forged = { ...first, payload };
    expect(await refusal(signApproval(forged, testKey().signer, claim))).toEqual([
      "PROCESS_BLOCKED",
    ]);
  });

  it("refuses a key that already signed (KEY_REPEATED)", async () => {
    const alice = testKey();
    const first = await createApproval(statement, alice.signer);
    try {
      await signApproval(first, alice.signer, claim);
      throw new Error("not refused");
    } catch (error) {
      expect(error).toBeInstanceOf(ApprovalError);
      const reasons = (error as ApprovalError).reasons;
      expect(reasons.map((r) => r.message)).toEqual([
        `signature 2 (key ${alice.keyid.slice(0, 12)}…): the same key as signature 1, counted once`,
      ]);
      expect((error as Error).message).toBe(reasons[0]?.message);
    }
  });

  it.each([
    ["written in capitals", (keyid: string) => ({ keyid: keyid.toUpperCase() })],
    ["left empty", () => ({ keyid: "" })],
  ])("refuses a key that already signed under a keyid %s", async (_, rename) => {
    // pemSigner can tell its own signatures; a signer without `verify` compares keyids only.
    const alice = { signer: pemSigner(generateKeyPair().privateKeyPem) };
    const first = await createApproval(statement, alice.signer);
    const renamed: Envelope = {
      ...first,
      signatures: first.signatures.map((s) => ({ ...s, ...rename(s.keyid) })),
    };
    const refusal = await signApproval(renamed, alice.signer, claim).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApprovalError);
    expect((refusal as ApprovalError).reasons.map((r) => r.code)).toEqual(["KEY_REPEATED"]);
    // Another key still signs it.
    const bob = testKey("p256");
    expect((await signApproval(renamed, bob.signer, claim)).signatures).toHaveLength(2);
  });

  it("refuses to sign a statement the files no longer give, with the drift", async () => {
    const alice = testKey();
    const first = await createApproval(statement, alice.signer);
    const current = sampleStatement({ version: "9.0.0" });
    expect(await refusal(signApproval(first, testKey().signer, claim, { current }))).toEqual([
      "VERSION_CHANGED",
    ]);
  });

  it("refuses an envelope of another payload type or with a statement tampered with", async () => {
    const alice = testKey();
    const first = await createApproval(statement, alice.signer);
    const swapped: Envelope = { ...first, payloadType: "application/json" };
    expect(await refusal(signApproval(swapped, testKey().signer, claim))).toEqual([
      "ENVELOPE_PAYLOAD_TYPE",
    ]);
    const tampered = copy(statement) as unknown as { predicate: { approver: { time: string } } };
    tampered.predicate.approver.time = "soon";
    const edited: Envelope = {
      ...first,
      payload: Buffer.from(JSON.stringify(tampered)).toString("base64"),
    };
    expect(await refusal(signApproval(edited, testKey().signer, claim))).toEqual([
      "STATEMENT_INVALID",
    ]);
  });

  it("throws ApprovalFormatError for a malformed envelope", async () => {
    const alice = testKey();
    const first = await createApproval(statement, alice.signer);
    const malformed = { ...first, signatures: [{ keyid: "k", sig: "%%" }] };
    await expect(signApproval(malformed, alice.signer, claim)).rejects.toThrow(
      new ApprovalFormatError("signatures[0].sig: not base64"),
    );
  });
});
