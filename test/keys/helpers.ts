/**
 * Keys the key tests refuse or compare, made with `node:crypto` at run time (no key file in the
 * repository), and PEM blocks whose label alone decides the refusal.
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto";

/** A PEM block with `label` around `der`. */
export function pem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der)
    .toString("base64")
    .replace(/.{1,64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${body}-----END ${label}-----\n`;
}

/** A pair of an algorithm or curve agentflow refuses, as PKCS#8 and SPKI PEM. */
export function otherPair(type: "rsa" | "ec-p384" | "ec-secp256k1" | "ed448" | "x25519"): {
  privateKeyPem: string;
  publicKeyPem: string;
} {
  const pair =
    type === "rsa"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : type === "ec-p384"
        ? generateKeyPairSync("ec", { namedCurve: "P-384" })
        : type === "ec-secp256k1"
          ? generateKeyPairSync("ec", { namedCurve: "secp256k1" })
          : type === "ed448"
            ? generateKeyPairSync("ed448")
            : generateKeyPairSync("x25519");
  return {
    privateKeyPem: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKeyPem: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/**
 * The SPKI PEM of a P-256 public key with its point compressed (0x02/0x03 ‖ x), which OpenSSL
 * writes with `-conv_form compressed` and Node reads but never writes.
 */
export function compressedP256(publicKeyPem: string): string {
  const jwk = createPublicKey(publicKeyPem).export({ format: "jwk" });
  const x = Buffer.from(jwk.x ?? "", "base64url");
  const y = Buffer.from(jwk.y ?? "", "base64url");
  const prefix = (y[y.length - 1] ?? 0) % 2 === 0 ? 0x02 : 0x03;
  // SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING { 0 unused, point } }
  const head = Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex");
  return pem("PUBLIC KEY", Buffer.concat([head, Buffer.from([prefix]), x]));
}
