/**
 * DSSE v1 (github.com/secure-systems-lab/dsse): the pre-authentication encoding every signature
 * covers, strict base64, and the envelope read from untrusted JSON. Strict base64 matters: a
 * decoder that skips stray characters or ignores non-zero padding bits lets many texts stand for
 * one signature, and what a reviewer diffed is then not what was verified.
 */
import { keyCount, memberCount } from "../model/internal.js";
import { ApprovalFormatError } from "./errors.js";
import { APPROVER_EXTENSION_KIND } from "./types.js";
import type { ApproverExtension, Envelope, EnvelopeSignature } from "./types.js";

const encoder = new TextEncoder();

/**
 * DSSE's PAE: `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, LEN the byte length in ASCII
 * decimal. Signing this (not the payload alone) binds the payload type to the signature.
 *
 * @example
 * ```ts
 * import { pae } from "agentflow/approval";
 *
 * const bytes = pae("http://example.com/HelloWorld", new TextEncoder().encode("hello world"));
 * new TextDecoder().decode(bytes); // → "DSSEv1 29 http://example.com/HelloWorld 11 hello world"
 * ```
 */
export function pae(payloadType: string, payload: Uint8Array): Uint8Array {
  const type = encoder.encode(payloadType);
  const head = encoder.encode(`DSSEv1 ${String(type.length)} `);
  const middle = encoder.encode(` ${String(payload.length)} `);
  const out = new Uint8Array(head.length + type.length + middle.length + payload.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(payload, head.length + type.length + middle.length);
  return out;
}

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Character code → 6-bit value, per alphabet; -1 for a character outside it. */
function table(alphabet: string): Int16Array {
  const values = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
}
const STANDARD_VALUES = table(STANDARD);
const URL_SAFE_VALUES = table(URL_SAFE);

/**
 * Standard base64 (RFC 4648 §4) with padding, as DSSE envelopes are usually written.
 *
 * @example
 * ```ts
 * import { encodeBase64 } from "agentflow/approval";
 *
 * encodeBase64(new TextEncoder().encode("hello world")); // → "aGVsbG8gd29ybGQ="
 * ```
 */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const left = bytes.length - i;
    out += STANDARD.charAt(a >> 2);
    out += STANDARD.charAt(((a & 3) << 4) | (b >> 4));
    out += left > 1 ? STANDARD.charAt(((b & 15) << 2) | (c >> 6)) : "=";
    out += left > 2 ? STANDARD.charAt(c & 63) : "=";
  }
  return out;
}

/**
 * The bytes of a base64 text in the standard or the URL-safe alphabet (one of them, not mixed),
 * padded or not; `undefined` for anything else: other characters, whitespace, padding in the
 * middle or of the wrong length, a length no encoding has, or non-zero bits in the last
 * character's unused part (so that each byte string has exactly one accepted text per alphabet).
 */
