/** agent2model flowchart import: exact fields per fixture, declared warnings, errors, invariants. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  agent2Model,
  checkAgent2ModelInvariants,
  detectAgent2Model,
  exportAgent2Model,
  importAgent2Model,
} from "../../src/interop/agent2model/index.js";
import { ImportError } from "../../src/interop/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { codes, readFixture } from "./helpers.js";

function chart(name: string): Record<string, unknown> {
  const url = new URL(`../fixtures/agent2model/${name}.flowchart.yaml`, import.meta.url);
  return parse(readFileSync(url, "utf8")) as Record<string, unknown>;
}

/** A small valid flowchart, edited per case. */
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

describe.each([
  ["travel_booking", 11, 13, 3],
  ["zoom_support", 12, 16, 3],
  ["insurance_claims", 51, 66, 3],
])("fixture %s", (name, nodes, edges, level) => {
  const doc = chart(name);
  const { workflow, warnings } = importAgent2Model(doc);
  it("imports to a parsing workflow at its justified level", () => {
    expect(parseWorkflow(workflow).diagnostics).toEqual([]);
    expect([workflow.nodes.length, workflow.edges.length, workflow.autonomyLevel]).toEqual([
      nodes,
      edges,
      level,
    ]);
    expect(workflow.nodes[0]?.id).toBe(doc.start);
  });
  it("is detected, satisfies the invariants, keeps scenario_variables", () => {
    expect(detectAgent2Model(doc)).toBe(true);
    expect(checkAgent2ModelInvariants(doc)).toEqual([]);
    const meta = workflow.metadata?.agent2model as Record<string, unknown>;
    expect(meta.scenario_variables).toEqual(doc.scenario_variables);
  });
  it("declares a HEURISTIC per agent, user, routing decision and terminal", () => {
    expect(warnings.every((w) => w.code === "HEURISTIC")).toBe(true);
  });
});

it("maps travel_booking node by node", () => {
  const { workflow, warnings } = importAgent2Model(chart("travel_booking"));
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  expect(byId.get("greet")).toEqual({
    id: "greet",
    type: "llm",
    name: "greet",
    config: { model: "agent2model:travel_booking", promptRef: "prm:travel_booking.greet@1.0.0" },
  });
  expect(byId.get("handle_response")?.config).toEqual({
    conditionLanguage: "text",
    condition: "the user has taken their turn",
    onTrue: { next: "evaluate_response" },
    onFalse: { next: "evaluate_response" },
  });
  expect(byId.get("abandon_check")?.config).toEqual({
    conditionLanguage: "text",
    cases: [
      { condition: "the customer wants to keep going with changes", next: "gather_preferences" },
      { condition: "the customer is frustrated and wants a human", next: "escalate_to_human" },
    ],
    otherwise: { next: "end" },
  });
  expect(byId.get("confirm")?.type).toBe("llm");
  expect(workflow.edges.filter((e) => e.from === "confirm")).toEqual([]);
  const meta = workflow.metadata?.agent2model as Record<string, unknown>;
  expect(meta.exits).toEqual([
    {
      from: "abandon_check",
      route: "otherwise",
      terminal: "abandoned",
      outcome: "abandonment",
      // the label of the edge to the terminal: the route to end has no place for it
      when: "the customer disengages or declines to continue",
    },
    { from: "confirm", terminal: "booking_confirmed", outcome: "success" },
    { from: "escalate_to_human", terminal: "escalated", outcome: "escalation" },
  ]);
  expect(codes(warnings)).toEqual([
    ["HEURISTIC", ""],
    ...["greet", "gather_preferences"].map((n) => ["HEURISTIC", `/nodes/${n}/prompt`]),
    ["HEURISTIC", "/nodes/assess_readiness/next"],
    ["HEURISTIC", "/nodes/present_options/prompt"],
    ["HEURISTIC", "/nodes/handle_response/role"],
    ["HEURISTIC", "/nodes/evaluate_response/next"],
    ["HEURISTIC", "/nodes/refine_options/prompt"],
    ["HEURISTIC", "/nodes/abandon_check/next"],
    ...["book", "confirm", "escalate_to_human"].map((n) => ["HEURISTIC", `/nodes/${n}/prompt`]),
    ...["booking_confirmed", "abandoned", "escalated"].map((n) => [
      "HEURISTIC",
      `/nodes/${n}/terminal`,
    ]),
  ]);
});

