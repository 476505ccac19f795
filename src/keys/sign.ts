/**
 * PEM keys as an approval's signer and as a verifier's trusted key. DSSE signs PAE bytes; with
 * ECDSA the signature is DER-encoded, as DSSE's reference implementations and securesystemslib
 * write and read it, so that their verifiers accept agentflow's envelopes.
 */
import type { KeyObject } from "node:crypto";
import { createPublicKey, sign, verify } from "node:crypto";
import type { ApprovalSigner, TrustedKey } from "../approval/types.js";
import { keyIdOf } from "./keyid.js";
import type { KeyAlgorithm } from "./read.js";
import { algorithmOf, readPrivateKey, readPublicKey } from "./read.js";

/** Ed25519 signs the message itself; ECDSA P-256 its SHA-256, DER-encoded. */
function signWith(algorithm: KeyAlgorithm, key: KeyObject, data: Uint8Array): Uint8Array {
  const signature =
    algorithm === "ed25519"
      ? sign(null, data, key)
      : sign("sha256", data, { key, dsaEncoding: "der" });
  return new Uint8Array(signature);
}

/**
 * An {@link ApprovalSigner} over a PKCS#8 PEM private key (Ed25519 or ECDSA P-256). A key kept in
 * a KMS or HSM needs no PEM: write an `ApprovalSigner` whose `sign` calls it.
 *
 * @param source - Names the key in errors.
 * @throws KeyFormatError as {@link readPrivateKey} does.
 *
 * @example
 * ```ts
 * import { generateKeyPair, pemSigner, pemTrustedKey } from "agentflow/keys";
 *
 * const pair = generateKeyPair();
 * const signer = pemSigner(pair.privateKeyPem, "keys/alice.key");
 * signer.keyid === pair.keyid; // → true
 * const data = new TextEncoder().encode("DSSEv1 …");
 * const signature = await signer.sign(data);
 * await pemTrustedKey(pair.publicKeyPem).verify(data, signature); // → true
 * ```
 */
export function pemSigner(privateKeyPem: string, source = "private key"): ApprovalSigner {
  const key = readPrivateKey(privateKeyPem, source);
  const algorithm = algorithmOf(key, source);
  const publicKey = createPublicKey(key);
  const keyid = keyIdOf(publicKey, source);
  return {
    keyid,
    sign: (data) => signWith(algorithm, key, data),
    verify: (data, signature) => verifyWith(algorithm, publicKey, data, signature),
  };
}

/** Whether `signature` is `key`'s over `data`; `false`, never a throw, for a malformed one. */
function verifyWith(
  algorithm: KeyAlgorithm,
  key: KeyObject,
  data: Uint8Array,
  signature: Uint8Array,
): boolean {
  try {
    return algorithm === "ed25519"
      ? verify(null, data, key, signature)
      : verify("sha256", data, { key, dsaEncoding: "der" }, signature);
  } catch {
    return false;
  }
}

/**
 * A {@link TrustedKey} over a SPKI PEM public key (Ed25519 or ECDSA P-256), optionally limited to
 * `roles`. Its `verify` answers `false`, never throws, for a signature that is malformed (not
 * DER, wrong length): a bad signature is a reason to refuse, not a crash.
 *
 * @param source - Names the key in errors.
 * @param roles - The roles the key may sign as; absent: any role it claims.
 * @throws KeyFormatError as {@link readPublicKey} does.
 *
 * @example
 * ```ts
 * import { generateKeyPair, pemTrustedKey } from "agentflow/keys";
 *
 * const pair = generateKeyPair("ecdsa-p256");
 * const trusted = pemTrustedKey(pair.publicKeyPem, "trusted/bob.pub", ["risk-officer"]);
 * trusted.roles; // → ["risk-officer"]
 * await trusted.verify(new Uint8Array([1, 2, 3]), new Uint8Array([0x30, 0x00])); // → false
 * ```
 */
export function pemTrustedKey(
  publicKeyPem: string,
  source = "public key",
  roles?: readonly string[],
): TrustedKey {
  const key = readPublicKey(publicKeyPem, source);
  const algorithm = algorithmOf(key, source);
  const keyid = keyIdOf(key, source);
  const check = (data: Uint8Array, signature: Uint8Array): boolean =>
    verifyWith(algorithm, key, data, signature);
  return roles === undefined
    ? { keyid, verify: check }
    : { keyid, roles: Object.freeze([...roles]), verify: check };
}