export function base64Bytes(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/={1,2}$/, "");
  const padding = text.length - unpadded.length;
  if (padding > 0 && text.length % 4 !== 0) return undefined;
  if (unpadded.length % 4 === 1) return undefined;
  const values = /[-_]/.test(unpadded) ? URL_SAFE_VALUES : STANDARD_VALUES;
  const out = new Uint8Array(Math.floor((unpadded.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = 0; i < unpadded.length; i++) {
    const code = unpadded.charCodeAt(i);
    const value = code < 128 ? (values[code] ?? -1) : -1;
    if (value < 0) return undefined;
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
  if ((bits & ((1 << count) - 1)) !== 0) return undefined;
  return out;
}

/**
 * The bytes of a base64 text, standard or URL-safe alphabet (DSSE allows both), padded or not.
 * Throws {@link ApprovalFormatError} (`<where>: not base64`) for anything else: whitespace, a
 * mix of the two alphabets, misplaced padding, or non-zero unused bits (so that one signature has
 * one text per alphabet).
 *
 * @example
 * ```ts
 * import { decodeBase64 } from "agentflow/approval";
 *
 * [...decodeBase64("-_8")]; // → [251, 255]
 * [...decodeBase64("+/8=")]; // → [251, 255]
 * (() => { try { decodeBase64("+_8=", "signatures[0].sig"); } catch (e) { return (e as Error).message; } })();
 * // → "signatures[0].sig: not base64"
 * ```
 */
export function decodeBase64(text: string, where = "value"): Uint8Array {
  const bytes = base64Bytes(text);
  if (bytes === undefined) throw new ApprovalFormatError(`${where}: not base64`);
  return bytes;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function text(record: Readonly<Record<string, unknown>>, key: string, where: string): string {
  const value = record[key];
  if (value === undefined) throw new ApprovalFormatError(`${where}${key}: missing`);
  if (typeof value !== "string") throw new ApprovalFormatError(`${where}${key}: not a string`);
  return value;
}

function base64Text(record: Readonly<Record<string, unknown>>, key: string, where: string): string {
  const value = text(record, key, where);
  if (value === "" || base64Bytes(value) === undefined) {
    throw new ApprovalFormatError(`${where}${key}: not base64`);
  }
  return value;
}

/**
 * agentflow's approver extension of a signature; `undefined` for an extension of another kind,
 * which DSSE tells verifiers to ignore (the signature then counts as carrying no claim).
 */
function extension(value: unknown, where: string): ApproverExtension | undefined {
  if (!isRecord(value)) throw new ApprovalFormatError(`${where}: not an object`);
  if (value.kind !== APPROVER_EXTENSION_KIND) return undefined;
  const ext = value.ext;
  if (!isRecord(ext)) throw new ApprovalFormatError(`${where}.ext: not an object`);
  const at = `${where}.ext.`;
  const role = text(ext, "role", at);
  const ticket = ext.ticket === undefined ? undefined : text(ext, "ticket", at);
  const time = text(ext, "time", at);
  const sig = base64Text(ext, "sig", at);
  return {
    kind: APPROVER_EXTENSION_KIND,
    ext: ticket === undefined ? { role, time, sig } : { role, ticket, time, sig },
  };
}

function signatureOf(value: unknown, where: string): EnvelopeSignature {
  if (!isRecord(value)) throw new ApprovalFormatError(`${where}: not an object`);
  // DSSE lets an empty key id be left out: it is only a hint, and a verifier never trusts it.
  const keyid = value.keyid === undefined ? "" : text(value, "keyid", `${where}.`);
  const sig = base64Text(value, "sig", `${where}.`);
  const ext =
    value.extension === undefined ? undefined : extension(value.extension, `${where}.extension`);
  return ext === undefined ? { keyid, sig } : { keyid, sig, extension: ext };
}

/**
 * The payload's JSON value, which must be an object that repeats no key; throws
 * {@link ApprovalFormatError}. `JSON.parse` keeps the last of two members of one name, and
 * another tool may keep the first: a co-signer shown one `predicateType` while agentflow checks
 * the other signs a statement it never read.
 */
export function payloadValue(payload: Uint8Array): Readonly<Record<string, unknown>> {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(payload);
    value = JSON.parse(text);
  } catch {
    throw new ApprovalFormatError("payload: not UTF-8 JSON");
  }
  if (!isRecord(value)) throw new ApprovalFormatError("payload: not a JSON object");
  const keys = keyCount(value);
  // -1: a number beyond a double's range, which JSON.parse makes Infinity and another reader
  // keeps exact; the keys cannot be counted either, so it is refused as well.
  if (keys < 0) {
    throw new ApprovalFormatError(
      "payload: a number is beyond a double's range (readers differ on its value)",
    );
  }
  if (memberCount(text) > keys) {
    throw new ApprovalFormatError(
      "payload: an object gives one key twice (readers differ on which value counts)",
    );
  }
  return value;
}

/**
 * A DSSE envelope from untrusted JSON, checked field by field: `payloadType` a string, `payload`
 * base64 of a JSON object, `signatures` a non-empty list of `{ keyid?, sig, extension? }` with
 * base64 `sig`. Other fields are dropped. Throws {@link ApprovalFormatError} naming the field
 * (`signatures[1].sig: not base64`). Signatures are not checked here.
 *
 * @example
 * ```ts
 * import { ApprovalFormatError, parseEnvelope } from "agentflow/approval";
 *
 * const envelope = parseEnvelope({
 *   payloadType: "application/vnd.in-toto+json",
 *   payload: "e30=", // {}
 *   signatures: [{ keyid: "3f2a", sig: "AAAA" }],
 * });
 * envelope.signatures[0]?.keyid; // → "3f2a"
 * try {
 *   parseEnvelope({ ...envelope, signatures: [{ keyid: "3f2a", sig: "not base64!" }] });
 * } catch (error) {
 *   error instanceof ApprovalFormatError && error.message; // → "signatures[0].sig: not base64"
 * }
 * ```
 */
export function parseEnvelope(value: unknown): Envelope {
  if (!isRecord(value)) throw new ApprovalFormatError("envelope: not a JSON object");
  // A Sigstore bundle wraps its envelope with a certificate or key hint this check does not
  // read: said as what it is rather than as a missing payloadType.
  if (value.payloadType === undefined && isRecord(value.dsseEnvelope))
    throw new ApprovalFormatError(
      "envelope: this is a Sigstore bundle, not a DSSE envelope; give the bundle's dsseEnvelope (jq .dsseEnvelope), whose signatures verify checks against the trusted keys (the bundle's certificate or key hint is not read)",
    );
  const payloadType = text(value, "payloadType", "");
  const payload = base64Text(value, "payload", "");
  payloadValue(base64Bytes(payload) ?? new Uint8Array());
  const list = value.signatures;
  if (list === undefined) throw new ApprovalFormatError("signatures: missing");
  if (!Array.isArray(list)) throw new ApprovalFormatError("signatures: not a list");
  if (list.length === 0)
    throw new ApprovalFormatError("signatures: empty (the envelope is not signed)");
  const signatures = (list as readonly unknown[]).map((s, i) =>
    signatureOf(s, `signatures[${String(i)}]`),
  );
  return { payloadType, payload, signatures };
}