it("reads the three next spellings alike", () => {
  const spellings = ["u", ["u"], [{ to: "u" }]];
  const results = spellings.map((next) => {
    const doc = tiny();
    (doc.nodes as Record<string, Record<string, unknown>>).a = {
      role: "agent",
      prompt: "hi",
      next,
    };
    return importAgent2Model(doc).workflow;
  });
  expect(results[1]).toEqual(results[0]);
  expect(results[2]).toEqual(results[0]);
});

/** Sets the value at `tokens` in a decoded document, creating nothing; returns the document. */
function set(doc: unknown, tokens: readonly (string | number)[], value: unknown): unknown {
  let current = doc as Record<string | number, unknown>;
  for (const token of tokens.slice(0, -1))
    current = current[token] as Record<string | number, unknown>;
  const last = tokens[tokens.length - 1];
  if (last !== undefined) current[last] = value;
  return doc;
}

it.each([
  ["extra top-level key", [["owner", "x"]], [["FIELD_DROPPED", "/owner"]]],
  ["extra node key", [[["nodes", "a", "notes"], "x"]], [["FIELD_DROPPED", "/nodes/a/notes"]]],
  [
    "extra edge key",
    [[["nodes", "d", "next", 0, "weight"], 1]],
    [["FIELD_DROPPED", "/nodes/d/next/0/weight"]],
  ],
  ["decision prompt", [[["nodes", "d", "prompt"], "x"]], [["FIELD_DROPPED", "/nodes/d/prompt"]]],
  [
    "invalid node id",
    [
      [["nodes", "1st"], { role: "agent", prompt: "p", next: "ok" }],
      [["nodes", "d", "next", 1, "to"], "1st"],
    ],
    [["VALUE_NORMALIZED", "/nodes/1st"]],
  ],
] as const)("declares %s", (_label, edits, expected) => {
  const doc = tiny();
  for (const [at, value] of edits) set(doc, typeof at === "string" ? [at] : at, value);
  const { workflow, warnings } = importAgent2Model(doc);
  expect(codes(warnings).filter((w) => w[0] !== "HEURISTIC")).toEqual(expected);
  expect(parseWorkflow(workflow).diagnostics).toEqual([]);
});

it("renames invalid ids deterministically", () => {
  const doc = tiny();
  set(doc, ["nodes", "1st"], { role: "agent", prompt: "p", next: "ok" });
  set(doc, ["nodes", "d", "next", 1, "to"], "1st");
  set(doc, ["name"], "my flow");
  const { workflow } = importAgent2Model(doc);
  expect(workflow.id).toBe("my-flow");
  expect(workflow.nodes.map((n) => n.id)).toEqual(["a", "u", "d", "n1st"]);
});

it.each([
  ["not a mapping", () => 3, ""],
  ["no name", (d: Record<string, unknown>) => set(d, ["name"], ""), "/name"],
  ["nodes a list", (d: Record<string, unknown>) => set(d, ["nodes"], []), "/nodes"],
  [
    "unknown role",
    (d: Record<string, unknown>) => set(d, ["nodes", "a", "role"], "tool"),
    "/nodes/a/role",
  ],
  [
    "unknown outcome",
    (d: Record<string, unknown>) => set(d, ["nodes", "ok", "terminal"], "win"),
    "/nodes/ok/terminal",
  ],
  [
    "terminal with next",
    (d: Record<string, unknown>) => set(d, ["nodes", "ok", "next"], "a"),
    "/nodes/ok/next",
  ],
  ["start missing", (d: Record<string, unknown>) => set(d, ["start"], "zz"), "/start"],
  ["start terminal", (d: Record<string, unknown>) => set(d, ["start"], "ok"), "/start"],
  [
    "dangling edge",
    (d: Record<string, unknown>) => set(d, ["nodes", "a", "next"], "zz"),
    "/nodes/a/next",
  ],
  ["bad next", (d: Record<string, unknown>) => set(d, ["nodes", "a", "next"], 7), "/nodes/a/next"],
  [
    "edge without to",
    (d: Record<string, unknown>) => set(d, ["nodes", "d", "next", 0], { when: "x" }),
    "/nodes/d/next/0/to",
  ],
  [
    "agent no prompt",
    (d: Record<string, unknown>) => set(d, ["nodes", "a", "prompt"], undefined),
    "/nodes/a/prompt",
  ],
  [
    "decision no edge",
    (d: Record<string, unknown>) => set(d, ["nodes", "d", "next"], []),
    "/nodes/d/next",
  ],
  [
    "agent no edge (agent2model's invariant 3: only a terminal ends the run)",
    (d: Record<string, unknown>) => set(d, ["nodes", "a", "next"], undefined),
    "/nodes/a/next",
  ],
  [
    "agent with an empty next",
    (d: Record<string, unknown>) => set(d, ["nodes", "a", "next"], []),
    "/nodes/a/next",
  ],
])("fails loudly: %s", (_label, edit, path) => {
  const doc = tiny();
  const input = edit(doc);
  try {
    importAgent2Model(input);
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).format).toBe("agent2model");
    expect((error as ImportError).path).toBe(path);
  }
});

