/**
 * Recorded runs of the example credit-risk agent (examples/registry), as the OpenTelemetry JS SDK
 * exports them: what the CLI tests of `conform` and `report --runs` read.
 */
import { readFileSync } from "node:fs";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { otlpFromSimulation } from "./otlp.js";

/** The approved credit-risk workflow: pull-report → assess-risk → report-complete (2 retries). */
export const creditRisk = JSON.parse(
  readFileSync(
    new URL("../../../examples/registry/credit-risk.agent.json", import.meta.url),
    "utf8",
  ),
) as AgentWorkflow;

const band = (complete: boolean) => ({ riskBand: "low", score: 700, is_complete: complete });

/**
 * One simulated run of `wf` (the credit-risk workflow or a variant of it) as an OTLP/JSON line:
 * `incomplete` assessments before the complete one, so the decision retries that many times.
 */
export function creditRiskRun(wf: AgentWorkflow, id: string, incomplete = 0): string {
  const outputs = [...Array.from({ length: incomplete }, () => band(false)), band(true)];
  const state = simulate(wf, {
    input: { applicantId: "A-1", amount: 1000 },
    fixtures: { "assess-risk": { outputs }, "double-check": { outputs: [band(true)] } },
  });
  return otlpFromSimulation(wf, state, { id, startMs: 1_700_000_000_000 });
}
