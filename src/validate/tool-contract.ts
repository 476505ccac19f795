/**
 * Checks of a ToolContract document on its own (what `agentflow check` runs on a contract file):
 * its shapes must be usable types, and an effect that needs a gate must be authorised by one
 * (SPEC 2.5). The same codes as the workflow rules, so one doc page explains each.
 */
import type { Diagnostic, ToolContract } from "../model/index.js";
import { resolveShape } from "../model/index.js";

const GATED_EFFECTS = new Set(["write-irreversible", "external-commitment"]);

/**
 * Diagnostics of a parsed tool contract, in document order.
 *
 * @example
 * ```ts
 * import { parseToolContract } from "agentflow/model";
 * import { validateToolContract } from "agentflow/validate";
 *
 * const { contract } = parseToolContract({
 *   kind: "ToolContract",
 *   id: "tool:send-payment",
 *   version: "1.0.0",
 *   name: "Send payment",
 *   inputSchema: { amount: "number", to: "text" },
 *   outputSchema: { paymentId: "text" },
 *   effect: "external-commitment",
 *   authorization: "automatic",
 * });
 * if (contract === undefined) throw new Error("does not parse");
 * validateToolContract(contract).map((d) => `${d.code} ${d.path}`); // → ["TOOL_EFFECT_UNGATED /authorization"]
 * validateToolContract({ ...contract, authorization: "gate" }); // → []
 * ```
 */
export function validateToolContract(contract: ToolContract): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const shape = contract[key];
    if (Object.keys(shape).length === 0 && key === "inputSchema") continue; // a tool may take nothing
    for (const problem of resolveShape(shape, undefined, `/${key}`).problems) {
      out.push({
        code: "SCHEMA_TYPE_INVALID",
        severity: "error",
        message: `tool contract ${contract.id}: field at ${problem.path} has an unusable type (${problem.reason}): ${problem.message}`,
        target: { kind: "workflow" },
        path: problem.path,
        data: { tool: contract.id, reason: problem.reason, detail: problem.message },
      });
    }
  }
  if (GATED_EFFECTS.has(contract.effect) && contract.authorization !== "gate") {
    out.push({
      code: "TOOL_EFFECT_UNGATED",
      severity: "error",
      message: `tool contract ${contract.id} has effect "${contract.effect}" but authorization "${contract.authorization}"; this effect needs "gate"`,
      remediation: 'set authorization to "gate" so a person approves each call',
      target: { kind: "workflow" },
      path: "/authorization",
      data: { tool: contract.id, effect: contract.effect, authorization: contract.authorization },
    });
  }
  return out;
}