describe("several edges are a choice at every step (agent2model's traversal takes one)", () => {
  it("an agent with two edges: its llm node, then the decision that holds its choice", () => {
    const doc = tiny();
    set(doc, ["nodes", "a", "next"], ["u", "d"]);
    set(doc, ["nodes", "d", "next"], "ok");
    const { workflow, warnings } = importAgent2Model(doc);
    expect(workflow.nodes.slice(0, 2)).toEqual([
      {
        id: "a",
        type: "llm",
        name: "a",
        config: { model: "agent2model:t", promptRef: "prm:t.a@1.0.0" },
      },
      {
        id: "a.choice",
        type: "decision",
        config: {
          conditionLanguage: "text",
          condition: "continue to 'u'",
          onTrue: { next: "u" },
          onFalse: { next: "d" },
        },
      },
    ]);
    expect(workflow.edges.slice(0, 3)).toEqual([
      { from: "a", to: "a.choice", edgeType: "data" },
      { from: "a.choice", to: "u", edgeType: "data" },
      { from: "a.choice", to: "d", edgeType: "data" },
    ]);
    expect(workflow.autonomyLevel).toBe(3);
    const declared = warnings.find((w) => w.path === "/nodes/a/next");
    expect([declared?.code, declared?.data]).toEqual([
      "HEURISTIC",
      { nodeId: "a", decisionId: "a.choice" },
    ]);
    // folded back into the agent's edges by the export
    const { document } = exportAgent2Model(workflow);
    expect(document.nodes.a).toEqual({
      role: "agent",
      prompt: "hi",
      next: [{ to: "u" }, { to: "d" }],
    });
    expect(Object.keys(document.nodes)).toEqual(["a", "u", "d", "ok"]);
    expect(importAgent2Model(document).workflow).toStrictEqual(workflow);
  });

  it("an agent with a 'when' edge, or that ends and continues, chooses too", () => {
    const doc = tiny();
    set(doc, ["nodes", "a", "next"], [{ to: "ok", when: "the customer leaves" }, "u"]);
    const { workflow } = importAgent2Model(doc);
    expect(workflow.nodes[1]).toEqual({
      id: "a.choice",
      type: "decision",
      config: {
        conditionLanguage: "text",
        condition: "the customer leaves",
        onTrue: { next: "end" },
        onFalse: { next: "u" },
      },
    });
    const kept = workflow.metadata?.agent2model as { exits: unknown[] };
    expect(kept.exits).toContainEqual({
      from: "a.choice",
      route: "onTrue",
      terminal: "ok",
      outcome: "success",
      when: "the customer leaves",
    });
  });

  it("the choice id is allocated by the one mapper: a node already called a.choice keeps it", () => {
    const doc = tiny();
    set(doc, ["nodes", "a", "next"], ["u", "a.choice"]);
    set(doc, ["nodes", "a.choice"], { role: "agent", prompt: "x", next: "ok" });
    const { workflow } = importAgent2Model(doc);
    expect(workflow.nodes.map((n) => n.id)).toEqual(["a", "a.choice-2", "u", "d", "a.choice"]);
  });

  it("a decision or user turn with unlabelled edges among several: each is one of the choices", () => {
    const doc = tiny();
    set(doc, ["nodes", "d", "next"], ["a", "u", { to: "ok", when: "done" }]);
    const { workflow, warnings } = importAgent2Model(doc);
    expect(workflow.nodes.find((n) => n.id === "d")?.config).toEqual({
      conditionLanguage: "text",
      cases: [
        { condition: "continue to 'a'", next: "a" },
        { condition: "continue to 'u'", next: "u" },
      ],
      otherwise: { next: "end" },
    });
    expect(warnings.find((w) => w.path === "/nodes/d/next")?.data).toEqual({
      conditionLanguage: "text",
      unlabelled: ["a", "u"],
    });
    const back = exportAgent2Model(workflow).document;
    expect(back.nodes.d).toEqual({
      role: "decision",
      next: [{ to: "a" }, { to: "u" }, { to: "ok", when: "done" }],
    });
  });
});

