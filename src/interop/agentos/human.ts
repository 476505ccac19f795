/**
 * Who decides at an AgentOS `human` node. AgentOS 0.9 (`NodeExecutor.executeHuman` and
 * `execute`) resolves one without a person in four ways: `autoAccept` approves at once
 * (`decidedBy: "auto-accept"`); else `autoReject` rejects at once (`"auto-reject"`); else a
 * `judge` (an LLM) approves or rejects when its confidence reaches the threshold
 * (`"llm-judge"`), and only below it asks a person; and `onTimeout: "accept"` approves when the
 * node's `timeout` runs out (`"timeout-accept"`). A node that can approve without a person is not
 * a human approval: a self-approval must never count as oversight, so it is read as its own tool.
 */
import { cloneJson, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";

/** The contract name of a human approval: a person decides (the host's contract says so). */
export const HUMAN_TOOL = "agentos.human";
/** The contract name of a human node that can approve without a person. */
export const AUTO_APPROVAL_TOOL = "agentos.auto-approval";
/** The contract name of a human node that rejects without a person. */
export const AUTO_REJECTION_TOOL = "agentos.auto-rejection";

/** How a human node decides: the contract it is read as, and what it keeps in `params`. */
export interface HumanDecision {
  readonly tool: string;
  /** AgentOS's `decidedBy` values of every path that decides without a person, in order. */
  readonly decidedBy: readonly string[];
  /** The settings that decide, kept as they are; every other key is declared by the caller. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** JavaScript truthiness for a decoded JSON value: what the runtime's `if (config.x)` tests. */
function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== "";
}

/**
 * Reads who decides at a human node, as AgentOS's runtime does: a truthy `autoAccept` first,
 * then a truthy `autoReject`, then a `judge` and `onTimeout: "accept"`. A judge or an accepting
 * timeout is read as an auto-approval even though a person may still decide below the judge's
 * threshold or before the timeout: the node *can* approve alone, and a verdict must not rest on
 * a person it may never ask. `onTimeout: "accept"` counts whether or not a `timeout` is set (a
 * host may set one): failing closed.
 */
export function humanDecision(cfg: Readonly<Record<string, unknown>>): HumanDecision {
  const autoAccept = own(cfg, "autoAccept");
  if (truthy(autoAccept)) {
    const params = { autoAccept: cloneJson(autoAccept) };
    return { tool: AUTO_APPROVAL_TOOL, decidedBy: ["auto-accept"], params };
  }
  const autoReject = own(cfg, "autoReject");
  if (truthy(autoReject)) {
    const params = { autoReject: cloneJson(autoReject) };
    return { tool: AUTO_REJECTION_TOOL, decidedBy: ["auto-reject"], params };
  }
  const decidedBy: string[] = [];
  const params: Record<string, unknown> = {};
  const judge = own(cfg, "judge");
  if (truthy(judge)) {
    decidedBy.push("llm-judge");
    params.judge = cloneJson(judge);
  }
  if (own(cfg, "onTimeout") === "accept") {
    decidedBy.push("timeout-accept");
    params.onTimeout = "accept";
  }
  if (decidedBy.length > 0) return { tool: AUTO_APPROVAL_TOOL, decidedBy, params };
  return { tool: HUMAN_TOOL, decidedBy: [], params: {} };
}

/** What {@link automatedHuman} needs from the node reader. */
export interface HumanNodeContext {
  /** The node's AgentOS id. */
  readonly nodeId: string;
  /** The JSON Pointer of the node's `type`, where the reading is declared. */
  readonly typePath: string;
  readonly prompt: string;
  /** The tool ref of the decision's contract. */
  readonly usesTool: string;
  readonly warnings: InteropWarning[];
}

/**
 * The tool config of a human node that can decide without a person: its own contract ref, never
 * `agentos.human`, so that no contract written for a person's approval stands for it; the
 * settings that decide stay in `params`. The reading is declared (`HEURISTIC`, with `decidedBy`).
 */
export function automatedHuman(
  decision: HumanDecision,
  ctx: HumanNodeContext,
): Record<string, unknown> {
  const by = decision.decidedBy.join(", ");
  const what =
    decision.tool === AUTO_APPROVAL_TOOL
      ? `can accept without a person (${by}): a self-approval is no human oversight`
      : `rejects without a person (${by}): no person decides`;
  ctx.warnings.push(
    guessed(
      ctx.typePath,
      `node '${ctx.nodeId}': a human node that ${what}, so it is read as a tool node bound to '${ctx.usesTool}', not as the human approval '${HUMAN_TOOL}'`,
      { nodeId: ctx.nodeId, assumed: ctx.usesTool, decidedBy: [...decision.decidedBy] },
    ),
  );
  return { usesTool: ctx.usesTool, params: { prompt: ctx.prompt, ...decision.params } };
}
