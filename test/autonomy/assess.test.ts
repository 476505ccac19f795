import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AUTONOMY_SCALE,
  assessAutonomy,
  gateRequirement,
  isAutonomyLevel,
  minCoherentLevel,
  requiresDownstreamGate,
} from "../../src/autonomy/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { getTemplate } from "../../src/model/index.js";
import { decision, edge, llm, minimal, tool, workflow } from "../validate/builders.js";

const fixture = (name: string): AgentWorkflow =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/agentflow/${name}`, import.meta.url), "utf8"),
  ) as AgentWorkflow;

describe("assessAutonomy", () => {
  const cases: readonly [string, AgentWorkflow, number, readonly unknown[]][] = [
    ["a loop-free chain", minimal(), 1, []],
    ["an empty workflow", workflow([], []), 1, []],
    [
      "a bounded loop",
      workflow(
        [llm("a"), decision("d", "output.done = true", "end", { next: "a", maxRetries: 2 })],
        [edge("a", "d")],
      ),
      2,
      [{ level: 2, feature: "loop", nodeIds: ["a", "d"], edgeIndexes: [] }],
    ],
    [
      "two end routes do not branch",
      workflow([llm("a"), decision("d", "output.done = true", "end", "end")], [edge("a", "d")]),
      1,
      [],
    ],
    [
      "a decision with two different forward routes branches",
      workflow(
        [llm("a"), decision("d", "output.ok = true", "b", "end"), llm("b")],
        [edge("a", "d")],
      ),
      3,
      [{ level: 3, feature: "branching-decision", nodeIds: ["d"], edgeIndexes: [] }],
    ],
    [
      "a retry plus an exit is a loop, not a branch",
      workflow(
        [
          llm("a"),
          tool("t"),
          decision("d", "output.done = true", "end", { next: "a", maxRetries: 1 }),
        ],
        [edge("a", "t"), edge("t", "d")],
      ),
      2,
      [{ level: 2, feature: "loop", nodeIds: ["a", "t", "d"], edgeIndexes: [] }],
    ],
    [
      "a delegate edge",
      workflow([llm("a")], [edge("a", "agnt-x@1.0.0", "delegate")]),
      4,
      [{ level: 4, feature: "delegation", nodeIds: ["a"], edgeIndexes: [0] }],
    ],
    [
      "a dynamic planner outranks everything, and every feature is listed",
      workflow(
        [
          llm("a", {}, { decorators: [{ type: "planner", strategy: "dynamic" }] }),
          decision("d", "output.ok = true", "b", { next: "a", maxRetries: 1 }),
          llm("b"),
        ],
        [edge("a", "d"), edge("a", "agnt-x@1.0.0", "delegate")],
      ),
      5,
      [
        { level: 5, feature: "dynamic-planner", nodeIds: ["a"], edgeIndexes: [] },
        { level: 4, feature: "delegation", nodeIds: ["a"], edgeIndexes: [1] },
        { level: 2, feature: "loop", nodeIds: ["a", "d"], edgeIndexes: [] },
      ],
    ],
    [
      "a static planner is not self-modifying",
      workflow([llm("a", {}, { decorators: [{ type: "planner", strategy: "static" }] })], []),
      1,
      [],
    ],
  ];
  it.each(cases)("%s → level %i", (_name, wf, level, reasons) => {
    expect(assessAutonomy(wf)).toEqual({ level, reasons });
    expect(minCoherentLevel(wf)).toBe(level);
  });

  it.each([
    ["approval-gate", 1],
    ["research", 2],
    ["document-review", 3],
  ] as const)("the %s template justifies exactly its declared level %i", (id, level) => {
    const wf = getTemplate(id);
    expect(wf?.autonomyLevel).toBe(level);
    expect(wf === undefined ? -1 : minCoherentLevel(wf)).toBe(level);
  });

  it("the seed fixtures: Handoff 12 justifies 4 (declares 2); the sandwich justifies 4", () => {
    const handoff = fixture("handoff12-spec-research-agent.json");
    expect(assessAutonomy(handoff).level).toBe(4);
    expect(handoff.autonomyLevel).toBe(2);
    expect(assessAutonomy(fixture("acid-test-sandwich-agent.json")).level).toBe(4);
  });
});

describe("minCoherentLevel", () => {
  it("is the assessment's level, also with unknown, repeated and end-only routes", () => {
    const wfs: AgentWorkflow[] = [
      minimal(),
      workflow([llm("a"), decision("d", "output.x = 1", "nowhere", "a")], [edge("a", "d")]),
      workflow(
        [llm("a"), decision("d", "output.x = 1", "nowhere", "b"), llm("b")],
        [edge("a", "d")],
      ),
      workflow([decision("d", "output.x = 1", "b", "b"), llm("b")], []),
      workflow([decision("d", "output.x = 1", "b", "c"), llm("b"), llm("c")], []),
      workflow([decision("d", "output.x = 1", "d", "end")], []),
      workflow([decision("d", "output.x = 1", "b", "end"), llm("b"), llm("b")], []),
      workflow([llm("a"), llm("b")], [edge("a", "b"), edge("b", "a")]),
      workflow([llm("a")], [{ from: "a", to: "agnt:other@1.0.0", edgeType: "delegate" }]),
      workflow([{ ...llm("a"), decorators: [{ type: "planner", strategy: "dynamic" }] }], []),
    ];
    const levels = wfs.map((wf) => minCoherentLevel(wf));
    expect(levels).toEqual(wfs.map((wf) => assessAutonomy(wf).level));
    expect(levels).toEqual([1, 2, 1, 1, 3, 2, 3, 2, 4, 5]);
  });
});

describe("the scale and gate requirements", () => {
  it("has six levels with the normative names and gates", () => {
    expect(AUTONOMY_SCALE.map((l) => [l.level, l.name, l.gate])).toEqual([
      [0, "Manual", "required"],
      [1, "Loop-free", "required"],
      [2, "Bounded Loop", "required"],
      [3, "Decision Tree", "required"],
      [4, "Multi-Agent", "optional"],
      [5, "Self-Modifying", "none"],
    ]);
  });
  it.each([
    [0, "required", true],
    [3, "required", true],
    [4, "optional", false],
    [5, "none", false],
  ] as const)("level %i: gate %s", (level, gate, required) => {
    expect(gateRequirement(level)).toBe(gate);
    expect(requiresDownstreamGate(level)).toBe(required);
  });
  it.each([
    [0, true],
    [5, true],
    [6, false],
    [-1, false],
    [1.5, false],
    ["2", false],
  ] as const)("isAutonomyLevel(%j) is %s", (value, expected) => {
    expect(isAutonomyLevel(value)).toBe(expected);
  });
});
