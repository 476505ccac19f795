/** The seed's five flowchart invariants as A2M_* diagnostics: one table row per invariant. */
import { describe, expect, it } from "vitest";
import { checkAgent2ModelInvariants } from "../../src/interop/agent2model/index.js";

const OK = {
  name: "t",
  start: "a",
  nodes: { a: { role: "agent", prompt: "p", next: "z" }, z: { terminal: "success" } },
};

function chart(nodes: Record<string, unknown>, start = "a"): unknown {
  return { name: "t", start, nodes };
}

describe("checkAgent2ModelInvariants", () => {
  it("is empty for a valid flowchart", () => {
    expect(checkAgent2ModelInvariants(OK)).toEqual([]);
  });

  it.each([
    [
      "1 start names a node",
      chart(OK.nodes, "nope"),
      [["A2M_START_MISSING", "/start", { kind: "workflow" }]],
    ],
    [
      "2 edge targets exist",
      chart({
        a: { role: "agent", prompt: "p", next: ["z", "ghost"] },
        z: { terminal: "success" },
      }),
      [["A2M_EDGE_TARGET_MISSING", "/nodes/a/next/1", { kind: "node", nodeId: "a" }]],
    ],
    [
      "3 non-terminals have an edge",
      chart({
        a: { role: "agent", prompt: "p", next: ["z", "b"] },
        b: { role: "decision" },
        z: { terminal: "success" },
      }),
      [
        ["A2M_NO_OUTGOING_EDGE", "/nodes/b", { kind: "node", nodeId: "b" }],
        ["A2M_DEAD_END_TRAP", "/nodes/b", { kind: "node", nodeId: "b" }],
      ],
    ],
    [
      "4 terminals are reachable",
      chart({
        a: { role: "agent", prompt: "p", next: "z" },
        z: { terminal: "success" },
        y: { terminal: "escalation" },
      }),
      [["A2M_TERMINAL_UNREACHABLE", "/nodes/y", { kind: "node", nodeId: "y" }]],
    ],
    [
      "5 no dead-end trap",
      chart({
        a: {
          role: "decision",
          next: [
            { to: "z", when: "x" },
            { to: "l", when: "y" },
          ],
        },
        l: { role: "agent", prompt: "p", next: "m" },
        m: { role: "user", prompt: "p", next: "l" },
        z: { terminal: "success" },
      }),
      [
        ["A2M_DEAD_END_TRAP", "/nodes/l", { kind: "node", nodeId: "l" }],
        ["A2M_DEAD_END_TRAP", "/nodes/m", { kind: "node", nodeId: "m" }],
      ],
    ],
    ["malformed", { start: "a", nodes: [] }, [["A2M_MALFORMED", "/name", { kind: "workflow" }]]],
  ])("invariant %s", (_label, doc, expected) => {
    const found = checkAgent2ModelInvariants(doc);
    expect(found.map((d) => [d.code, d.path, d.target])).toEqual(expected);
    expect(found.every((d) => d.severity === "error" && d.message.length > 0)).toBe(true);
  });

  it("a cycle with an escape edge is no trap", () => {
    const doc = chart({
      a: { role: "agent", prompt: "p", next: "d" },
      d: {
        role: "decision",
        next: [
          { to: "a", when: "again" },
          { to: "z", when: "done" },
        ],
      },
      z: { terminal: "abandonment" },
    });
    expect(checkAgent2ModelInvariants(doc)).toEqual([]);
  });
});
