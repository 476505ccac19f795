/**
 * A feature raises the justified level only where a run reaches it: levels 4 and 5 need less of a
 * gate than 0-3, so a feature that never runs would drop the gate the running graph needs.
 */
import { describe, expect, it } from "vitest";
import type { AutonomyReason } from "../../src/autonomy/index.js";
import { assessAutonomy, minCoherentLevel } from "../../src/autonomy/index.js";
import type { AgentEdge, AgentNode, AgentWorkflow } from "../../src/model/index.js";
import { decision, edge, llm, tool, workflow } from "../validate/builders.js";

const DYNAMIC = { decorators: [{ type: "planner", strategy: "dynamic" }] } as const;
const delegate = (from: string): AgentEdge => edge(from, "agnt-helper@1.0.0", "delegate");

/** The repro's bounded loop: think → look → done, which retries think or ends (level 2). */
const LOOP: readonly AgentNode[] = [
  llm("think"),
  tool("look"),
  decision("done", "output.done = true", "end", { next: "think", maxRetries: 3 }),
];
const LOOP_EDGES: readonly AgentEdge[] = [edge("think", "look"), edge("look", "done")];
const LOOP_REASON: AutonomyReason = {
  level: 2,
  feature: "loop",
  nodeIds: ["think", "look", "done"],
  edgeIndexes: [],
};
const loopWith = (nodes: readonly AgentNode[], edges: readonly AgentEdge[]): AgentWorkflow =>
  workflow([...LOOP, ...nodes], [...LOOP_EDGES, ...edges]);

describe("a feature no run reaches does not count", () => {
  const cases: readonly [string, AgentWorkflow, number, readonly AutonomyReason[]][] = [
    [
      "a delegate edge from a node no path reaches",
      loopWith([llm("orphan")], [delegate("orphan")]),
      2,
      [LOOP_REASON],
    ],
    [
      "a delegate edge from a reachable decision: its edges carry no flow",
      loopWith([], [delegate("done")]),
      2,
      [LOOP_REASON],
    ],
    ["a delegate edge from an id no node has", loopWith([], [delegate("ghost")]), 2, [LOOP_REASON]],
    [
      "a dynamic planner on a node no path reaches",
      loopWith([llm("orphan", {}, DYNAMIC)], []),
      2,
      [LOOP_REASON],
    ],
    [
      "a dynamic planner on a repeated id, which edges and routes never bind to",
      workflow([llm("a"), llm("a", {}, DYNAMIC)], []),
      1,
      [],
    ],
    [
      "a branching decision no path reaches",
      workflow([llm("a"), decision("d", "output.ok = true", "b", "end"), llm("b")], []),
      1,
      [],
    ],
    [
      "a loop no path reaches (a later source component)",
      workflow([llm("a"), llm("b"), tool("c")], [edge("b", "c"), edge("c", "b")]),
      1,
      [],
    ],
    [
      "every feature, all of them on the unreachable part",
      loopWith(
        [
          llm("p", {}, DYNAMIC),
          decision("q", "output.ok = true", "r", { next: "p", maxRetries: 1 }),
          llm("r"),
        ],
        [edge("p", "q"), delegate("p"), delegate("r")],
      ),
      2,
      [LOOP_REASON],
    ],
  ];
  it.each(cases)("%s", (_name, wf, level, reasons) => {
    expect(assessAutonomy(wf)).toEqual({ level, reasons });
    expect(minCoherentLevel(wf)).toBe(level);
  });
});

describe("the same feature counts once a run reaches it", () => {
  // Each row: the feature's node made reachable by one edge or route; the level rises again.
  const cases: readonly [string, AgentWorkflow, AgentWorkflow, number, number][] = [
    [
      "delegation: orphan joined after look",
      loopWith([llm("orphan")], [delegate("orphan")]),
      loopWith([llm("orphan")], [delegate("orphan"), edge("look", "orphan")]),
      2,
      4,
    ],
    [
      "dynamic planner: orphan joined after think",
      loopWith([llm("orphan", {}, DYNAMIC)], []),
      loopWith([llm("orphan", {}, DYNAMIC)], [edge("think", "orphan")]),
      2,
      5,
    ],
    [
      "branching decision: d joined after a",
      workflow([llm("a"), decision("d", "output.ok = true", "b", "end"), llm("b")], []),
      workflow(
        [llm("a"), decision("d", "output.ok = true", "b", "end"), llm("b")],
        [edge("a", "d")],
      ),
      1,
      3,
    ],
    [
      "loop: b joined after a",
      workflow([llm("a"), llm("b"), tool("c")], [edge("b", "c"), edge("c", "b")]),
      workflow([llm("a"), llm("b"), tool("c")], [edge("b", "c"), edge("c", "b"), edge("a", "b")]),
      1,
      2,
    ],
  ];
  it.each(cases)("%s", (_name, apart, reached, levelApart, levelReached) => {
    expect([minCoherentLevel(apart), minCoherentLevel(reached)]).toEqual([
      levelApart,
      levelReached,
    ]);
    expect([assessAutonomy(apart).level, assessAutonomy(reached).level]).toEqual([
      levelApart,
      levelReached,
    ]);
  });
});

describe("the entry", () => {
  const cases: readonly [string, AgentWorkflow, number][] = [
    // No nodes, no entry: nothing runs, so nothing raises the level.
    ["an empty workflow", workflow([], [delegate("a")]), 1],
    // A loop entered from a later node is not a source: that node is the entry, so the loop
    // and the delegation it carries count; the planner on the next source, z, never runs.
    [
      "a loop entered from a node later in the document, and a second source",
      workflow(
        [llm("b"), tool("c"), llm("a"), llm("z", {}, DYNAMIC)],
        [edge("b", "c"), edge("c", "b"), edge("a", "b"), delegate("c")],
      ),
      4,
    ],
  ];
  it.each(cases)("%s", (_name, wf, level) => {
    expect(minCoherentLevel(wf)).toBe(level);
    expect(assessAutonomy(wf).level).toBe(level);
  });
});
