/**
 * Keys for approvals (`agentflow/keys`): Ed25519 and ECDSA P-256 key pairs in PEM (PKCS#8
 * private, SPKI public), key ids (sha256 of the SPKI DER), and PEM keys as an approval's signer
 * and as a verifier's trusted key. Node only (`node:crypto`); the approval core
 * (`agentflow/approval`) takes any signer, so a browser or a KMS brings its own.
 *
 * @packageDocumentation
 */
export type { KeyProblem } from "./errors.js";
export { KeyFormatError } from "./errors.js";
export type { GeneratedKeyPair } from "./generate.js";
export { generateKeyPair, publicKeyPemOf } from "./generate.js";
export { keyIdOf } from "./keyid.js";
export type { KeyAlgorithm } from "./read.js";
export { KEY_ALGORITHMS, readPrivateKey, readPublicKey } from "./read.js";
export { pemSigner, pemTrustedKey } from "./sign.js";
export type { ApprovalSigner, TrustedKey } from "../approval/types.js";
