/**
 * The service's approval: the `approval` option as given, read into a statement once the engine
 * is loaded (reading checks the statement against its schema, which the page does not need before
 * the first evaluation), why it cannot be used (until said), and what it said of the last
 * decision. Nothing here throws: a malformed approval or a comparison that fails is an error to
 * fire, and then nothing is marked.
 */
import type { ApprovalStatement } from "../approval/index.js";
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";
import { processIdsOf } from "./approval-marks.js";

/** What the state reads and compares with: the lazily loaded engine (`engine.ts`) provides it. */
export interface ApprovalReader {
  approvedStatement(value: unknown): ApprovalStatement;
  approvalChanges(
    statement: ApprovalStatement,
    processIds: readonly string[],
    decision: Pick<GateDecision, "agentTasks">,
  ): ApprovalChanges;
}

/** The service's approval; see the module's comment. */
export class ApprovalState {
  /** The option as given, until it is read; `undefined` once read or when there is none. */
  #pending: { readonly value: unknown } | undefined;
  #statement: ApprovalStatement | undefined;
  #error: unknown;
  #changes: ApprovalChanges | undefined;

  /** Keeps the option (`undefined`: no approval); it is read by the first call given a reader. */
  constructor(value: unknown) {
    this.set(value);
  }

  /** Replaces the approval; the old comparison is dropped. */
  set(value: unknown): void {
    this.#pending = value === undefined ? undefined : { value };
    this.#statement = undefined;
    this.#error = undefined;
    this.#changes = undefined;
  }

  #read(reader: ApprovalReader): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    try {
      this.#statement = reader.approvedStatement(pending.value);
    } catch (error) {
      this.#error = error;
    }
  }

  /** The errors not yet said, at most one, and none again once taken. */
  takeErrors(reader: ApprovalReader): unknown[] {
    this.#read(reader);
    const error: unknown = this.#error;
    this.#error = undefined;
    return error === undefined ? [] : [error];
  }

  /** Compares `decision` with the approval; returns the errors to say. */
  update(
    definitions: unknown,
    decision: Pick<GateDecision, "agentTasks">,
    reader: ApprovalReader,
  ): unknown[] {
    const errors = this.takeErrors(reader);
    this.#changes = undefined;
    if (this.#statement === undefined) return errors;
    try {
      this.#changes = reader.approvalChanges(this.#statement, processIdsOf(definitions), decision);
    } catch (error) {
      errors.push(error);
    }
    return errors;
  }

  /** Forgets the last comparison (the diagram was cleared). */
  forget(): void {
    this.#changes = undefined;
  }

  /** What the approval said of the last decision; `undefined` when it could say nothing. */
  get changes(): ApprovalChanges | undefined {
    return this.#changes;
  }
}
