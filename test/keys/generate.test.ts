/**
 * Key pairs (issue 41, item 4): `generateKeyPair` writes PKCS#8 and SPKI PEM that the readers
 * take back, of the algorithm asked for, and `publicKeyPemOf` gives a private key's public half.
 */
import { createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { KeyAlgorithm } from "../../src/keys/index.js";
import {
  generateKeyPair,
  KEY_ALGORITHMS,
  keyIdOf,
  publicKeyPemOf,
  readPrivateKey,
  readPublicKey,
} from "../../src/keys/index.js";

describe("generateKeyPair", () => {
  it("makes Ed25519 keys by default", () => {
    const pair = generateKeyPair();
    expect(readPrivateKey(pair.privateKeyPem, "k").asymmetricKeyType).toBe("ed25519");
    expect(pair.privateKeyPem).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/,
    );
    expect(pair.publicKeyPem).toMatch(
      /^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/,
    );
  });

  it.each([
    ["ed25519", "ed25519", undefined],
    ["ecdsa-p256", "ec", "prime256v1"],
  ] as const)("makes a %s pair that reads back", (alg, type, curve) => {
    const pair = generateKeyPair(alg);
    const pub = readPublicKey(pair.publicKeyPem, "k.pub");
    expect([pub.asymmetricKeyType, pub.asymmetricKeyDetails?.namedCurve]).toEqual([type, curve]);
    expect(pair.keyid).toBe(keyIdOf(pair.publicKeyPem));
    const derived = createPublicKey(readPrivateKey(pair.privateKeyPem, "k"));
    expect(derived.equals(pub)).toBe(true);
  });

  it("lists its algorithms, the default first", () => {
    expect(KEY_ALGORITHMS).toEqual(["ed25519", "ecdsa-p256"]);
  });

  it("refuses an algorithm it does not make", () => {
    expect(() => generateKeyPair("rsa" as KeyAlgorithm)).toThrow(
      new TypeError('unknown key algorithm "rsa" (algorithms: ed25519, ecdsa-p256)'),
    );
  });
});

describe("publicKeyPemOf", () => {
  it.each(KEY_ALGORITHMS)("gives the public half of a %s key", (alg) => {
    const pair = generateKeyPair(alg);
    expect(publicKeyPemOf(pair.privateKeyPem)).toBe(pair.publicKeyPem);
  });

  it("refuses a public key, naming it", () => {
    const pair = generateKeyPair();
    expect(() => publicKeyPemOf(pair.publicKeyPem, "alice.pub")).toThrow(
      "alice.pub: a public key (PUBLIC KEY) where a private key is needed",
    );
  });
});
