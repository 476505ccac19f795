/**
 * DSSE v1: PAE against the specification's own test vector (the envelope it publishes verifies
 * here with node:crypto over our PAE), strict base64, and the envelope's errors naming where.
 */
import { createPublicKey, randomBytes, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ApprovalFormatError,
  decodeBase64,
  encodeBase64,
  pae,
  parseEnvelope,
} from "../../src/approval/index.js";
import { APPROVER_EXTENSION_KIND } from "../../src/approval/types.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The vector of github.com/secure-systems-lab/dsse protocol.md ("Test Vectors"). */
const VECTOR = {
  payloadType: "http://example.com/HelloWorld",
  body: "hello world",
  pae: "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
  x: 46950820868899156662930047687818585632848591499744589407958293238635476079160n,
  y: 5640078356564379163099075877009565129882514886557779369047442380624545832820n,
  envelope: {
    payload: "aGVsbG8gd29ybGQ=",
    payloadType: "http://example.com/HelloWorld",
    signatures: [
      {
        sig: "A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA==",
      },
    ],
  },
};

/** A 256-bit integer as unpadded base64url of its 32 big-endian bytes (a JWK coordinate). */
function coordinate(value: bigint): string {
  return Buffer.from(value.toString(16).padStart(64, "0"), "hex").toString("base64url");
}

describe("pae", () => {
  it("matches the DSSE specification's test vector", () => {
    expect(text(pae(VECTOR.payloadType, utf8(VECTOR.body)))).toBe(VECTOR.pae);
  });

  it("lets the specification's signed envelope verify over it", () => {
    const key = createPublicKey({
      key: { kty: "EC", crv: "P-256", x: coordinate(VECTOR.x), y: coordinate(VECTOR.y) },
      format: "jwk",
    });
    // Its payload is not JSON, so it is not an approval: read it field by field.
    const envelope = VECTOR.envelope;
    const sig = decodeBase64(envelope.signatures[0]?.sig ?? "");
    const signed = pae(envelope.payloadType, decodeBase64(envelope.payload));
    expect(verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, sig)).toBe(true);
    // The same signature over another type does not verify: PAE binds the type.
    const swapped = pae("http://example.com/Other", decodeBase64(envelope.payload));
    expect(verify("sha256", swapped, { key, dsaEncoding: "ieee-p1363" }, sig)).toBe(false);
  });

  it("counts bytes, not characters, and keeps the body's bytes as they are", () => {
    const body = Uint8Array.from([0, 0xff, 0x0d, 0x0a]);
    const out = pae("tÿpe", body);
    expect(text(out.slice(0, 17))).toBe("DSSEv1 5 tÿpe 4 ");
    expect([...out.slice(17)]).toEqual([0, 0xff, 0x0d, 0x0a]);
    expect(text(pae("", new Uint8Array()))).toBe("DSSEv1 0  0 ");
  });
});

describe("base64", () => {
  it("encodes as Node does and decodes its own output, for every length to 40", () => {
    for (let n = 0; n <= 40; n++) {
      const bytes = new Uint8Array(randomBytes(n));
      const standard = Buffer.from(bytes).toString("base64");
      expect(encodeBase64(bytes)).toBe(standard);
      expect([...decodeBase64(standard)]).toEqual([...bytes]);
      const urlSafe = Buffer.from(bytes).toString("base64url");
      expect([...decodeBase64(urlSafe)]).toEqual([...bytes]);
      expect([...decodeBase64(standard.replace(/=+$/, ""))]).toEqual([...bytes]);
    }
  });

  it("accepts the URL-safe alphabet, padded or not", () => {
    expect([...decodeBase64("-_8=")]).toEqual([0xfb, 0xff]);
    expect([...decodeBase64("-_8")]).toEqual([0xfb, 0xff]);
  });

  it.each([
    ["whitespace", "aGVs bG8="],
    ["a line break", "aGVs\nbG8="],
    ["the two alphabets mixed", "+_8="],
    ["padding in the middle", "aG=sbG8="],
    ["too much padding", "QQ==="],
    ["padding short of a quartet", "QQ="],
    ["a length no encoding has", "QUJDR"],
    ["non-zero unused bits", "QR=="],
    ["a character outside the alphabets", "aGVsbG8*"],
    ["a non-ASCII character", "aGVsbG8é"],
  ])("refuses %s", (_what, input) => {
    expect(() => decodeBase64(input, "payload")).toThrow(
      new ApprovalFormatError("payload: not base64"),
    );
  });

  it("decodes the empty text to no bytes", () => {
    expect(decodeBase64("")).toEqual(new Uint8Array());
  });
});

