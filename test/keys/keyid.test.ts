/**
 * Key ids (issue 41, item 4): sha256 of the public key's SPKI DER, hex — checked against the DER
 * of the PEM itself and against RFC 8032's first Ed25519 key, the same for one key however its
 * PEM encodes the point, and only of public keys.
 */
import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateKeyPair, KeyFormatError, keyIdOf } from "../../src/keys/index.js";
import { compressedP256, pem } from "./helpers.js";

/** sha256 hex of the DER inside a PEM block, decoded here without node:crypto's key parser. */
const derDigest = (text: string): string =>
  createHash("sha256")
    .update(Buffer.from(text.replace(/-----[^-]+-----|\s/g, ""), "base64"))
    .digest("hex");

/** RFC 8032 section 7.1, TEST 1: the public key of secret key 9d61b19d…. */
const RFC8032_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const SPKI_ED25519 = "302a300506032b6570032100";

describe("keyIdOf", () => {
  it.each(["ed25519", "ecdsa-p256"] as const)("is sha256 of the SPKI DER of a %s key", (alg) => {
    const pair = generateKeyPair(alg);
    expect(keyIdOf(pair.publicKeyPem)).toBe(derDigest(pair.publicKeyPem));
    expect(keyIdOf(createPublicKey(pair.publicKeyPem))).toBe(pair.keyid);
    expect(pair.keyid).toMatch(/^[0-9a-f]{64}$/);
  });

  it("names RFC 8032's test key by the digest of its SPKI bytes", () => {
    const der = Buffer.from(SPKI_ED25519 + RFC8032_PUBLIC, "hex");
    const expected = createHash("sha256").update(der).digest("hex");
    expect(keyIdOf(pem("PUBLIC KEY", der))).toBe(expected);
  });

  it("gives a P-256 key one id whether its point is written compressed or not", () => {
    const pair = generateKeyPair("ecdsa-p256");
    const compressed = compressedP256(pair.publicKeyPem);
    expect(compressed).not.toBe(pair.publicKeyPem);
    expect(derDigest(compressed)).not.toBe(pair.keyid);
    expect(keyIdOf(compressed)).toBe(pair.keyid);
  });

  it("gives different keys different ids", () => {
    expect(generateKeyPair().keyid).not.toBe(generateKeyPair().keyid);
  });

  it("refuses a private key, as text or as a key object", () => {
    const pair = generateKeyPair();
    const asText = (): string => keyIdOf(pair.privateKeyPem, "alice.key");
    const asObject = (): string => keyIdOf(createPrivateKey(pair.privateKeyPem), "alice.key");
    expect(asText).toThrow(KeyFormatError);
    expect(asText).toThrow("alice.key: a private key (PRIVATE KEY) where a public key is needed");
    expect(asObject).toThrow("alice.key: a private key (a private KeyObject) where a public key");
  });
});
