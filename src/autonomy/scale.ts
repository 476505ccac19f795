/**
 * The normative 0-5 autonomy scale (SPEC 4) as data, and the gate each level requires downstream
 * in the surrounding process.
 */
import type { AutonomyLevel, ToolEffect } from "../model/index.js";

/** Whether a human approval gate must follow an agent task of a level in the BPMN process. */
export type GateRequirement = "required" | "optional" | "none";

/** One step of the scale. */
export interface AutonomyLevelInfo {
  readonly level: AutonomyLevel;
  readonly name: string;
  /** What a graph at this level can do, in one sentence. */
  readonly meaning: string;
  readonly gate: GateRequirement;
}

/** The scale, indexed by level. */
export const AUTONOMY_SCALE: readonly AutonomyLevelInfo[] = Object.freeze([
  {
    level: 0,
    name: "Manual",
    meaning: "The agent suggests; a person carries out every action.",
    gate: "required",
  },
  {
    level: 1,
    name: "Loop-free",
    meaning: "A fixed sequence of steps: no loop, no branching between different paths.",
    gate: "required",
  },
  {
    level: 2,
    name: "Bounded Loop",
    meaning: "Repeats steps (retries, refinement) within declared bounds.",
    gate: "required",
  },
  {
    level: 3,
    name: "Decision Tree",
    meaning: "Chooses between different paths on its own data.",
    gate: "required",
  },
  {
    level: 4,
    name: "Multi-Agent",
    meaning: "Delegates work to other agents.",
    gate: "optional",
  },
  {
    level: 5,
    name: "Self-Modifying",
    meaning: "Rewrites its own plan while it runs.",
    gate: "none",
  },
]);

/**
 * The scale entry of a level.
 *
 * @example
 * ```ts
 * import { autonomyLevelInfo } from "agentflow/autonomy";
 *
 * autonomyLevelInfo(3);
 * // → {
 * //     level: 3,
 * //     name: "Decision Tree",
 * //     meaning: "Chooses between different paths on its own data.",
 * //     gate: "required",
 * //   }
 * ```
 */
export function autonomyLevelInfo(level: AutonomyLevel): AutonomyLevelInfo {
  const info = AUTONOMY_SCALE[level];
  if (info === undefined) throw new RangeError(`autonomy level must be 0..5, got ${String(level)}`);
  return info;
}

/**
 * The gate a level requires downstream: `required` for 0-3, `optional` for 4 (a warning when
 * absent), `none` for 5. Level 5's `none` is a structural statement — no gate in the graph can
 * contain an agent that rewrites its own plan — not a claim that oversight is unnecessary.
 *
 * @example
 * ```ts
 * import { gateRequirement } from "agentflow/autonomy";
 *
 * gateRequirement(3); // → "required"
 * gateRequirement(4); // → "optional"
 * gateRequirement(5); // → "none"
 * ```
 */
export function gateRequirement(level: AutonomyLevel): GateRequirement {
  return autonomyLevelInfo(level).gate;
}

/**
 * True when the process must place a gate downstream of an agent task at this level.
 *
 * @example
 * ```ts
 * import { requiresDownstreamGate } from "agentflow/autonomy";
 *
 * requiresDownstreamGate(2); // → true
 * requiresDownstreamGate(4); // → false
 * ```
 */
export function requiresDownstreamGate(level: AutonomyLevel): boolean {
  return gateRequirement(level) === "required";
}

/**
 * True for an integer 0..5.
 *
 * @example
 * ```ts
 * import { isAutonomyLevel } from "agentflow/autonomy";
 *
 * isAutonomyLevel(3); // → true
 * isAutonomyLevel(2.5); // → false
 * isAutonomyLevel("3"); // → false
 * ```
 */
export function isAutonomyLevel(value: unknown): value is AutonomyLevel {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 5;
}

/** Effects that cannot be taken back (SPEC 2.5): a person must approve them. */
const GATED_EFFECTS: ReadonlySet<ToolEffect> = new Set([
  "write-irreversible",
  "external-commitment",
]);

/**
 * True for a tool effect that needs an approval gate (irreversible writes, commitments).
 *
 * @example
 * ```ts
 * import { effectNeedsGate } from "agentflow/autonomy";
 *
 * effectNeedsGate("external-commitment"); // → true
 * effectNeedsGate("write-reversible"); // → false
 * ```
 */
export function effectNeedsGate(effect: ToolEffect): boolean {
  return GATED_EFFECTS.has(effect);
}
