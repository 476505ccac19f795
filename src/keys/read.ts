/**
 * Reading PEM keys. The PEM label is looked at before the key is decoded: `node:crypto` derives
 * a public key from a private one without a word, and reads SEC1 and PKCS#1 keys as well, so a
 * private key handed to the verifier, or a key in a format agentflow does not document, would
 * otherwise pass unnoticed.
 */
import type { KeyObject } from "node:crypto";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { KeyFormatError } from "./errors.js";

/** The signature algorithms agentflow signs and verifies with. */
export type KeyAlgorithm = "ed25519" | "ecdsa-p256";

/** Every {@link KeyAlgorithm}, the default first. */
export const KEY_ALGORITHMS: readonly KeyAlgorithm[] = ["ed25519", "ecdsa-p256"];

/** A `-----BEGIN <label>-----` line; RFC 7468 labels hold no hyphen. */
const BEGIN = /-----BEGIN ([^\r\n-]*)-----/g;
/** The key types of an OpenSSH public key line (`ssh-ed25519 AAAA… comment`). */
const OPENSSH_LINE = /^\s*(?:ssh-|ecdsa-sha2-|sk-)[\w@.-]+\s+AAAA/;
/** A legacy (OpenSSL "traditional") encrypted PEM block's header. */
const PROC_TYPE_ENCRYPTED = /^Proc-Type:\s*4,\s*ENCRYPTED/m;

/** The label of the one PEM block of `pem`; anything else is refused. */
function pemLabel(pem: unknown, source: string): string {
  if (typeof pem !== "string") throw new KeyFormatError(source, "not-pem", "not text");
  const labels = [...pem.matchAll(BEGIN)].map((m) => m[1] ?? "");
  const [label] = labels;
  if (label === undefined) {
    const found = OPENSSH_LINE.test(pem) ? "an OpenSSH public key line" : 'no "-----BEGIN" line';
    throw new KeyFormatError(source, "not-pem", found);
  }
  if (labels.length > 1) {
    const found = `${String(labels.length)} PEM blocks (${labels.join(", ")})`;
    throw new KeyFormatError(source, "several-blocks", found);
  }
  return label;
}

/** What a key of an unsupported type is, for the message. */
function describe(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === undefined) return "an EC key with explicit curve parameters";
    const nist: Readonly<Record<string, string>> = { secp384r1: "P-384", secp521r1: "P-521" };
    const alias = nist[curve];
    return `an EC key on curve ${alias === undefined ? curve : `${alias} (${curve})`}`;
  }
  const names: Readonly<Record<string, string>> = {
    rsa: "an RSA key",
    "rsa-pss": "an RSA-PSS key",
    dsa: "a DSA key",
    dh: "a Diffie-Hellman key",
    ed448: "an Ed448 key",
    x25519: "an X25519 key (key agreement, not signatures)",
    x448: "an X448 key (key agreement, not signatures)",
  };
  return (type === undefined ? undefined : names[type]) ?? `a key of type ${type ?? "unknown"}`;
}

/**
 * The algorithm of an asymmetric key, or a {@link KeyFormatError} naming `source` when agentflow
 * does not sign with it.
 */
export function algorithmOf(key: KeyObject, source: string): KeyAlgorithm {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") {
    return "ecdsa-p256";
  }
  throw new KeyFormatError(source, "algorithm", describe(key));
}

/** Decodes a block whose label promised a key; the decoder's complaint becomes the reason. */
function decode(read: () => KeyObject, source: string, label: string): KeyObject {
  try {
    return read();
  } catch (error) {
    // OpenSSL's packed code (`error:1E08010C:`) tells a reader nothing its words do not.
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /^error:[0-9A-F]+:/,
      "",
    );
    throw new KeyFormatError(source, "unreadable", `"${label}" PEM block: ${reason}`);
  }
}

