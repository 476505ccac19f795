/**
 * Making key pairs, and a private key's public half, in the PEM formats {@link readPrivateKey}
 * and {@link readPublicKey} read back.
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { keyIdOf } from "./keyid.js";
import type { KeyAlgorithm } from "./read.js";
import { KEY_ALGORITHMS, readPrivateKey } from "./read.js";

/** A new key pair in PEM, and its key id. */
export interface GeneratedKeyPair {
  /** PKCS#8 PEM, unencrypted: keep it out of the repository (`agentflow keygen` writes it 0600). */
  readonly privateKeyPem: string;
  /** SPKI PEM: what verifiers put among their trusted keys. */
  readonly publicKeyPem: string;
  /** sha256 of the public key's SPKI DER, hex. */
  readonly keyid: string;
}

/**
 * Makes a new key pair with `node:crypto` (Ed25519 by default, ECDSA P-256 where a policy or an
 * HSM asks for a NIST curve).
 *
 * @throws TypeError for an algorithm other than those of `KeyAlgorithm`.
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "agentflow/keys";
 *
 * const pair = generateKeyPair("ecdsa-p256");
 * pair.privateKeyPem.startsWith("-----BEGIN PRIVATE KEY-----"); // → true
 * pair.publicKeyPem.startsWith("-----BEGIN PUBLIC KEY-----"); // → true
 * pair.keyid.length; // → 64
 * ```
 */
export function generateKeyPair(algorithm: KeyAlgorithm = "ed25519"): GeneratedKeyPair {
  if (!KEY_ALGORITHMS.includes(algorithm)) {
    const known = KEY_ALGORITHMS.join(", ");
    throw new TypeError(`unknown key algorithm "${algorithm}" (algorithms: ${known})`);
  }
  // PEM both: SPKI for the public key, unencrypted PKCS#8 for the private key.
  const publicKeyEncoding = { type: "spki", format: "pem" } as const;
  const privateKeyEncoding = { type: "pkcs8", format: "pem" } as const;
  const pair =
    algorithm === "ed25519"
      ? generateKeyPairSync("ed25519", { publicKeyEncoding, privateKeyEncoding })
      : generateKeyPairSync("ec", { namedCurve: "P-256", publicKeyEncoding, privateKeyEncoding });
  return {
    privateKeyPem: pair.privateKey,
    publicKeyPem: pair.publicKey,
    keyid: keyIdOf(pair.publicKey),
  };
}

/**
 * The SPKI PEM public key of a PKCS#8 PEM private key, for a signer who kept only the private
 * key and must hand the verifiers its public half.
 *
 * @param source - Names the key in errors.
 * @throws KeyFormatError as {@link readPrivateKey} does.
 *
 * @example
 * ```ts
 * import { generateKeyPair, publicKeyPemOf } from "agentflow/keys";
 *
 * const pair = generateKeyPair();
 * publicKeyPemOf(pair.privateKeyPem) === pair.publicKeyPem; // → true
 * ```
 */
export function publicKeyPemOf(privateKeyPem: string, source = "private key"): string {
  const key = readPrivateKey(privateKeyPem, source);
  return createPublicKey(key).export({ type: "spki", format: "pem" }) as string;
}
