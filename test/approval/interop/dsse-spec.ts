/**
 * A DSSE verifier written from the DSSE v1 protocol (secure-systems-lab/dsse, protocol.md), for
 * the interoperability test: its own PAE, Node's base64 and node:crypto — no code shared with
 * agentflow's approval module.
 */
import type { KeyObject } from "node:crypto";
import { createHash, createPublicKey, verify } from "node:crypto";
import type { GeneratedKeyPair } from "../../../src/keys/index.js";

/** protocol.md: PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body. */
export function specPae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  const sp = Buffer.from(" ");
  return Buffer.concat([
    Buffer.from("DSSEv1"),
    sp,
    Buffer.from(String(type.length)),
    sp,
    type,
    sp,
    Buffer.from(String(body.length)),
    sp,
    body,
  ]);
}

/** A verifier's own key list: key id (sha256 of the SPKI DER, hex) → public key. */
export function keyring(pairs: readonly GeneratedKeyPair[]): Map<string, KeyObject> {
  return new Map(
    pairs.map((pair) => {
      const key = createPublicKey(pair.publicKeyPem);
      const der = key.export({ type: "spki", format: "der" });
      return [createHash("sha256").update(der).digest("hex"), key] as const;
    }),
  );
}

/**
 * protocol.md, "Verification": decode the payload, build PAE, and accept the key ids of the
 * signatures that verify under a key the verifier holds (Ed25519 over the PAE, ECDSA P-256 over
 * SHA-256 of the PAE with a DER signature). Unknown key ids and bad signatures are skipped.
 */
export function specVerify(value: unknown, keys: ReadonlyMap<string, KeyObject>): string[] {
  const e = value as { payloadType: string; payload: string; signatures: readonly unknown[] };
  const signed = specPae(e.payloadType, Buffer.from(e.payload, "base64"));
  const accepted: string[] = [];
  for (const s of e.signatures as readonly { keyid: string; sig: string }[]) {
    const key = keys.get(s.keyid);
    if (key === undefined) continue;
    const sig = Buffer.from(s.sig, "base64");
    const ok =
      key.asymmetricKeyType === "ed25519"
        ? verify(null, signed, key, sig)
        : verify("sha256", signed, { key, dsaEncoding: "der" }, sig);
    if (ok && !accepted.includes(s.keyid)) accepted.push(s.keyid);
  }
  return accepted;
}
