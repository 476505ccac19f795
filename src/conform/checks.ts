/**
 * The checks of one accepted step that do not depend on the path: the model's, provider's and
 * prompt's identity, and the tool call's arguments against its contract (the budget's are in
 * budget.ts).
 */
import { effectNeedsGate } from "../autonomy/index.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { AgentNode, ToolContract } from "../model/index.js";
import { parseRef, shapeValidator } from "../model/index.js";
import { isOpaqueStepRef } from "../model/internal.js";
import type { ApprovedWorkflow } from "./approved.js";
import type { DeviationClass, FindingData, UnverifiedReason } from "./deviation.js";
import type { StepEvent, StepIdentity } from "./types.js";

/** A finding of a check, before the run and event are attached. */
export type CheckFinding =
  | { readonly class: DeviationClass; readonly data: FindingData }
  | { readonly reason: UnverifiedReason; readonly data: FindingData };

/**
 * Identity of an llm step against its node: model (or fallback), provider, prompt — of each of
 * its model calls when it records several (`modelCalls`). A model call that ran and recorded no
 * model is unverified (`MODEL_UNRECORDED`), never taken as approved; provider and prompt are
 * checked where recorded. A finding said for one call is not repeated for the next.
 */
export function identityFindings(
  approved: ApprovedWorkflow,
  node: AgentNode,
  step: StepEvent,
): CheckFinding[] {
  if (node.type === "tool") return unstatedModelFindings(node, step);
  if (node.type !== "llm") return [];
  const calls =
    step.modelCalls === undefined || step.modelCalls.length === 0
      ? [step.identity ?? {}]
      : step.modelCalls.map((call) => ({ ...step.identity, ...call }));
  const found: CheckFinding[] = [];
  const said = new Set<string>();
  for (const id of calls) {
    for (const finding of callFindings(approved, node, step.status, id)) {
      const key = JSON.stringify(finding);
      if (said.has(key)) continue;
      said.add(key);
      found.push(finding);
    }
  }
  return found;
}

/**
 * A tool node that stands for a step whose content the imported document does not show (a
 * LangGraph function node, a subgraph drawn whole) may call models, and its approval names none:
 * each model its step recorded is unverified (`MODEL_UNSTATED`), never taken as approved.
 */
function unstatedModelFindings(
  node: Extract<AgentNode, { type: "tool" }>,
  step: StepEvent,
): CheckFinding[] {
  if (!isOpaqueStepRef(node.config.usesTool)) return [];
  const calls = [step.identity, ...(step.modelCalls ?? [])];
  const recorded = [...new Set(calls.flatMap((c) => (c?.model === undefined ? [] : [c.model])))];
  return recorded.map((model) => ({
    reason: "MODEL_UNSTATED",
    data: { node: node.id, recorded: model, tool: node.config.usesTool },
  }));
}

/** The identity findings of one model call of an llm node. */
function callFindings(
  approved: ApprovedWorkflow,
  node: Extract<AgentNode, { type: "llm" }>,
  status: StepEvent["status"],
  id: StepIdentity,
): CheckFinding[] {
  const config = node.config;
  const found: CheckFinding[] = [];
  const mismatch = (field: string, recorded: string, allowed: string): void => {
    found.push({
      class: "IDENTITY_MISMATCH",
      data: { node: node.id, field, recorded, approved: allowed },
    });
  };
  const models = [config.model, config.fallbackModel].filter((m) => m !== undefined);
  if (id.model === undefined) {
    // As for a tool call's arguments: a failed call may have recorded nothing, but a model call
    // that ran must show which model it ran on, or it cannot be told from an unapproved one.
    if (status === "ok") {
      found.push({
        reason: "MODEL_UNRECORDED",
        data: { node: node.id, approved: models.join(" or ") },
      });
    }
  } else if (!models.includes(id.model)) {
    mismatch("model", id.model, models.join(" or "));
  }
  if (
    id.provider !== undefined &&
    config.provider !== undefined &&
    id.provider !== config.provider
  ) {
    mismatch("provider", id.provider, config.provider);
  }
  if (id.promptRef !== undefined && id.promptRef !== config.promptRef) {
    mismatch("prompt", id.promptRef, config.promptRef);
  }
  if (id.promptSha256 !== undefined) {
    const digest = approved.prompts?.get(config.promptRef);
    if (digest === undefined) {
      found.push({
        reason: "PROMPT_UNKNOWN",
        data: { node: node.id, promptRef: config.promptRef },
      });
    } else if (digest.sha256.toLowerCase() !== id.promptSha256.toLowerCase()) {
      if (digest.exact) {
        mismatch("system prompt sha256", id.promptSha256, `${digest.sha256} (${config.promptRef})`);
      } else {
        found.push({
          reason: "PROMPT_UNKNOWN",
          data: { node: node.id, promptRef: config.promptRef, modelled: true },
        });
      }
    }
  }
  return found;
}