describe("parseEnvelope", () => {
  const valid = {
    payloadType: "application/vnd.in-toto+json",
    payload: Buffer.from('{"a":1}').toString("base64"),
    signatures: [
      { keyid: "k1", sig: "AAAA" },
      {
        keyid: "k2",
        sig: "AAAA",
        extension: {
          kind: APPROVER_EXTENSION_KIND,
          ext: { role: "risk", time: "2026-01-01T00:00:00Z", sig: "AAAA" },
        },
      },
    ],
  };

  it("reads a valid envelope, keeping the approver extension and dropping unknown fields", () => {
    const envelope = parseEnvelope({ ...valid, extra: true });
    expect(envelope).toEqual(valid);
    expect("extra" in envelope).toBe(false);
  });

  it("reads a missing key id as empty, as DSSE lets it be left out", () => {
    const envelope = parseEnvelope({ ...valid, signatures: [{ sig: "AAAA" }] });
    expect(envelope.signatures[0]?.keyid).toBe("");
  });

  it("drops an extension of another kind (DSSE verifiers ignore those)", () => {
    const envelope = parseEnvelope({
      ...valid,
      signatures: [{ keyid: "k", sig: "AAAA", extension: { kind: "other", ext: 1 } }],
    });
    expect(envelope.signatures[0]).toEqual({ keyid: "k", sig: "AAAA" });
  });

  const signature = (patch: Record<string, unknown>) => ({
    ...valid,
    signatures: [valid.signatures[0], { ...valid.signatures[1], ...patch }],
  });
  const ext = (patch: Record<string, unknown>) =>
    signature({
      extension: {
        kind: APPROVER_EXTENSION_KIND,
        ext: { ...valid.signatures[1]?.extension?.ext, ...patch },
      },
    });

  it.each([
    ["not an object", [], "envelope: not a JSON object"],
    ["null", null, "envelope: not a JSON object"],
    ["no payloadType", { ...valid, payloadType: undefined }, "payloadType: missing"],
    [
      "a Sigstore bundle (v0.3) around the envelope",
      {
        mediaType: "application/vnd.dev.sigstore.bundle.v0.3+json",
        verificationMaterial: { publicKey: { hint: "k" } },
        dsseEnvelope: valid,
      },
      "envelope: this is a Sigstore bundle, not a DSSE envelope; give the bundle's dsseEnvelope (jq .dsseEnvelope), whose signatures verify checks against the trusted keys (the bundle's certificate or key hint is not read)",
    ],
    ["a numeric payloadType", { ...valid, payloadType: 1 }, "payloadType: not a string"],
    ["a payload not base64", { ...valid, payload: "e30=!" }, "payload: not base64"],
    ["an empty payload", { ...valid, payload: "" }, "payload: not base64"],
    [
      "a payload not JSON",
      { ...valid, payload: encodeBase64(utf8("{")) },
      "payload: not UTF-8 JSON",
    ],
    [
      "a payload not UTF-8",
      { ...valid, payload: encodeBase64(Uint8Array.from([0xff])) },
      "payload: not UTF-8 JSON",
    ],
    [
      "a payload that is a JSON list",
      { ...valid, payload: encodeBase64(utf8("[]")) },
      "payload: not a JSON object",
    ],
    [
      "a payload that is JSON null",
      { ...valid, payload: encodeBase64(utf8("null")) },
      "payload: not a JSON object",
    ],
    [
      "a payload that gives predicateType twice",
      {
        ...valid,
        payload: encodeBase64(utf8('{"predicateType":"a","subject":[],"predicateType":"b"}')),
      },
      "payload: an object gives one key twice (readers differ on which value counts)",
    ],
    [
      // Its keys cannot be counted either: a duplicate beside it must not slip through.
      "a payload with a number beyond a double's range and a key given twice",
      { ...valid, payload: encodeBase64(utf8('{"n":1e400,"a":1,"a":2}')) },
      "payload: a number is beyond a double's range (readers differ on its value)",
    ],
    [
      "a payload with a key given twice in a nested object",
      { ...valid, payload: encodeBase64(utf8('{"p":{"x":1, "x" :2},"q":"x:"}')) },
      "payload: an object gives one key twice (readers differ on which value counts)",
    ],
    ["no signatures", { ...valid, signatures: undefined }, "signatures: missing"],
    ["signatures not a list", { ...valid, signatures: {} }, "signatures: not a list"],
    [
      "no signature",
      { ...valid, signatures: [] },
      "signatures: empty (the envelope is not signed)",
    ],
    [
      "a signature not an object",
      { ...valid, signatures: [valid.signatures[0], "x"] },
      "signatures[1]: not an object",
    ],
    ["a sig not base64", signature({ sig: "@@@@" }), "signatures[1].sig: not base64"],
    ["a sig missing", signature({ sig: undefined }), "signatures[1].sig: missing"],
    ["a numeric keyid", signature({ keyid: 7 }), "signatures[1].keyid: not a string"],
    [
      "an extension not an object",
      signature({ extension: "x" }),
      "signatures[1].extension: not an object",
    ],
    [
      "an approver extension without ext",
      signature({ extension: { kind: APPROVER_EXTENSION_KIND } }),
      "signatures[1].extension.ext: not an object",
    ],
    ["a claim without role", ext({ role: undefined }), "signatures[1].extension.ext.role: missing"],
    [
      "a claim with a numeric ticket",
      ext({ ticket: 5 }),
      "signatures[1].extension.ext.ticket: not a string",
    ],
    ["a claim sig not base64", ext({ sig: "a b" }), "signatures[1].extension.ext.sig: not base64"],
  ])("refuses %s, saying where", (_what, value, message) => {
    expect(() => parseEnvelope(value)).toThrow(new ApprovalFormatError(message));
  });
});
