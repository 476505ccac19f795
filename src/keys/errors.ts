/**
 * The one error the key files throw: a key that cannot be used, named by where it came from and
 * what is wrong with it, so that the CLI can print one line (exit 2) and a caller can branch on
 * `problem` without reading the wording. All wording is in {@link KEY_MESSAGES}.
 */

/** What is wrong with a key, as {@link KeyFormatError.problem} names it. */
export type KeyProblem =
  /** Not a PEM text: no `-----BEGIN …-----` line, or an OpenSSH key line. */
  | "not-pem"
  /** More than one PEM block: which one is the key would be a guess. */
  | "several-blocks"
  /** A PEM block that holds no key (a certificate, EC parameters…). */
  | "not-a-key"
  /** A key format other than PKCS#8 (private) or SPKI (public): SEC1, OpenSSH. */
  | "format"
  /** An encrypted private key: agentflow does not ask for passphrases. */
  | "encrypted"
  /** A public key where a private key is needed. */
  | "public-not-private"
  /** A private key where a public key is needed. */
  | "private-not-public"
  /** A key of another algorithm or curve than Ed25519 and ECDSA P-256. */
  | "algorithm"
  /** A PEM block of a key's label whose content does not decode as a key. */
  | "unreadable";

const SUPPORTED = "agentflow signs with Ed25519 and ECDSA P-256 keys";
const PEM_FORMATS =
  'PKCS#8 private keys ("BEGIN PRIVATE KEY") and SPKI public keys ("BEGIN PUBLIC KEY")';

/** The wording of each problem; `found` says what was seen (a label, an algorithm, a reason). */
const KEY_MESSAGES: Readonly<Record<KeyProblem, (found: string) => string>> = {
  "not-pem": (found) => `not a PEM key (${found}); agentflow reads ${PEM_FORMATS}`,
  "several-blocks": (found) => `${found}; give one key per file`,
  "not-a-key": (found) => `a "${found}" PEM block, not a key`,
  format: (found) => `${found}; agentflow reads ${PEM_FORMATS}`,
  encrypted: (found) =>
    `an encrypted private key (${found}); agentflow reads unencrypted PKCS#8 keys, or signs through a sign callback for a key kept in a KMS or HSM`,
  "public-not-private": (found) => `a public key (${found}) where a private key is needed`,
  "private-not-public": (found) => `a private key (${found}) where a public key is needed`,
  algorithm: (found) => `${found}; ${SUPPORTED}`,
  unreadable: (found) => `does not decode as a key (${found})`,
};

/** A key agentflow cannot sign or verify with; the message says which key and why. */
export class KeyFormatError extends Error {
  /** Where the key came from: a file path, or what the caller named it. */
  readonly source: string;
  /** The kind of problem, for callers that branch on it. */
  readonly problem: KeyProblem;
  /** The message without the source, e.g. `an RSA key; agentflow signs with…`. */
  readonly detail: string;

  /** `found` says what was seen: a PEM label, an algorithm, the decoder's reason. */
  constructor(source: string, problem: KeyProblem, found: string) {
    const detail = KEY_MESSAGES[problem](found);
    super(`${source}: ${detail}`);
    this.name = "KeyFormatError";
    this.source = source;
    this.problem = problem;
    this.detail = detail;
  }
}
