/**
 * SHA-256 for the model core, which must run in browsers and stay synchronous (no `node:crypto`
 * import, no WebCrypto promise): `@noble/hashes` computes it everywhere. Under Node the digest
 * comes from `node:crypto`, reached at run time through `process.getBuiltinModule` (no import for
 * a bundler to resolve), because noble takes several times as long on the documents reports and
 * approvals hash (`bench/canonical.ts`; the figures are in docs/performance.md, "Hashing and
 * canonical JSON"). Tests check both give the same digests.
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils";

/** What this file uses of `node:crypto`. */
interface NodeCrypto {
  readonly createHash: (algorithm: "sha256") => {
    update: {
      (data: string, encoding: "utf8"): { digest: (encoding: "hex") => string };
      (data: Uint8Array): { digest: (encoding: "hex") => string };
    };
  };
}

/** Set once `nodeCrypto` has looked: loading `node:crypto` is a share of a bare import. */
let looked = false;
let cryptoModule: NodeCrypto | undefined;

/** `node:crypto`, or `undefined` outside Node (or before Node 20.16). */
function nodeCrypto(): NodeCrypto | undefined {
  if (!looked) {
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    cryptoModule = host.process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
    looked = true;
  }
  return cryptoModule;
}

/** {@link sha256Bytes} as a browser computes it (`@noble/hashes`). Internal; tests compare it. */
export function sha256BytesPortable(bytes: Uint8Array): string {
  return bytesToHex(nobleSha256(bytes));
}

/** {@link sha256} as a browser computes it (`@noble/hashes`). Internal; tests compare it. */
export function sha256Portable(text: string): string {
  return sha256BytesPortable(utf8ToBytes(text));
}

/**
 * The SHA-256 digest of `text` encoded as UTF-8, as 64 lowercase hex digits. Lone surrogates are
 * encoded as U+FFFD, as `TextEncoder` (and Node's `createHash().update(text)`) do.
 *
 * @example
 * ```ts
 * import { sha256 } from "agentflow/model";
 *
 * sha256("abc"); // → "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export function sha256(text: string): string {
  const node = nodeCrypto();
  return node === undefined
    ? sha256Portable(text)
    : node.createHash("sha256").update(text, "utf8").digest("hex");
}

/** The SHA-256 digest of raw bytes, as 64 lowercase hex digits (node:crypto's under Node). */
export function sha256Bytes(bytes: Uint8Array): string {
  const node = nodeCrypto();
  return node === undefined
    ? sha256BytesPortable(bytes)
    : node.createHash("sha256").update(bytes).digest("hex");
}
