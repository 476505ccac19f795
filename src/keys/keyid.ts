/**
 * Key ids. A key's id is the sha256 of its public key's SPKI DER, hex, as DSSE's `keyid` and the
 * trusted-keys folder name it. The DER is re-encoded first, so that one key has one id however
 * its PEM was written (an EC point may be stored compressed; it is hashed uncompressed).
 */
import type { KeyObject } from "node:crypto";
import { createHash, createPublicKey } from "node:crypto";
import { KeyFormatError } from "./errors.js";
import { algorithmOf, readPublicKey } from "./read.js";

/** The SPKI DER of a public key, the EC point uncompressed (a JWK holds only x and y). */
function canonicalSpki(key: KeyObject): Buffer {
  const plain =
    key.asymmetricKeyType === "ec"
      ? createPublicKey({ key: key.export({ format: "jwk" }), format: "jwk" })
      : key;
  return plain.export({ type: "spki", format: "der" });
}

/**
 * The key id of a public key: sha256 of its SPKI DER, 64 lowercase hex digits. A PEM text is
 * read with {@link readPublicKey}; a private key (text or object) is refused, as everywhere a
 * public key is expected.
 *
 * @param source - Names the key in errors.
 * @throws KeyFormatError when the key is not an Ed25519 or ECDSA P-256 public key.
 *
 * @example
 * ```ts
 * import { generateKeyPair, keyIdOf } from "agentflow/keys";
 *
 * const pair = generateKeyPair();
 * keyIdOf(pair.publicKeyPem) === pair.keyid; // → true
 * /^[0-9a-f]{64}$/.test(pair.keyid); // → true
 * ```
 */
export function keyIdOf(publicKey: KeyObject | string, source = "public key"): string {
  const key = typeof publicKey === "string" ? readPublicKey(publicKey, source) : publicKey;
  if (key.type !== "public") {
    throw new KeyFormatError(source, "private-not-public", `a ${key.type} KeyObject`);
  }
  algorithmOf(key, source);
  return createHash("sha256").update(canonicalSpki(key)).digest("hex");
}