/** The contract of a tool node, `null` when unresolved, `undefined` when the node is no tool. */
export function contractOf(
  approved: ApprovedWorkflow,
  node: AgentNode,
): ToolContract | null | undefined {
  if (node.type !== "tool") return undefined;
  return approved.tools.get(node.config.usesTool) ?? null;
}

/** Whether running this tool needs a gate passed (its authorization or its effect says so). */
export function toolNeedsGate(contract: ToolContract): boolean {
  return contract.authorization === "gate" || effectNeedsGate(contract.effect);
}

/** The gate a tool node's run needs: its effect and authorization, or `undefined` when none. */
export function gateNeed(
  approved: ApprovedWorkflow,
  node: AgentNode,
): { readonly effect: string; readonly authorization: string } | undefined {
  if (node.type !== "tool") return undefined;
  const uses = node.config.usesTool;
  if (approved.derivedTools?.has(uses) === true) {
    const effect = approved.derivedTools.get(uses);
    if (effect !== undefined && !effectNeedsGate(effect)) return undefined;
    return { effect: effect ?? "unknown", authorization: "read from the process" };
  }
  const contract = contractOf(approved, node);
  if (contract === null || contract === undefined || !toolNeedsGate(contract)) return undefined;
  return { effect: contract.effect, authorization: contract.authorization };
}

const validators = new WeakMap<ToolContract, ValidateFunction>();

/** The contract's input validator, made once per contract (steps call tools many times). */
function inputValidator(contract: ToolContract): ValidateFunction {
  let validate = validators.get(contract);
  if (validate === undefined) {
    validate = shapeValidator(contract.inputSchema);
    validators.set(contract, validate);
  }
  return validate;
}

/** The tool call's arguments against the contract's input schema. */
export function toolInputFindings(
  approved: ApprovedWorkflow,
  node: AgentNode,
  step: StepEvent,
): CheckFinding[] {
  if (node.type !== "tool" || approved.derivedTools?.has(node.config.usesTool) === true) return [];
  const contract = contractOf(approved, node);
  if (contract === null || contract === undefined) {
    return [{ reason: "CONTRACT_UNRESOLVED", data: { node: node.id, tool: node.config.usesTool } }];
  }
  const name = `${contract.id}@${contract.version}`;
  // A failed call may have recorded nothing; a call that ran must show what it was sent.
  if (step.args === undefined) {
    return step.status === "ok"
      ? [{ reason: "ARGUMENTS_UNRECORDED", data: { node: node.id, contract: name } }]
      : [];
  }
  const validate = inputValidator(contract);
  if (validate(step.args)) return [];
  const first = validate.errors?.[0];
  const where =
    first?.instancePath === undefined || first.instancePath === "" ? "/" : first.instancePath;
  const problem = `${where} ${first?.message ?? "is not valid"}`;
  return [
    {
      class: "TOOL_INPUT_INVALID",
      data: { node: node.id, contract: name, problem },
    },
  ];
}

/** A tool reference's id part, as `gen_ai.tool.name` may give it. */
export function toolIdOf(usesTool: string): string {
  const ref = parseRef(usesTool);
  return ref.ok ? ref.ref.id : usesTool;
}