/**
 * Reads an unencrypted PKCS#8 PEM private key, Ed25519 or ECDSA P-256.
 *
 * @param source - Names the key in errors: its file path, or what the caller calls it.
 * @throws KeyFormatError naming `source` and the problem: not PEM, several blocks, a public key,
 * an encrypted key, a SEC1 or OpenSSH key, RSA or another curve, a block that does not decode.
 *
 * @example
 * ```ts
 * import { generateKeyPair, KeyFormatError, readPrivateKey } from "agentflow/keys";
 *
 * const { privateKeyPem, publicKeyPem } = generateKeyPair();
 * readPrivateKey(privateKeyPem, "keys/alice.key").asymmetricKeyType; // → "ed25519"
 *
 * let message = "";
 * try {
 *   readPrivateKey(publicKeyPem, "keys/alice.pub");
 * } catch (error) {
 *   if (error instanceof KeyFormatError) message = error.message;
 * }
 * message; // → 'keys/alice.pub: a public key (PUBLIC KEY) where a private key is needed'
 * ```
 */
export function readPrivateKey(pem: string, source: string): KeyObject {
  const label = pemLabel(pem, source);
  if (label === "ENCRYPTED PRIVATE KEY" || PROC_TYPE_ENCRYPTED.test(pem)) {
    throw new KeyFormatError(source, "encrypted", label);
  }
  if (label === "PUBLIC KEY" || label === "RSA PUBLIC KEY") {
    throw new KeyFormatError(source, "public-not-private", label);
  }
  if (label === "RSA PRIVATE KEY") throw new KeyFormatError(source, "algorithm", "an RSA key");
  if (label === "DSA PRIVATE KEY") throw new KeyFormatError(source, "algorithm", "a DSA key");
  if (label === "OPENSSH PRIVATE KEY") {
    throw new KeyFormatError(source, "format", "an OpenSSH private key");
  }
  if (label === "EC PRIVATE KEY") {
    // SEC1: name the curve first (a P-384 key is refused whatever its format), then the format.
    algorithmOf(
      decode(() => createPrivateKey(pem), source, label),
      source,
    );
    const found = 'a SEC1 "EC PRIVATE KEY" block (openssl pkcs8 -topk8 -nocrypt converts it)';
    throw new KeyFormatError(source, "format", found);
  }
  if (label !== "PRIVATE KEY") {
    const problem = label.endsWith("PRIVATE KEY") ? "format" : "not-a-key";
    throw new KeyFormatError(source, problem, problem === "format" ? `a "${label}" block` : label);
  }
  const key = decode(() => createPrivateKey({ key: pem, format: "pem" }), source, label);
  algorithmOf(key, source);
  return key;
}

/**
 * Reads a SPKI PEM public key, Ed25519 or ECDSA P-256.
 *
 * @param source - Names the key in errors: its file path, or what the caller calls it.
 * @throws KeyFormatError naming `source` and the problem: not PEM, several blocks, a private
 * key, a certificate, RSA or another curve, a block that does not decode.
 *
 * @example
 * ```ts
 * import { generateKeyPair, readPublicKey } from "agentflow/keys";
 *
 * const { publicKeyPem } = generateKeyPair("ecdsa-p256");
 * readPublicKey(publicKeyPem, "keys/bob.pub").asymmetricKeyDetails; // → { namedCurve: "prime256v1" }
 * ```
 */
export function readPublicKey(pem: string, source: string): KeyObject {
  const label = pemLabel(pem, source);
  if (label.endsWith("PRIVATE KEY")) throw new KeyFormatError(source, "private-not-public", label);
  if (label === "RSA PUBLIC KEY") throw new KeyFormatError(source, "algorithm", "an RSA key");
  if (label !== "PUBLIC KEY") throw new KeyFormatError(source, "not-a-key", label);
  const key = decode(() => createPublicKey({ key: pem, format: "pem" }), source, label);
  algorithmOf(key, source);
  return key;
}
