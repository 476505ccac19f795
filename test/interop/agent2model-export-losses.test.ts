/** agent2model flowchart export: what has no flowchart form is declared, with its pointer. */
import { describe, expect, it } from "vitest";
import {
  checkAgent2ModelInvariants,
  exportAgent2Model,
  importAgent2Model,
} from "../../src/interop/agent2model/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

/** A parsed workflow from a literal, so that a test states only what it is about. */
function workflow(extra: Partial<AgentWorkflow>): AgentWorkflow {
  const parsed = parseWorkflow({
    kind: "AgentWorkflow",
    id: "w",
    version: "1.0.0",
    name: "w",
    autonomyLevel: 1,
    inputSchema: { scenario: "any" },
    outputSchema: { outcome: "text" },
    nodes: [],
    edges: [],
    ...extra,
  });
  if (parsed.workflow === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.workflow;
}

describe("exportAgent2Model: declared losses", () => {
  it("a workflow of its own: every construct without a flowchart form, with its pointer", () => {
    const wf = workflow({
      id: "agnt-x",
      name: "X agent",
      version: "2.0.0",
      inputSchema: { q: "text" },
      budget: { maxSteps: 3 },
      metadata: { owner: "me" },
      nodes: [
        {
          id: "l",
          type: "llm",
          config: { model: "gpt-4o", promptRef: "prm:x@1.0.0", temperature: 0 },
          decorators: [{ type: "memory", scope: "short" }],
        },
        {
          id: "d",
          type: "decision",
          config: {
            condition: "output.ok = true",
            onTrue: { next: "end" },
            onFalse: { next: "l", maxRetries: 2 },
          },
        },
      ],
      edges: [
        { from: "l", to: "d", edgeType: "toolCall", when: "checked" },
        { from: "l", to: "agnt-y@1.0.0", edgeType: "delegate" },
      ],
    });
    const { document, warnings } = exportAgent2Model(wf);
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/version"],
      ["NOT_EXPORTABLE", "/inputSchema"],
      ["NOT_EXPORTABLE", "/budget"],
      ["NOT_EXPORTABLE", "/edges/1"],
      ["NOT_EXPORTABLE", "/name"],
      ["NOT_EXPORTABLE", "/metadata/owner"],
      ["NOT_EXPORTABLE", "/nodes/0/decorators"],
      ["NOT_EXPORTABLE", "/nodes/0/config/model"],
      ["NOT_EXPORTABLE", "/nodes/0/config/promptRef"],
      ["NOT_EXPORTABLE", "/nodes/0/config/temperature"],
      ["NOT_EXPORTABLE", "/edges/0/when"],
      ["NOT_EXPORTABLE", "/edges/0/edgeType"],
      ["NOT_EXPORTABLE", "/nodes/1/config/conditionLanguage"],
      ["NOT_EXPORTABLE", "/nodes/1/config/onFalse/maxRetries"],
      ["HEURISTIC", "/nodes/1/config/onTrue"],
    ]);
    expect(document).toStrictEqual({
      name: "agnt-x",
      start: "l",
      nodes: {
        l: { role: "agent", prompt: "Follow prompt prm:x@1.0.0.", next: [{ to: "d" }] },
        d: {
          role: "decision",
          next: [{ to: "end", when: "output.ok = true" }, { to: "l" }],
        },
        end: { terminal: "success" },
      },
    });
    expect(checkAgent2ModelInvariants(document)).toEqual([]);
  });

  it("a tool node is an agent turn naming its tool, declared at its type and config", () => {
    const wf = workflow({
      nodes: [{ id: "t", type: "tool", config: { usesTool: "tool:search@1.0.0" } }],
    });
    const { document, warnings } = exportAgent2Model(wf);
    expect(document.nodes.t).toStrictEqual({
      role: "agent",
      prompt: "Call the tool tool:search@1.0.0.",
      next: [{ to: "end" }],
    });
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["NOT_EXPORTABLE", "/nodes/0/type"],
      ["NOT_EXPORTABLE", "/nodes/0/config"],
      ["HEURISTIC", "/nodes/0"],
    ]);
    expect(importAgent2Model(document).workflow.nodes[0]?.type).toBe("llm");
  });

  it("names the importer would not map back to the ids fall back to the ids, declared", () => {
    const wf = workflow({
      nodes: [
        {
          id: "a",
          type: "llm",
          name: "same",
          config: { model: "agent2model:w", promptRef: "prm:w.a@1.0.0" },
        },
        {
          id: "b",
          type: "llm",
          name: "same",
          config: { model: "agent2model:w", promptRef: "prm:w.b@1.0.0" },
        },
      ],
      edges: [{ from: "a", to: "b", edgeType: "data" }],
    });
    const { document, warnings } = exportAgent2Model(wf);
    expect(Object.keys(document.nodes)).toEqual(["a", "b", "end"]);
    expect(codes(warnings).slice(1, 3)).toEqual([
      ["NOT_EXPORTABLE", "/nodes/0/name"],
      ["NOT_EXPORTABLE", "/nodes/1/name"],
    ]);
  });

  it("a decision edge the routes do not rebuild is declared", () => {
    const wf = workflow({
      nodes: [
        { id: "a", type: "llm", config: { model: "agent2model:w", promptRef: "prm:w.a@1.0.0" } },
        {
          id: "d",
          type: "decision",
          config: {
            conditionLanguage: "text",
            condition: "more?",
            onTrue: { next: "a" },
            onFalse: { next: "end" },
          },
        },
      ],
      edges: [
        { from: "a", to: "d", edgeType: "data" },
        { from: "d", to: "a", edgeType: "data", when: "loop" },
      ],
    });
    const { document, warnings } = exportAgent2Model(wf);
    expect(document.nodes.d).toStrictEqual({
      role: "decision",
      next: [{ to: "a", when: "more?" }, { to: "end" }],
    });
    expect(codes(warnings)).toEqual([
      ["NOT_EXPORTABLE", "/autonomyLevel"],
      ["HEURISTIC", "/nodes/1/config/onFalse"],
      ["NOT_EXPORTABLE", "/edges/1"],
    ]);
  });

  it("kept metadata that is not in the importer's shape is declared, never trusted", () => {
    const first = importAgent2Model(
      readFixture("agent2model/travel_booking.flowchart.yaml"),
    ).workflow;
    const wf = {
      ...first,
      metadata: { agent2model: { nodes: "x", exits: [1], terminals: [], extra: true } },
    };
    const { document, warnings } = exportAgent2Model(wf);
    expect(codes(warnings).filter(([, p]) => p.startsWith("/metadata"))).toEqual([
      ["NOT_EXPORTABLE", "/metadata/agent2model/extra"],
      ["NOT_EXPORTABLE", "/metadata/agent2model/nodes"],
      ["NOT_EXPORTABLE", "/metadata/agent2model/exits/0"],
    ]);
    // Without its kept role and prompt, the user turn is written as the decision it is.
    expect(document.nodes.handle_response).toStrictEqual({
      role: "decision",
      next: [{ to: "evaluate_response", when: "the user has taken their turn" }],
    });
  });
});
