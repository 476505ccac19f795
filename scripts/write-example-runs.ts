/**
 * Writes examples/runs/credit-risk.otlp.jsonl: two recorded runs of the example credit-risk
 * agent as the OpenTelemetry JS SDK exports them (OTLP/JSON, GenAI conventions) — the run the
 * registry approved, and one deployed with another model that also sends the bureau an argument
 * of the wrong type. `tsx scripts/write-example-runs.ts`; the README's conform demo reads it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { AgentWorkflow } from "../src/model/index.js";
import { simulate } from "../src/simulate/index.js";
import { otlpFromSimulation } from "../test/conform/export/otlp.js";

const wf = JSON.parse(
  readFileSync("examples/registry/credit-risk.agent.json", "utf8"),
) as AgentWorkflow;
const fixtures = {
  "pull-report": { outputs: [{ score: 640, delinquencies: 1, report: "partial" }] },
  "assess-risk": {
    outputs: [
      { riskBand: "medium", score: 640, is_complete: false },
      { riskBand: "medium", score: 655, is_complete: true },
    ],
  },
};
const drifted: AgentWorkflow = {
  ...wf,
  nodes: wf.nodes.map((n) => {
    if (n.id === "assess-risk" && n.type === "llm")
      return { ...n, config: { ...n.config, model: "gpt-5-mini" } };
    if (n.id === "pull-report" && n.type === "tool")
      return { ...n, config: { ...n.config, params: { applicantId: 40021 } } };
    return n;
  }),
};
const input = { applicantId: "A-40021", amount: 25000 };
const lines = [
  otlpFromSimulation(wf, simulate(wf, { input, fixtures }), {
    id: "loan-7311",
    startMs: Date.UTC(2026, 11, 1, 9),
  }),
  otlpFromSimulation(drifted, simulate(drifted, { input, fixtures }), {
    id: "loan-7312",
    startMs: Date.UTC(2026, 11, 1, 10),
  }),
];
writeFileSync("examples/runs/credit-risk.otlp.jsonl", lines.join(""));