it("detect is precise", () => {
  expect(detectAgent2Model(tiny())).toBe(true);
  expect(detectAgent2Model({ ...tiny(), kind: "AgentWorkflow" })).toBe(false);
  expect(detectAgent2Model(readFixture("agentflow/langgraph-subset-import-fixture.json"))).toBe(
    false,
  );
  expect(detectAgent2Model({ start: "a", nodes: { a: {} } })).toBe(false);
  expect(typeof agent2Model.export).toBe("function");
});

it("__proto__ keys stay data", () => {
  const doc = JSON.parse(
    '{"name":"p","start":"a","nodes":{"a":{"role":"agent","prompt":"x","next":"__proto__"},"__proto__":{"terminal":"success"}}}',
  ) as unknown;
  const { workflow } = importAgent2Model(doc);
  expect(({} as Record<string, unknown>).terminal).toBeUndefined();
  expect(workflow.nodes.map((n) => n.id)).toEqual(["a"]);
});

it("import and detect throw only ImportError", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      detectAgent2Model(value);
      try {
        importAgent2Model(value);
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
      }
    }),
  );
});

describe("a decision's label on an edge to a terminal is kept", () => {
  /** `check` decides between its edges; `t1`, `t2`, `t3` are terminals. */
  function labelled(next: unknown[]): Record<string, unknown> {
    return {
      name: "desk",
      start: "greet",
      nodes: {
        greet: { role: "agent", prompt: "Hello.", next: ["check"] },
        check: { role: "decision", next },
        help: { role: "agent", prompt: "Help.", next: ["t1"] },
        t1: { terminal: "success" },
        t2: { terminal: "abandonment" },
        t3: { terminal: "escalation" },
      },
    };
  }

  it.each<[string, unknown[], unknown[]]>([
    [
      "the onFalse of a binary decision",
      [
        { to: "help", when: "the customer needs help" },
        { to: "t2", when: "the customer leaves" },
      ],
      [
        {
          from: "check",
          route: "onFalse",
          terminal: "t2",
          outcome: "abandonment",
          when: "the customer leaves",
        },
      ],
    ],
    [
      "both routes of a binary decision",
      [
        { to: "t3", when: "the customer is angry" },
        { to: "t2", when: "the customer leaves" },
      ],
      [
        {
          from: "check",
          route: "onTrue",
          terminal: "t3",
          outcome: "escalation",
          when: "the customer is angry",
        },
        {
          from: "check",
          route: "onFalse",
          terminal: "t2",
          outcome: "abandonment",
          when: "the customer leaves",
        },
      ],
    ],
    [
      "the otherwise of a multi-way decision",
      [
        { to: "help", when: "the customer needs help" },
        { to: "t3", when: "the customer is angry" },
        { to: "t2", when: "the customer leaves" },
      ],
      [
        {
          from: "check",
          route: "cases/1",
          terminal: "t3",
          outcome: "escalation",
          when: "the customer is angry",
        },
        {
          from: "check",
          route: "otherwise",
          terminal: "t2",
          outcome: "abandonment",
          when: "the customer leaves",
        },
      ],
    ],
  ])("%s: in the exit kept for it, and written back by the export", (_what, next, exits) => {
    const doc = labelled(next);
    const { workflow } = importAgent2Model(doc);
    const meta = workflow.metadata?.agent2model as { exits: unknown[] };
    expect(meta.exits.filter((e) => (e as { from: string }).from === "check")).toEqual(exits);
    const exported = agent2Model.export?.(workflow);
    const nodes = exported?.document.nodes as Record<string, { next?: unknown }>;
    expect(nodes.check?.next).toEqual(next);
    expect(importAgent2Model(exported?.document).workflow).toStrictEqual(workflow);
  });

  it("an unlabelled edge to a terminal keeps no label and writes none back", () => {
    const next = [{ to: "help", when: "the customer needs help" }, { to: "t2" }];
    const { workflow } = importAgent2Model(labelled(next));
    const meta = workflow.metadata?.agent2model as { exits: Record<string, unknown>[] };
    expect(meta.exits.find((e) => e.from === "check")).toEqual({
      from: "check",
      route: "onFalse",
      terminal: "t2",
      outcome: "abandonment",
    });
    const nodes = agent2Model.export?.(workflow).document.nodes as Record<
      string,
      { next?: unknown }
    >;
    expect(nodes.check?.next).toEqual(next);
  });
});
