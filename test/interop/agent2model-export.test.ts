/** agent2model flowchart export: exact documents, declared losses, round trips, templates. */
import { describe, expect, it } from "vitest";
import {
  checkAgent2ModelInvariants,
  detectAgent2Model,
  exportAgent2Model,
  importAgent2Model,
} from "../../src/interop/agent2model/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate, listTemplates } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

const FIXTURES = ["travel_booking", "zoom_support", "insurance_claims"].map(
  (name) => `agent2model/${name}.flowchart.yaml`,
);

function template(id: string): AgentWorkflow {
  const wf = getTemplate(id);
  if (wf === undefined) throw new Error(`no template ${id}`);
  return wf;
}

/** A small flowchart, edited per case. */
function tiny(): Record<string, unknown> {
  return {
    name: "t",
    start: "a",
    nodes: {
      a: { role: "agent", prompt: "hi", next: "u" },
      u: { role: "user", prompt: "reply", next: ["d"] },
      d: {
        role: "decision",
        next: [
          { to: "a", when: "again" },
          { to: "ok", when: "done" },
        ],
      },
      ok: { terminal: "success" },
    },
  };
}

describe.each(FIXTURES)("%s", (path) => {
  const first = importAgent2Model(readFixture(path)).workflow;
  const { document, warnings } = exportAgent2Model(first);

  it("round trip import → export → import is deep-equal, declaring only autonomyLevel", () => {
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(detectAgent2Model(document)).toBe(true);
    expect(importAgent2Model(document).workflow).toStrictEqual(first);
  });

  it("satisfies the seed's five invariants and keeps scenario_variables", () => {
    expect(checkAgent2ModelInvariants(document)).toEqual([]);
    expect(document.scenario_variables).toEqual(
      (readFixture(path) as Record<string, unknown>).scenario_variables,
    );
  });
});

describe("exportAgent2Model: travel_booking field by field", () => {
  const source = readFixture(FIXTURES[0] ?? "") as { nodes: Record<string, { prompt?: string }> };
  const { document } = exportAgent2Model(importAgent2Model(source).workflow);
  const prompt = (id: string): string | undefined => source.nodes[id]?.prompt;

  it("writes name, description, start and every key in order, turns then terminals", () => {
    expect(document.name).toBe("travel_booking");
    expect(document.description).toBe("Help a customer plan and book a trip end to end.");
    expect(document.start).toBe("greet");
    expect(Object.keys(document.nodes)).toEqual([
      "greet",
      "gather_preferences",
      "assess_readiness",
      "present_options",
      "handle_response",
      "evaluate_response",
      "refine_options",
      "abandon_check",
      "book",
      "confirm",
      "escalate_to_human",
      "booking_confirmed",
      "abandoned",
      "escalated",
    ]);
  });

  it("agents keep their prompt; next is always a list of mappings", () => {
    expect(document.nodes.greet).toStrictEqual({
      role: "agent",
      prompt: prompt("greet"),
      next: [{ to: "gather_preferences" }],
    });
    expect(document.nodes.confirm).toStrictEqual({
      role: "agent",
      prompt: prompt("confirm"),
      next: [{ to: "booking_confirmed" }],
    });
  });

  it("a user turn is a user turn again, with its prompt and no invented when", () => {
    expect(document.nodes.handle_response).toStrictEqual({
      role: "user",
      prompt: prompt("handle_response"),
      next: [{ to: "evaluate_response" }],
    });
  });

  it("decisions write their text conditions as when, the fallback keeps its label", () => {
    expect(document.nodes.assess_readiness).toStrictEqual({
      role: "decision",
      next: [
        {
          to: "present_options",
          when: "user has provided destination, dates, budget, and group size",
        },
        { to: "gather_preferences", when: "one or more required details are still missing" },
      ],
    });
    expect(document.nodes.abandon_check).toStrictEqual({
      role: "decision",
      next: [
        { to: "gather_preferences", when: "the customer wants to keep going with changes" },
        { to: "escalate_to_human", when: "the customer is frustrated and wants a human" },
        // the fallback leads to a terminal: its label comes back from the exit the import kept
        { to: "abandoned", when: "the customer disengages or declines to continue" },
      ],
    });
  });

  it("terminals come back with their outcomes", () => {
    expect(document.nodes.booking_confirmed).toStrictEqual({ terminal: "success" });
    expect(document.nodes.abandoned).toStrictEqual({ terminal: "abandonment" });
    expect(document.nodes.escalated).toStrictEqual({ terminal: "escalation" });
  });
});

describe("exportAgent2Model: small flowcharts", () => {
  it("the three next spellings export in the one mapping spelling", () => {
    for (const next of ["u", ["u"], [{ to: "u" }]]) {
      const doc = tiny();
      (doc.nodes as Record<string, Record<string, unknown>>).a = {
        role: "agent",
        prompt: "hi",
        next,
      };
      const { document } = exportAgent2Model(importAgent2Model(doc).workflow);
      expect(document.nodes.a).toStrictEqual({ role: "agent", prompt: "hi", next: [{ to: "u" }] });
    }
  });

  it("writes the tiny flowchart back exactly", () => {
    const { document, warnings } = exportAgent2Model(importAgent2Model(tiny()).workflow);
    expect(document).toStrictEqual({
      name: "t",
      start: "a",
      nodes: {
        a: { role: "agent", prompt: "hi", next: [{ to: "u" }] },
        u: { role: "user", prompt: "reply", next: [{ to: "d" }] },
        d: {
          role: "decision",
          next: [
            { to: "a", when: "again" },
            { to: "ok", when: "done" },
          ],
        },
        ok: { terminal: "success" },
      },
    });
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
  });

  it("ids rewritten on import are written back as the original keys", () => {
    const doc = tiny();
    const nodes = doc.nodes as Record<string, unknown>;
    nodes["my step"] = { role: "agent", prompt: "x", next: "ok" };
    (nodes.d as { next: unknown[] }).next.unshift({ to: "my step", when: "go on" });
    const first = importAgent2Model(doc).workflow;
    expect(first.nodes.map((n) => n.id)).toContain("my-step");
    const { document } = exportAgent2Model(first);
    expect(Object.keys(document.nodes)).toContain("my step");
    expect(importAgent2Model(document).workflow).toStrictEqual(first);
  });

  it("a terminal no route reaches is still written", () => {
    const doc = tiny();
    (doc.nodes as Record<string, unknown>).lost = { terminal: "escalation" };
    const { document } = exportAgent2Model(importAgent2Model(doc).workflow);
    expect(document.nodes.lost).toStrictEqual({ terminal: "escalation" });
  });
});

describe.each(listTemplates().map((t) => t.id))("template %s", (id) => {
  const wf = template(id);
  const { document, warnings } = exportAgent2Model(wf);

  it("exports a flowchart that satisfies the invariants and re-imports node for node", () => {
    expect(detectAgent2Model(document)).toBe(true);
    expect(checkAgent2ModelInvariants(document)).toEqual([]);
    const back = importAgent2Model(document).workflow;
    expect(back.nodes.map((n) => [n.id, n.type === "tool" ? "llm" : n.type])).toEqual(
      wf.nodes.map((n) => [n.id, n.type === "tool" ? "llm" : n.type]),
    );
    expect(back.id).toBe(wf.id);
    expect(warnings.every((w) => ["NOT_EXPORTABLE", "HEURISTIC"].includes(w.code))).toBe(true);
    expect(codes(warnings)[0]).toEqual(["NOT_EXPORTABLE", "/autonomyLevel"]);
  });
});
