/**
 * A run being replayed: its state (where it is, what it merged, what it spent and found) and how
 * a finding is recorded on it. The run's own; dropped when it ends.
 */
import type { Plan } from "../simulate/internal.js";
import type { ApprovedWorkflow } from "./approved.js";
import type { Spent } from "./budget.js";
import type { CheckFinding } from "./checks.js";
import type { Deviation, Unverified } from "./deviation.js";
import type { EventAt, ProcessLink } from "./types.js";

/** The run has not executed a node yet. */
export const START = -1;

/** A tool step that needs a gate passed, kept for the process-level check. */
export interface GatedStep {
  readonly node: string;
  readonly effect: string;
  readonly authorization: string;
  readonly at: EventAt;
}

/** A step that succeeded and whose output was not read: the fields it leaves unknown point here. */
export interface UnreadOutput {
  /** The node whose output was not read. */
  readonly node: string;
  /** Where its step was recorded, as a message shows it. */
  readonly at: string;
  /** Why what it recorded is no output, when it recorded something. */
  readonly why?: string;
}

/** A run being replayed. */
export interface Replay {
  readonly run: string;
  readonly approved: ApprovedWorkflow;
  readonly plan: Plan;
  /** Index of the last node executed, or START. */
  prev: number;
  prevFailed: boolean;
  /** Attempts of `prev` in its current visit. */
  attempt: number;
  merged: Record<string, unknown>;
  /**
   * Fields of `merged` a step left unknown (it succeeded, and its output was not read): removed
   * from `merged`, so that a decision reading them is undecidable, never decided on an earlier
   * iteration's values. A later output that writes the field makes it known again.
   */
  readonly unknown: Map<string, UnreadOutput>;
  /** The fields each node's recorded outputs wrote in this run, by node index. */
  readonly writes: Map<number, Set<string>>;
  /** When the last step placed on the path ended (epoch ms), when its record says. */
  prevEnd: number | undefined;
  readonly retries: Map<number, number>;
  /** Routes the run recorded, by decision index, with the event that recorded them. */
  readonly recorded: Map<number, { readonly route: number; readonly at: EventAt }>;
  readonly spent: Spent;
  readonly overBudget: Set<string>;
  ended: boolean;
  readonly deviations: Deviation[];
  readonly unverified: Unverified[];
  readonly gated: GatedStep[];
  process?: ProcessLink;
}

/** A replay of `approved` for run `run`. */
export function startReplay(run: string, approved: ApprovedWorkflow, plan: Plan): Replay {
  return {
    run,
    approved,
    plan,
    prev: START,
    prevFailed: false,
    attempt: 0,
    merged: {},
    unknown: new Map(),
    writes: new Map(),
    prevEnd: undefined,
    retries: new Map(),
    recorded: new Map(),
    spent: { steps: 0, tokens: 0, cost: new Map(), firstTime: undefined, lastTime: undefined },
    overBudget: new Set(),
    ended: false,
    deviations: [],
    unverified: [],
    gated: [],
  };
}

/** The id of node `k`. */
export const idOf = (r: Replay, k: number): string => r.plan.ids[k] ?? "";

/** Records a check's finding on the run: a deviation, or a reason it is unverified. */
export function deviate(r: Replay, at: EventAt, finding: CheckFinding, node?: string): void {
  if ("class" in finding) {
    r.deviations.push({
      class: finding.class,
      run: r.run,
      at,
      ...(node === undefined ? {} : { node }),
      data: finding.data,
    });
  } else {
    r.unverified.push({
      reason: finding.reason,
      run: r.run,
      at,
      ...(node === undefined ? {} : { node }),
      data: finding.data,
    });
  }
}
