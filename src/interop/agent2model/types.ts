/**
 * The agent2model Flowchart IR (seed `agent2model-flowchart-ir.txt`) as read by the importer, and
 * its import error. What maps is listed field by field in `docs/interop/agent2model.md`.
 */

/** The {@link Format.id} of the agent2model flowchart format. */
export const AGENT2MODEL_ID = "agent2model";

/** Who takes a non-terminal node's turn. */
export type Agent2ModelRole = "agent" | "user" | "decision";

/** How a conversation ends at a terminal node. */
export type Agent2ModelOutcome = "success" | "abandonment" | "escalation";

/** One outgoing edge, whichever of the three `next` spellings it was written in. */
export interface Agent2ModelEdge {
  readonly to: string;
  readonly when?: string;
  /** JSON Pointer of the edge in the source (`/nodes/<id>/next`, `.../next/<i>`). */
  readonly path: string;
}

/** A non-terminal node: a role, an optional prompt and its edges. */
export interface Agent2ModelTurn {
  readonly kind: "turn";
  readonly id: string;
  readonly role: Agent2ModelRole;
  readonly prompt?: string;
  readonly next: readonly Agent2ModelEdge[];
}

/** A terminal node: only its outcome. */
export interface Agent2ModelTerminal {
  readonly kind: "terminal";
  readonly id: string;
  readonly outcome: Agent2ModelOutcome;
}

/** Either kind of node. */
export type Agent2ModelNode = Agent2ModelTurn | Agent2ModelTerminal;

/** A flowchart after structural reading, nodes in source order. */
export interface Agent2ModelFlowchart {
  readonly name: string;
  readonly description?: string;
  readonly start: string;
  readonly nodes: readonly Agent2ModelNode[];
  readonly scenarioVariables?: unknown;
}

/** An edge as the export writes it: always the mapping spelling of `next`. */
export interface Agent2ModelDocumentEdge {
  readonly to: string;
  /** The natural-language condition; absent on an unconditional edge. */
  readonly when?: string;
}

/** A non-terminal node as the export writes it. */
export interface Agent2ModelDocumentTurn {
  readonly role: Agent2ModelRole;
  /** Required for `agent` and `user`; never written for `decision`. */
  readonly prompt?: string;
  readonly next: readonly Agent2ModelDocumentEdge[];
}

/** A terminal node as the export writes it. */
export interface Agent2ModelDocumentTerminal {
  readonly terminal: Agent2ModelOutcome;
}

/**
 * A flowchart as the export writes it: the decoded (JSON) form of the YAML that
 * `agent2model compile` reads, and the value `importAgent2Model` accepts.
 */
export interface Agent2ModelDocument {
  readonly name: string;
  readonly description?: string;
  readonly start: string;
  /** Node id → node; turns first (the start first), then terminals. */
  readonly nodes: Readonly<Record<string, Agent2ModelDocumentTurn | Agent2ModelDocumentTerminal>>;
  readonly scenario_variables?: unknown;
}
