/**
 * An approval as the audit report shows it beside the review: its signers, its files and the
 * tasks whose decision changed, as plain data the CLI computes and the renderers lay out.
 */

/** One signature of an approval: the signer's claim as the envelope states it, and its check. */
export interface ApprovalSignerView {
  /** The key id (sha256 of the public key's SPKI DER, hex), in full; renderers shorten it. */
  readonly keyid: string;
  /** The claim's fields; `null` when the signature carries no claim (or no ticket). */
  readonly role: string | null;
  readonly ticket: string | null;
  readonly time: string | null;
  /** Verified under a trusted key with a valid claim; `null` when no key was given to check. */
  readonly verified: boolean | null;
}

/** An approved file: its approved digest, and whether the file's bytes now are those. */
export interface ApprovedFileView {
  /** The subject name: a path relative to the repository root. */
  readonly name: string;
  /** What the file was to the decision: `process`, `workflow`, `tool`, `config`, ... */
  readonly kind: string;
  /** The approved sha256 of its raw bytes, hex. */
  readonly sha256: string;
  readonly status: "unchanged" | "changed" | "missing";
}

/** An agent task whose decision differs from the approved one. */
export interface ApprovalTaskView {
  readonly elementId: string;
  /** `added`: not in the approval; `removed`: approved but gone; `changed`: see `fields`. */
  readonly change: "added" | "removed" | "changed";
  /** The approved fields that differ (`contentHash`, `gate`, `effectiveLevel`, ...). */
  readonly fields: readonly string[];
}

/** An approval beside the review: who signed, what, what differs now (the CLI computes it). */
export interface ApprovalView {
  /** The approval file as given, and `sha256:` of its bytes. */
  readonly file: string;
  readonly fileHash: string;
  /** The agentflow version and rule-set digest the approval was made with. */
  readonly version: string;
  readonly ruleSetDigest: string;
  /** Every signature, in the envelope's order (the first is the approver's). */
  readonly signers: readonly ApprovalSignerView[];
  /** Trusted keys given and what their check found; `null`: none given, nothing verified. */
  readonly verification: {
    readonly trustedKeys: number;
    readonly problems: readonly string[];
  } | null;
  /** Every approved file, by name. */
  readonly files: readonly ApprovedFileView[];
  /** This process against its approved decision (`entry`: the one matched); `null`: a workflow. */
  readonly decision: {
    readonly entry: string | null;
    readonly tasks: readonly ApprovalTaskView[];
  } | null;
}
