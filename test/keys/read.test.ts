/**
 * Reading keys (issue 41, item 4): Ed25519 and ECDSA P-256 in PKCS#8 / SPKI PEM are read; every
 * other key is refused with a KeyFormatError that names its source and the problem — never a
 * private key accepted as a public one (node:crypto would derive it) or the reverse.
 */
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { KeyProblem } from "../../src/keys/index.js";
import {
  generateKeyPair,
  KeyFormatError,
  readPrivateKey,
  readPublicKey,
} from "../../src/keys/index.js";
import { otherPair, pem } from "./helpers.js";

/** The error `read` throws; fails when it throws none or another kind. */
function refusal(read: () => unknown): KeyFormatError {
  try {
    read();
  } catch (error) {
    if (error instanceof KeyFormatError) return error;
    throw error;
  }
  throw new Error("the key was read");
}

const ed = generateKeyPair("ed25519");
const ec = generateKeyPair("ecdsa-p256");

describe("readPrivateKey and readPublicKey", () => {
  it.each([
    ["ed25519", ed, "ed25519", undefined],
    ["ecdsa-p256", ec, "ec", "prime256v1"],
  ] as const)("read a %s pair", (_name, pair, type, curve) => {
    const priv = readPrivateKey(pair.privateKeyPem, "a.key");
    const pub = readPublicKey(pair.publicKeyPem, "a.pub");
    expect([priv.type, priv.asymmetricKeyType, priv.asymmetricKeyDetails?.namedCurve]).toEqual([
      "private",
      type,
      curve,
    ]);
    expect([pub.type, pub.asymmetricKeyType]).toEqual(["public", type]);
  });

  it("reads keys with CRLF line ends and text around the block", () => {
    const crlf = `# alice, 2026\r\n${ed.privateKeyPem.replace(/\n/g, "\r\n")}\r\n`;
    expect(readPrivateKey(crlf, "a.key").asymmetricKeyType).toBe("ed25519");
  });
});

/** Key texts made once; RSA generation is the slow one. */
const rsa = otherPair("rsa");
const p384 = otherPair("ec-p384");
const k1 = otherPair("ec-secp256k1");
const ed448 = otherPair("ed448");
const x25519 = otherPair("x25519");
const encryptedPkcs8 = generateKeyPairSync("ed25519", {
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pw" },
}).privateKey;
const ecPrivate = createPrivateKey(ec.privateKeyPem);
const sec1 = ecPrivate.export({ type: "sec1", format: "pem" }) as string;
const sec1Encrypted = ecPrivate.export({
  type: "sec1",
  format: "pem",
  cipher: "aes-256-cbc",
  passphrase: "pw",
});
const sec1P384 = createPrivateKey(p384.privateKeyPem).export({ type: "sec1", format: "pem" });
const pkcs1 = createPrivateKey(rsa.privateKeyPem).export({ type: "pkcs1", format: "pem" });
const junk = new Uint8Array([1, 2, 3, 4, 5, 6]);

