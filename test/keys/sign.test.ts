/**
 * PEM keys as signer and trusted key (issue 41, item 4): Ed25519 signs as RFC 8032 says, ECDSA
 * P-256 signs SHA-256 with a DER signature (what DSSE verifiers read), and a trusted key's
 * `verify` answers false — never throws — for any signature that is not the key's over the data.
 */
import { createPrivateKey, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateKeyPair, KEY_ALGORITHMS, pemSigner, pemTrustedKey } from "../../src/keys/index.js";
import { pem } from "./helpers.js";

const encoder = new TextEncoder();
const DATA = encoder.encode("DSSEv1 28 application/vnd.in-toto+json 2 {}");

/** RFC 8032 section 7.1, TEST 1 (empty message). */
const RFC8032 = {
  secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
  public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
  signature:
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065" +
    "224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
};

describe("pemSigner", () => {
  it("signs as RFC 8032's first Ed25519 test vector", async () => {
    const pkcs8 = Buffer.from(`302e020100300506032b657004220420${RFC8032.secret}`, "hex");
    const spki = Buffer.from(`302a300506032b6570032100${RFC8032.public}`, "hex");
    const signer = pemSigner(pem("PRIVATE KEY", pkcs8));
    const signature = await signer.sign(new Uint8Array());
    expect(Buffer.from(signature).toString("hex")).toBe(RFC8032.signature);
    expect(signer.keyid).toBe(pemTrustedKey(pem("PUBLIC KEY", spki)).keyid);
  });

  it("signs P-256 over SHA-256 with a DER signature", async () => {
    const pair = generateKeyPair("ecdsa-p256");
    const signature = await pemSigner(pair.privateKeyPem).sign(DATA);
    // SEQUENCE { INTEGER r, INTEGER s }, short form length: 70 to 72 bytes in all.
    expect([signature[0], signature[1], signature[2]]).toEqual([0x30, signature.length - 2, 0x02]);
    const key = { key: pair.publicKeyPem, dsaEncoding: "der" } as const;
    expect(verify("sha256", DATA, key, signature)).toBe(true);
    expect(verify("sha384", DATA, key, signature)).toBe(false);
  });

  it.each(KEY_ALGORITHMS)("names a %s signer by its public key's id", (alg) => {
    const pair = generateKeyPair(alg);
    expect(pemSigner(pair.privateKeyPem).keyid).toBe(pair.keyid);
  });

  it("refuses a public key, naming the source", () => {
    const pair = generateKeyPair();
    expect(() => pemSigner(pair.publicKeyPem, "keys/alice.pub")).toThrow(
      "keys/alice.pub: a public key (PUBLIC KEY) where a private key is needed",
    );
  });
});

describe("pemTrustedKey", () => {
  it.each(KEY_ALGORITHMS)("verifies what the %s signer signed, and nothing else", async (alg) => {
    const pair = generateKeyPair(alg);
    const other = generateKeyPair(alg);
    const trusted = pemTrustedKey(pair.publicKeyPem, "trusted/alice.pub");
    const signature = await pemSigner(pair.privateKeyPem).sign(DATA);
    expect(trusted.keyid).toBe(pair.keyid);
    expect(await trusted.verify(DATA, signature)).toBe(true);
    const tampered = Uint8Array.from(DATA);
    tampered[7] = 0x33;
    expect(await trusted.verify(tampered, signature)).toBe(false);
    const foreign = await pemSigner(other.privateKeyPem).sign(DATA);
    expect(await trusted.verify(DATA, foreign)).toBe(false);
    const flipped = Uint8Array.from(signature);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect(await trusted.verify(DATA, flipped)).toBe(false);
  });

  it.each(KEY_ALGORITHMS)(
    "answers false, never throws, for a malformed %s signature",
    async (alg) => {
      const trusted = pemTrustedKey(generateKeyPair(alg).publicKeyPem);
      const malformed = [
        new Uint8Array(),
        new Uint8Array([0x30, 0x00]),
        new Uint8Array([0x30, 0x81]),
        new Uint8Array(64).fill(0xff),
        new Uint8Array(5000).fill(0x30),
      ];
      for (const signature of malformed) expect(await trusted.verify(DATA, signature)).toBe(false);
      // A caller in plain JavaScript may hand over what node:crypto throws on.
      const notBytes = "c2ln" as unknown as Uint8Array;
      expect(await trusted.verify(DATA, notBytes)).toBe(false);
      expect(await trusted.verify(undefined as unknown as Uint8Array, new Uint8Array(64))).toBe(
        false,
      );
    },
  );

  it("refuses a P-256 signature in IEEE P1363 form (r‖s), as DSSE's DER readers do", async () => {
    const pair = generateKeyPair("ecdsa-p256");
    const key = { key: createPrivateKey(pair.privateKeyPem), dsaEncoding: "ieee-p1363" } as const;
    const raw = sign("sha256", DATA, key);
    expect(raw).toHaveLength(64);
    expect(await pemTrustedKey(pair.publicKeyPem).verify(DATA, raw)).toBe(false);
  });

  it("does not take one algorithm's signature for another's", async () => {
    const ed = generateKeyPair("ed25519");
    const ec = generateKeyPair("ecdsa-p256");
    const edSig = await pemSigner(ed.privateKeyPem).sign(DATA);
    expect(await pemTrustedKey(ec.publicKeyPem).verify(DATA, edSig)).toBe(false);
  });

  it("carries the roles it is given, and none when given none", () => {
    const pair = generateKeyPair();
    const roles = ["risk-officer", "cab"];
    const limited = pemTrustedKey(pair.publicKeyPem, "bob.pub", roles);
    roles.push("admin");
    expect(limited.roles).toEqual(["risk-officer", "cab"]);
    expect("roles" in pemTrustedKey(pair.publicKeyPem)).toBe(false);
  });

  it("refuses a private key, naming the source", () => {
    const pair = generateKeyPair("ecdsa-p256");
    expect(() => pemTrustedKey(pair.privateKeyPem, "trusted/bob.pub")).toThrow(
      "trusted/bob.pub: a private key (PRIVATE KEY) where a public key is needed",
    );
  });
});
