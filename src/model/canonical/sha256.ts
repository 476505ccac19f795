/**
 * SHA-256 (FIPS 180-4) in plain TypeScript. The model core must run in browsers and stay
 * synchronous, which rules out importing `node:crypto` and WebCrypto's promise-based `digest`.
 * Under Node the digest of a text still comes from `node:crypto`, reached at run time through
 * `process.getBuiltinModule` (no import for a bundler to resolve): on a 15 MB canonical document
 * it is several times faster, and a test checks that both give the same digests. Raw bytes (an
 * approval hashes every input file as it is on disk) take the same native path.
 */

/** Round constants: first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Initial hash: first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const encoder = new TextEncoder();

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
  return nativeSha256?.(text) ?? sha256Portable(text);
}

/** What this file uses of `node:crypto`. */
interface NodeCrypto {
  readonly createHash: (algorithm: "sha256") => {
    update: {
      (data: string, encoding: "utf8"): { digest: (encoding: "hex") => string };
      (data: Uint8Array): { digest: (encoding: "hex") => string };
    };
  };
}

/** `node:crypto`, or `undefined` outside Node (or before Node 20.16). */
const nodeCrypto: NodeCrypto | undefined = (() => {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  return host.process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
})();

/** Node's SHA-256 of a UTF-8 text, or `undefined` outside Node. */
const nativeSha256: ((text: string) => string) | undefined =
  nodeCrypto &&
  ((text: string) => nodeCrypto.createHash("sha256").update(text, "utf8").digest("hex"));

/** Node's SHA-256 of raw bytes, or `undefined` outside Node. */
const nativeSha256Bytes: ((bytes: Uint8Array) => string) | undefined =
  nodeCrypto &&
  ((bytes: Uint8Array) => nodeCrypto.createHash("sha256").update(bytes).digest("hex"));

/** {@link sha256} in plain TypeScript, as a browser computes it. Internal; tests compare it. */
export function sha256Portable(text: string): string {
  return sha256BytesPortable(encoder.encode(text));
}

/** The SHA-256 digest of raw bytes, as 64 lowercase hex digits (node:crypto's under Node). */
export function sha256Bytes(bytes: Uint8Array): string {
  return nativeSha256Bytes?.(bytes) ?? sha256BytesPortable(bytes);
}

/** {@link sha256Bytes} in plain TypeScript, as a browser computes it. Internal; tests compare it. */
export function sha256BytesPortable(bytes: Uint8Array): string {
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian integer, to a multiple of 64.
  const length = bytes.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  // length * 8 can exceed 2^32, and bit operators truncate to 32 bits: split before shifting.
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);

  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15] ?? 0;
      const w2 = w[t - 2] ?? 0;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = (w[t - 16] ?? 0) + s0 + (w[t - 7] ?? 0) + s1;
    }
    let a = h[0] ?? 0;
    let b = h[1] ?? 0;
    let c = h[2] ?? 0;
    let d = h[3] ?? 0;
    let e = h[4] ?? 0;
    let f = h[5] ?? 0;
    let g = h[6] ?? 0;
    let hh = h[7] ?? 0;
    for (let t = 0; t < 64; t++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + (K[t] ?? 0) + (w[t] ?? 0)) >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0] ?? 0) + a;
    h[1] = (h[1] ?? 0) + b;
    h[2] = (h[2] ?? 0) + c;
    h[3] = (h[3] ?? 0) + d;
    h[4] = (h[4] ?? 0) + e;
    h[5] = (h[5] ?? 0) + f;
    h[6] = (h[6] ?? 0) + g;
    h[7] = (h[7] ?? 0) + hh;
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}