describe("private keys refused", () => {
  const cases: readonly (readonly [string, string, KeyProblem, string])[] = [
    ["text", "hello", "not-pem", 'not a PEM key (no "-----BEGIN" line)'],
    ["an empty file", "", "not-pem", 'not a PEM key (no "-----BEGIN" line)'],
    [
      "an OpenSSH public key line",
      "ssh-ed25519 AAAAC3Nza alice",
      "not-pem",
      "OpenSSH public key line",
    ],
    [
      "a public key",
      ed.publicKeyPem,
      "public-not-private",
      "a public key (PUBLIC KEY) where a private key is needed",
    ],
    [
      "an RSA PKCS#8 key",
      rsa.privateKeyPem,
      "algorithm",
      "an RSA key; agentflow signs with Ed25519 and ECDSA P-256 keys",
    ],
    ["an RSA PKCS#1 key", pkcs1.toString(), "algorithm", "an RSA key;"],
    ["a P-384 key", p384.privateKeyPem, "algorithm", "an EC key on curve P-384 (secp384r1);"],
    ["a secp256k1 key", k1.privateKeyPem, "algorithm", "an EC key on curve secp256k1;"],
    ["an Ed448 key", ed448.privateKeyPem, "algorithm", "an Ed448 key;"],
    [
      "an X25519 key",
      x25519.privateKeyPem,
      "algorithm",
      "an X25519 key (key agreement, not signatures);",
    ],
    [
      "an encrypted PKCS#8 key",
      encryptedPkcs8,
      "encrypted",
      "an encrypted private key (ENCRYPTED PRIVATE KEY)",
    ],
    [
      "an encrypted SEC1 key",
      sec1Encrypted.toString(),
      "encrypted",
      "an encrypted private key (EC PRIVATE KEY)",
    ],
    [
      "a SEC1 P-256 key",
      sec1,
      "format",
      'a SEC1 "EC PRIVATE KEY" block (openssl pkcs8 -topk8 -nocrypt converts it)',
    ],
    ["a SEC1 P-384 key", sec1P384.toString(), "algorithm", "an EC key on curve P-384 (secp384r1);"],
    [
      "an OpenSSH private key",
      pem("OPENSSH PRIVATE KEY", junk),
      "format",
      "an OpenSSH private key;",
    ],
    [
      "a certificate",
      pem("CERTIFICATE", junk),
      "not-a-key",
      'a "CERTIFICATE" PEM block, not a key',
    ],
    [
      "two blocks",
      ed.privateKeyPem + ec.privateKeyPem,
      "several-blocks",
      "2 PEM blocks (PRIVATE KEY, PRIVATE KEY); give one key per file",
    ],
    [
      "a PRIVATE KEY block of junk",
      pem("PRIVATE KEY", junk),
      "unreadable",
      'does not decode as a key ("PRIVATE KEY" PEM block: ',
    ],
  ];
  it.each(cases)("refuses %s", (_name, text, problem, words) => {
    const error = refusal(() => readPrivateKey(text, "keys/alice.key"));
    expect(error.problem).toBe(problem);
    expect(error.source).toBe("keys/alice.key");
    expect(error.message.startsWith("keys/alice.key: ")).toBe(true);
    expect(error.message).toContain(words);
    expect(error.message).toBe(`keys/alice.key: ${error.detail}`);
  });

  it("refuses a value that is no text", () => {
    expect(refusal(() => readPrivateKey(42 as unknown as string, "k")).message).toBe(
      'k: not a PEM key (not text); agentflow reads PKCS#8 private keys ("BEGIN PRIVATE KEY") and SPKI public keys ("BEGIN PUBLIC KEY")',
    );
  });
});

describe("public keys refused", () => {
  const cases: readonly (readonly [string, string, KeyProblem, string])[] = [
    ["text", "not a key", "not-pem", 'not a PEM key (no "-----BEGIN" line)'],
    [
      "an OpenSSH public key line",
      "ecdsa-sha2-nistp256 AAAAE2VjZHNh bob",
      "not-pem",
      "OpenSSH public key line",
    ],
    [
      "a private key",
      ed.privateKeyPem,
      "private-not-public",
      "a private key (PRIVATE KEY) where a public key is needed",
    ],
    ["a SEC1 private key", sec1, "private-not-public", "a private key (EC PRIVATE KEY)"],
    ["an encrypted private key", encryptedPkcs8, "private-not-public", "(ENCRYPTED PRIVATE KEY)"],
    ["an RSA key", rsa.publicKeyPem, "algorithm", "an RSA key;"],
    ["an RSA PKCS#1 public key", pem("RSA PUBLIC KEY", junk), "algorithm", "an RSA key;"],
    ["a P-384 key", p384.publicKeyPem, "algorithm", "an EC key on curve P-384 (secp384r1);"],
    ["an Ed448 key", ed448.publicKeyPem, "algorithm", "an Ed448 key;"],
    [
      "a certificate",
      pem("CERTIFICATE", junk),
      "not-a-key",
      'a "CERTIFICATE" PEM block, not a key',
    ],
    [
      "two keys",
      ed.publicKeyPem + ec.publicKeyPem,
      "several-blocks",
      "2 PEM blocks (PUBLIC KEY, PUBLIC KEY)",
    ],
    [
      "a PUBLIC KEY block of junk",
      pem("PUBLIC KEY", junk),
      "unreadable",
      '("PUBLIC KEY" PEM block: ',
    ],
  ];
  it.each(cases)("refuses %s", (_name, text, problem, words) => {
    const error = refusal(() => readPublicKey(text, "trusted/bob.pub"));
    expect(error.problem).toBe(problem);
    expect(error.source).toBe("trusted/bob.pub");
    expect(error.message.startsWith("trusted/bob.pub: ")).toBe(true);
    expect(error.message).toContain(words);
  });
});
