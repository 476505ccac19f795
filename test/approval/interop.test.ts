/**
 * Interoperability (issue 41, item 5): an approval is a plain DSSE envelope around an in-toto
 * Statement v1, so tools that are not agentflow read it.
 *
 * (a) A DSSE verifier written from the DSSE v1 protocol (secure-systems-lab/dsse,
 *     protocol.md, in interop/dsse-spec.ts): its own PAE and node:crypto — nothing from agentflow.
 * (b) Sigstore's published JavaScript libraries (devDependencies): `@sigstore/verify` verifies
 *     each signature of agentflow's envelopes offline against a public key, and
 *     `@sigstore/sign`'s DSSE bundle builder signs an envelope that agentflow's `verifyApproval`
 *     accepts.
 * (c) The statement validates against the in-toto Statement v1 JSON Schema in
 *     test/fixtures/in-toto (transcribed from the spec: in-toto publishes none; see ORIGIN.md).
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { Envelope, StatementInput } from "../../src/approval/index.js";
import {
  createApproval,
  createStatement,
  PAYLOAD_TYPE,
  signApproval,
  verifyApproval,
} from "../../src/approval/index.js";
import { generateKeyPair, pemSigner, pemTrustedKey } from "../../src/keys/index.js";
import { AGENTFLOW_VERSION } from "../../src/model/index.js";
import { keyring, specPae, specVerify } from "./interop/dsse-spec.js";
import { sigstoreSign, sigstoreSignature, sigstoreVerify } from "./interop/sigstore.js";

const WORKFLOW_HASH = `sha256:${"ab".repeat(32)}`;
const TOOL_HASH = `sha256:${"cd".repeat(32)}`;

const INPUT: StatementInput = {
  files: [
    { name: "processes/loan.bpmn", kind: "process", bytes: "<definitions id='loan'/>\n" },
    { name: "registry/workflows/score.json", kind: "workflow", bytes: '{"id":"score"}\n' },
    { name: "registry/tools/pay.json", kind: "tool", bytes: '{"id":"pay"}\n' },
    { name: "agentflow.config.json", kind: "config", bytes: "{}\n" },
  ],
  processes: [
    {
      name: "processes/loan.bpmn",
      processIds: ["Loan"],
      allowed: true,
      agentTasks: [
        {
          elementId: "Score",
          source: "btv",
          ref: "workflow:score@1.0.0",
          declaredLevel: 2,
          justifiedLevel: 3,
          effectiveLevel: 3,
          gate: "reached",
          resolution: "registry",
          workflow: "registry/workflows/score.json",
          contentHash: WORKFLOW_HASH,
          dependencies: [
            {
              kind: "tool",
              ref: "tool:pay@1.0.0",
              name: "registry/tools/pay.json",
              contentHash: TOOL_HASH,
              failure: null,
            },
          ],
        },
      ],
    },
  ],
  inputs: { paths: ["processes"], registry: ["registry"], config: "agentflow.config.json" },
  ruleSet: { digest: `sha256:${"ef".repeat(32)}`, preset: "recommended" },
  version: AGENTFLOW_VERSION,
  approver: { role: "credit-officer", ticket: "CHG-1234", time: "2026-01-31T09:30:00Z" },
};

const statement = createStatement(INPUT);
const alice = generateKeyPair("ed25519");
const bob = generateKeyPair("ecdsa-p256");
const SECOND_CLAIM = { role: "risk-officer", time: "2026-02-01T10:00:00Z" } as const;

/** The envelopes under test, read back from their JSON text as a verifier reads a file. */
async function envelopes(): Promise<Readonly<Record<string, Envelope>>> {
  const ed = await createApproval(statement, pemSigner(alice.privateKeyPem));
  const ec = await createApproval(statement, pemSigner(bob.privateKeyPem));
  const both = await signApproval(ed, pemSigner(bob.privateKeyPem), SECOND_CLAIM, {
    current: statement,
  });
  const reread = (e: Envelope): Envelope => JSON.parse(JSON.stringify(e)) as Envelope;
  return { ed25519: reread(ed), "ecdsa-p256": reread(ec), both: reread(both) };
}
const made = await envelopes();
const envelope = (name: string): Envelope => {
  const found = made[name];
  if (found === undefined) throw new Error(`no envelope ${name}`);
  return found;
};

