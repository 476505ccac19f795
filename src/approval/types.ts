/**
 * The approval's data: an in-toto Statement v1 (what was reviewed and what was decided) inside
 * a DSSE envelope (who signed it). Plain JSON types, so that the CLI, the report and the
 * modeller read one shape; `docs/approval.md` explains each field.
 */

/** `_type` of an in-toto Statement v1. */
export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";

/** `predicateType` of agentflow's approval predicate (`schemas/approval-predicate.schema.json`). */
export const PREDICATE_TYPE = "https://agentflow.dev/approval/v1";

/** DSSE `payloadType` of an in-toto statement. */
export const PAYLOAD_TYPE = "application/vnd.in-toto+json";

/**
 * `kind` of the DSSE signature extension that carries each signer's own signed claim (role,
 * ticket, time): DSSE 1.1 lets a signature carry an `extension`, which other verifiers ignore.
 */
export const APPROVER_EXTENSION_KIND = "application/vnd.agentflow.approver+json";

/** What an input is to the decision, as a subject's `annotations` name it. */
export type SubjectKind = "process" | "workflow" | "tool" | "config" | "policy" | "plugin";

/** One input, by the sha256 of its raw bytes, named by its path relative to the repository root. */
export interface Subject {
  /** POSIX path relative to the repository root. */
  readonly name: string;
  readonly digest: { readonly sha256: string };
  readonly annotations: { readonly agentflowKind: SubjectKind };
}

/** A tool or delegate a task's decision looked up, and what it resolved to. */
export interface DependencyApproval {
  readonly kind: "tool" | "delegate";
  readonly ref: string;
  /** The subject the document was read from; `null` when the lookup failed or no file backs it. */
  readonly name: string | null;
  /** `sha256:` of the canonical document used; `null` when the lookup failed. */
  readonly contentHash: string | null;
  /** Why the lookup failed (`missing`, `conflict`…); `null` when it did not. */
  readonly failure: string | null;
}

/** One agent task's decision, as approved. */
export interface TaskApproval {
  readonly elementId: string;
  readonly source: "btv" | "camunda";
  /** The canonical ref; `null` for a Camunda agent or an invalid ref. */
  readonly ref: string | null;
  /** The level the agent declares: the task's own, else its workflow's; `null` when unknown. */
  readonly declaredLevel: number | null;
  /** The level the resolved workflow's graph justifies; `null` when unresolved. */
  readonly justifiedLevel: number | null;
  /** The level the gate requirement was judged on: the stricter of the two; `null` when neither. */
  readonly effectiveLevel: number | null;
  /** `reached`, `bypassed` or `missing`. */
  readonly gate: string;
  /** How the workflow was found: `registry`, `snapshot`, `unresolved` or `derived`. */
  readonly resolution: string;
  /** The subject the workflow was read from; `null` when none (snapshot, derived, unresolved). */
  readonly workflow: string | null;
  /** `sha256:` of the canonical workflow; `null` when unresolved. */
  readonly contentHash: string | null;
  readonly dependencies: readonly DependencyApproval[];
}

/** One process's decision, as approved. */
export interface ProcessApproval {
  /** The process file's subject name. */
  readonly name: string;
  /** The ids of its `bpmn:process` elements (how the modeller finds its diagram's entry). */
  readonly processIds: readonly string[];
  /** The promotion verdict: true (an approval is only made of allowed promotions). */
  readonly allowed: boolean;
  /** Ordered by element id. */
  readonly agentTasks: readonly TaskApproval[];
}

/** How the decisions were reached, so that `verify` can reach them again. */
export interface ApprovalInputs {
  /** The paths `approve` was given, relative to the repository root, as given order. */
  readonly paths: readonly string[];
  /** The registry folders, relative to the repository root. */
  readonly registry: readonly string[];
  /** The config file's subject name; `null` when none was used. */
  readonly config: string | null;
}

/** A signer's claim: who approved in which role, on which ticket, when. */
export interface ApproverClaim {
  readonly role: string;
  readonly ticket?: string;
  /** ISO 8601 UTC time of the signature. */
  readonly time: string;
}

/** agentflow's approval predicate (`https://agentflow.dev/approval/v1`). */
export interface ApprovalPredicate {
  readonly agentflow: { readonly version: string };
  readonly ruleSet: { readonly digest: string; readonly preset: string };
  readonly inputs: ApprovalInputs;
  /** Ordered by name. */
  readonly processes: readonly ProcessApproval[];
  /** The first approver's claim (later signers' claims ride on their signatures). */
  readonly approver: ApproverClaim;
}

/** An in-toto Statement v1 with agentflow's predicate. */
export interface ApprovalStatement {
  readonly _type: typeof STATEMENT_TYPE;
  /** Sorted by name, each name once. */
  readonly subject: readonly Subject[];
  readonly predicateType: typeof PREDICATE_TYPE;
  readonly predicate: ApprovalPredicate;
}

/** The signed claim a signature's extension carries. */
export interface ApproverExtension {
  readonly kind: typeof APPROVER_EXTENSION_KIND;
  readonly ext: ApproverClaim & {
    /** Base64 signature by the same key over PAE(kind, canonical JSON of the claim + payload digest). */
    readonly sig: string;
  };
}

/** One DSSE signature. */
export interface EnvelopeSignature {
  readonly keyid: string;
  /** Base64 signature over PAE(payloadType, payload). */
  readonly sig: string;
  readonly extension?: ApproverExtension;
}

/** A DSSE envelope. */
export interface Envelope {
  readonly payloadType: string;
  /** Base64 of the serialized statement. */
  readonly payload: string;
  readonly signatures: readonly EnvelopeSignature[];
}

/**
 * Who signs: a key id (sha256 of the public key's SPKI DER, hex) and a function that signs bytes.
 * A bank's KMS or HSM sits behind `sign`; agentflow never holds the private key.
 */
export interface ApprovalSigner {
  readonly keyid: string;
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * Whether a signature is this key's (`pemSigner` gives one). With it, `signApproval` refuses a
   * key that already signed under another `keyid` text; without it, only the text is compared.
   */
  verify?(data: Uint8Array, signature: Uint8Array): boolean | Promise<boolean>;
}

/** A key the verifier trusts, given by the verifier (never read from the envelope). */
export interface TrustedKey {
  readonly keyid: string;
  /** The roles this key may sign as; absent: any role it claims. */
  readonly roles?: readonly string[];
  verify(data: Uint8Array, signature: Uint8Array): boolean | Promise<boolean>;
}
