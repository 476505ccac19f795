/**
 * Sigstore's published libraries driven by hand, for the interoperability test:
 * `@sigstore/verify` checks DSSE signatures offline against a public key, and `@sigstore/sign`'s
 * DSSE bundle builder signs with a caller's signer. No transparency log, certificate authority
 * or timestamp authority is used: the keys are the test's own.
 */
import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";
import { bundleFromJSON, bundleToJSON } from "@sigstore/bundle";
import { DSSEBundleBuilder } from "@sigstore/sign";
import type { Signer as SigstoreSigner } from "@sigstore/sign";
import { toSignedEntity, toTrustMaterial, Verifier } from "@sigstore/verify";
import { expect } from "vitest";
import type { Envelope } from "../../../src/approval/index.js";
import { APPROVER_EXTENSION_KIND, PAYLOAD_TYPE } from "../../../src/approval/index.js";
import type { GeneratedKeyPair } from "../../../src/keys/index.js";

/** A trust root with nothing in it: no transparency log, CA or timestamp authority is used. */
const EMPTY_ROOT: Parameters<typeof toTrustMaterial>[0] = {
  mediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
  tlogs: [],
  certificateAuthorities: [],
  ctlogs: [],
  timestampAuthorities: [],
};

/**
 * Verifies each signature of `e` with `@sigstore/verify`: a Sigstore bundle holds one DSSE
 * signature and names its key by a hint, so each signature goes in a bundle of its own whose
 * hint is the signature's key id, and the verifier looks the key up among `trusted` only.
 * Offline: no log entry, certificate or timestamp is asked for. Throws when one fails.
 */
export function sigstoreVerify(e: Envelope, trusted: readonly GeneratedKeyPair[]): void {
  const material = toTrustMaterial(EMPTY_ROOT, (hint) => {
    const pair = trusted.find((p) => p.keyid === hint);
    if (pair === undefined) throw new Error(`key not trusted: ${hint}`);
    return { publicKey: createPublicKey(pair.publicKeyPem), validFor: () => true };
  });
  const verifier = new Verifier(material, {
    tlogThreshold: 0,
    ctlogThreshold: 0,
    timestampThreshold: 0,
  });
  for (const s of e.signatures) {
    const bundle = bundleFromJSON({
      mediaType: "application/vnd.dev.sigstore.bundle.v0.3+json",
      verificationMaterial: {
        publicKey: { hint: s.keyid },
        tlogEntries: [],
        timestampVerificationData: { rfc3161Timestamps: [] },
      },
      dsseEnvelope: {
        payload: e.payload,
        payloadType: e.payloadType,
        signatures: [{ keyid: s.keyid, sig: s.sig }],
      },
    });
    verifier.verify(toSignedEntity(bundle));
  }
}

/** A Sigstore signer over a PEM private key, signing with node:crypto (not agentflow's keys). */
function sigstoreSigner(pair: GeneratedKeyPair): SigstoreSigner {
  const key = createPrivateKey(pair.privateKeyPem);
  return {
    sign: (data) => {
      const signature =
        key.asymmetricKeyType === "ed25519"
          ? sign(null, data, key)
          : sign("sha256", data, { key, dsaEncoding: "der" });
      const material = {
        $case: "publicKey" as const,
        publicKey: pair.publicKeyPem,
        hint: pair.keyid,
      };
      return Promise.resolve({ signature, key: material } as const);
    },
  };
}

/** The DSSE signature `@sigstore/sign` makes over (payloadType, data), read from its bundle. */
export async function sigstoreSign(
  pair: GeneratedKeyPair,
  type: string,
  data: Buffer,
): Promise<string> {
  const builder = new DSSEBundleBuilder({ signer: sigstoreSigner(pair), witnesses: [] });
  const json = bundleToJSON(await builder.create({ data, type }));
  const dsse = json.dsseEnvelope;
  expect([dsse?.payloadType, dsse?.payload]).toEqual([type, data.toString("base64")]);
  const sig = dsse?.signatures[0];
  expect(sig?.keyid).toBe(pair.keyid);
  return sig?.sig ?? "";
}

/**
 * One signature of an approval made by Sigstore's DSSE builder alone: the envelope signature
 * over (in-toto payload type, statement), and the claim's — agentflow's extension, itself a DSSE
 * signature over (extension kind, the UTF-8 JSON of `payloadSha256`, `role`, `ticket` when
 * present and `time`, in that order), as issue 41's contract defines the claim.
 */
export async function sigstoreSignature(
  pair: GeneratedKeyPair,
  payload: Buffer,
  claim: { readonly role: string; readonly ticket?: string; readonly time: string },
): Promise<Envelope["signatures"][number]> {
  const payloadSha256 = createHash("sha256").update(payload).digest("hex");
  const signedClaim = { payloadSha256, ...claim };
  const claimJson = Buffer.from(JSON.stringify(signedClaim));
  return {
    keyid: pair.keyid,
    sig: await sigstoreSign(pair, PAYLOAD_TYPE, payload),
    extension: {
      kind: APPROVER_EXTENSION_KIND,
      ext: { ...claim, sig: await sigstoreSign(pair, APPROVER_EXTENSION_KIND, claimJson) },
    },
  };
}