describe("(a) a DSSE verifier written from the spec", () => {
  it("builds PAE as protocol.md's example", () => {
    const pae = specPae("http://example.com/HelloWorld", Buffer.from("hello world"));
    expect(pae.toString()).toBe("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  });

  it.each([
    ["ed25519", [alice.keyid]],
    ["ecdsa-p256", [bob.keyid]],
    ["both", [alice.keyid, bob.keyid]],
  ] as const)("verifies agentflow's %s envelope", (name, keyids) => {
    const e = envelope(name);
    expect(specVerify(e, keyring([alice, bob]))).toEqual(keyids);
    expect(e.payloadType).toBe("application/vnd.in-toto+json");
    const payload = JSON.parse(Buffer.from(e.payload, "base64").toString("utf8")) as unknown;
    expect(payload).toEqual(statement);
  });

  it("accepts no signature over a changed payload or payload type, or from an unknown key", () => {
    const e = envelope("both");
    const changed = { ...statement, predicateType: "https://example.com/other/v1" };
    const payload = Buffer.from(JSON.stringify(changed)).toString("base64");
    expect(specVerify({ ...e, payload }, keyring([alice, bob]))).toEqual([]);
    expect(specVerify({ ...e, payloadType: "application/json" }, keyring([alice, bob]))).toEqual(
      [],
    );
    expect(specVerify(e, keyring([generateKeyPair()]))).toEqual([]);
  });
});

describe("(b) Sigstore's @sigstore/verify and @sigstore/sign", () => {
  it.each(["ed25519", "ecdsa-p256", "both"])(
    "@sigstore/verify verifies the %s envelope",
    (name) => {
      expect(() => {
        sigstoreVerify(envelope(name), [alice, bob]);
      }).not.toThrow();
    },
  );

  it("@sigstore/verify refuses a changed payload and an untrusted key", () => {
    const e = envelope("ed25519");
    const payload = Buffer.from(JSON.stringify({ ...statement, subject: [] })).toString("base64");
    expect(() => {
      sigstoreVerify({ ...e, payload }, [alice]);
    }).toThrow("signature verification failed");
    expect(() => {
      sigstoreVerify(e, [bob]);
    }).toThrow(`key not trusted: ${alice.keyid}`);
  });

  const payload = Buffer.from(JSON.stringify(statement));
  const trustedKeys = [
    pemTrustedKey(alice.publicKeyPem, "alice.pub"),
    pemTrustedKey(bob.publicKeyPem, "bob.pub"),
  ];

  it("agentflow verifies an approval that @sigstore/sign signed, with one and two keys", async () => {
    const first = await sigstoreSignature(alice, payload, INPUT.approver);
    const second = await sigstoreSignature(bob, payload, SECOND_CLAIM);
    const one: Envelope = {
      payloadType: PAYLOAD_TYPE,
      payload: payload.toString("base64"),
      signatures: [first],
    };
    const single = await verifyApproval(one, { trustedKeys, current: statement });
    expect([single.ok, single.reasons]).toEqual([true, []]);
    expect(single.signers).toEqual([{ index: 0, keyid: alice.keyid, ...INPUT.approver }]);

    const two = { ...one, signatures: [first, second] };
    const result = await verifyApproval(two, {
      trustedKeys,
      threshold: 2,
      requireRoles: ["credit-officer", "risk-officer"],
      current: statement,
    });
    expect([result.ok, result.reasons]).toEqual([true, []]);
    expect(result.signers.map((s) => [s.keyid, s.role])).toEqual([
      [alice.keyid, "credit-officer"],
      [bob.keyid, "risk-officer"],
    ]);
    expect(result.statement).toEqual(statement);
  });

  it("agentflow counts no Sigstore signature over another payload or without its claim", async () => {
    const other = Buffer.from(
      JSON.stringify({ ...statement, subject: statement.subject.slice(1) }),
    );
    const signedOther = await sigstoreSignature(alice, other, INPUT.approver);
    const swapped: Envelope = {
      payloadType: PAYLOAD_TYPE,
      payload: payload.toString("base64"),
      signatures: [signedOther],
    };
    const result = await verifyApproval(swapped, { trustedKeys });
    expect(result.ok).toBe(false);
    expect(result.signers).toEqual([]);
    expect(result.reasons.map((r) => r.code)).toContain("SIGNATURE_INVALID");

    // A bare DSSE signature (no approver claim) verifies as DSSE but does not approve.
    const bare = {
      keyid: alice.keyid,
      sig: await sigstoreSign(alice, PAYLOAD_TYPE, payload),
    };
    const unclaimed = await verifyApproval({ ...swapped, signatures: [bare] }, { trustedKeys });
    expect(unclaimed.ok).toBe(false);
    expect(unclaimed.reasons.map((r) => r.code)).toContain("CLAIM_INVALID");
    expect(specVerify({ ...swapped, signatures: [bare] }, keyring([alice]))).toEqual([alice.keyid]);
  });
});

const schema = JSON.parse(
  readFileSync(new URL("../fixtures/in-toto/statement-v1.schema.json", import.meta.url), "utf8"),
) as object;
const ajv = new Ajv2020({ allErrors: true, strictRequired: false });
formatsModule.default(ajv);
const validate = ajv.compile(schema);
const errorsOf = (value: unknown): string[] =>
  validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);

describe("(c) the in-toto Statement v1 schema", () => {
  it.each(["ed25519", "ecdsa-p256", "both"])(
    "validates the statement of the %s envelope",
    (name) => {
      const payload = Buffer.from(envelope(name).payload, "base64").toString("utf8");
      expect(errorsOf(JSON.parse(payload))).toEqual([]);
    },
  );

  it("validates the statement createStatement makes", () => {
    expect(errorsOf(statement)).toEqual([]);
  });

  /** The statement with one change, as plain JSON (the schema judges JSON, not types). */
  const changed = (change: (s: Record<string, unknown>) => void): unknown => {
    const copy = JSON.parse(JSON.stringify(statement)) as Record<string, unknown>;
    change(copy);
    return copy;
  };
  const subjects = (s: Record<string, unknown>): Record<string, unknown>[] =>
    s.subject as Record<string, unknown>[];
  const first = (s: Record<string, unknown>): Record<string, unknown> => {
    const found = subjects(s)[0];
    if (found === undefined) throw new Error("no subject");
    return found;
  };

  it.each([
    [
      "another _type",
      changed((s) => (s._type = "https://in-toto.io/Statement/v0.1")),
      "/_type const",
    ],
    ["no subject", changed((s) => (s.subject = [])), "/subject minItems"],
    ["a subject without digest", changed((s) => delete first(s).digest), "/subject/0 required"],
    [
      "an empty digest set",
      changed((s) => (first(s).digest = {})),
      "/subject/0/digest minProperties",
    ],
    [
      "an upper-case sha256",
      changed((s) => (first(s).digest = { sha256: "AB".repeat(32) })),
      "/subject/0/digest/sha256 pattern",
    ],
    [
      "a short sha256",
      changed((s) => (first(s).digest = { sha256: "ab".repeat(31) })),
      "/subject/0/digest/sha256 pattern",
    ],
    ["no predicateType", changed((s) => delete s.predicateType), " required"],
    [
      "a predicateType that is no URI",
      changed((s) => (s.predicateType = "approval")),
      "/predicateType format",
    ],
    [
      "an upper-case URI authority",
      changed((s) => (s.predicateType = "https://Agentflow.dev/approval/v1")),
      "/predicateType pattern",
    ],
    ["a predicate that is no object", changed((s) => (s.predicate = [])), "/predicate type"],
  ])("refuses a statement with %s", (_name, value, error) => {
    expect(errorsOf(value)).toContain(error);
  });

  it("allows what the spec allows: unknown fields, other digest algorithms, no predicate", () => {
    const extended = changed((s) => {
      s.extra = { note: "ignored" };
      first(s).digest = { sha256: "ab".repeat(32), gitBlob: "cd".repeat(20), custom: "x" };
      delete s.predicate;
    });
    expect(errorsOf(extended)).toEqual([]);
  });
});
