/**
 * One fixed simulation shared by the determinism tests and by print-run.ts, which runs it in a
 * second Node process: both sides must compute exactly this run.
 */
import { getTemplate } from "../../src/model/index.js";
import type { SimulationState } from "../../src/simulate/index.js";
import { simulate } from "../../src/simulate/index.js";

/** The Research template through a failure, a retry, a memory record and a cost model. */
export function scenario(): SimulationState {
  const wf = getTemplate("research");
  if (wf === undefined) throw new Error("no research template");
  return simulate(wf, {
    fixtures: {
      "llm-1": { outputs: [{ query: "q1" }, { query: "q2" }], fails: 1 },
      "tool-2": {
        outputs: [
          { answer: "draft", sources: ["a"], is_complete: false },
          { answer: "final", sources: ["a", "b"], is_complete: true },
        ],
      },
    },
    input: { query: "agent governance" },
    costModel: { perNode: (node) => (node.type === "llm" ? { cost: { USD: 0.1 } } : undefined) },
  });
}
