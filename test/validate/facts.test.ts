/**
 * The shared facts of a validation: the decision conditions build their pointer when asked, and
 * give the route's label and text.
 */
import { describe, expect, it } from "vitest";
import { flowGraph } from "../../src/model/index.js";
import { createFacts } from "../../src/validate/facts.js";
import { resolveReferencesSync } from "../../src/validate/resolve.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { decision, edge, llm, workflow } from "./builders.js";

function conditionsOf(wf: AgentWorkflow): { label: string; text: string; path: string }[][] {
  const facts = createFacts(wf, flowGraph(wf), resolveReferencesSync(wf, {}));
  return facts
    .conditions()
    .map((list) => list.map(({ label, text, path }) => ({ label, text, path })));
}

describe("facts.conditions", () => {
  it("gives each condition its route label, text and JSON Pointer", () => {
    const multiway = {
      id: "m",
      type: "decision",
      config: {
        cases: [
          { condition: "output.a = 1", next: "end" },
          { condition: "output.b = 2", next: "a" },
        ],
        otherwise: { next: "end" },
      },
    } as const;
    const wf = workflow(
      [llm("a"), decision("d", "output.done = true", "end", "a"), multiway],
      [edge("a", "d")],
    );
    expect(conditionsOf(wf)).toEqual([
      [],
      [{ label: "onTrue", text: "output.done = true", path: "/nodes/1/config/condition" }],
      [
        { label: "cases/0", text: "output.a = 1", path: "/nodes/2/config/cases/0/condition" },
        { label: "cases/1", text: "output.b = 2", path: "/nodes/2/config/cases/1/condition" },
      ],
    ]);
  });
});
