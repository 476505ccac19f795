import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ImportError } from "../../src/interop/index.js";
import { detectOpenAgentFlow, importOpenAgentFlow } from "../../src/interop/openagentflow/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import type { Obj } from "./helpers.js";
import { codes, readFixture } from "./helpers.js";

/** Writable view of the conditional-routing IR fixture. */
interface Ir extends Obj {
  workflow: Obj & { config: Obj };
  state: { variables: (Obj & { options: Obj[] })[] };
  agents: Obj[];
  graph: Obj & { edges: (Obj & { condition: Obj | null })[]; terminals: unknown[] };
}

function routing(edit: (doc: Ir) => void = () => undefined): Ir {
  const doc = readFixture("openagentflow/conditional_routing_ir.generated.json") as Ir;
  edit(doc);
  return doc;
}

function firstCondition(d: Ir): Obj & { left: Obj & { left: Obj; right: Obj } } {
  return d.graph.edges[0]?.condition as Obj & { left: Obj & { left: Obj; right: Obj } };
}

const ERRORS: [string, unknown, string, string | undefined][] = [
  ["not an object", [], "", undefined],
  ["another major version", routing((d) => (d.version = "1.0.0")), "/version", undefined],
  ["a version tag", routing((d) => (d.version = "latest")), "/version", undefined],
  ["no version", routing((d) => delete d.version), "/version", undefined],
  ["no agent", routing((d) => (d.agents = [])), "/agents", undefined],
  [
    'an agent with an empty model (null is the runtime default, "" is nothing)',
    routing((d) => (d.agents[0] = { ...d.agents[0], model: "" })),
    "/agents/0/model",
    "Reviewer",
  ],
  [
    "an agent without a model key",
    routing((d) => {
      if (d.agents[0] !== undefined) delete d.agents[0].model;
    }),
    "/agents/0/model",
    "Reviewer",
  ],
  [
    "a model that is not text",
    routing((d) => (d.agents[1] = { ...d.agents[1], model: 4 })),
    "/agents/1/model",
    "Fixer",
  ],
  [
    "a not with another operator",
    routing((d) => {
      const edge = d.graph.edges[0];
      if (edge !== undefined) {
        edge.condition = { type: "UnaryExpr", operator: "-", right: firstCondition(d) };
      }
    }),
    "/graph/edges/0/condition/operator",
    "Reviewer",
  ],
  [
    "a temperature string",
    routing((d) => (d.agents[1] = { ...d.agents[1], temperature: "hot" })),
    "/agents/1/temperature",
    "Fixer",
  ],
  [
    "a temperature the model refuses",
    routing((d) => (d.agents[1] = { ...d.agents[1], temperature: 5 })),
    "/agents/1/temperature",
    "Fixer",
  ],
  [
    "an agent id used twice",
    routing((d) => (d.agents[1] = { ...d.agents[1], id: "Reviewer" })),
    "/agents/1/id",
    "Reviewer",
  ],
  [
    "an unknown output variable",
    routing((d) => (d.agents[0] = { ...d.agents[0], outputs: ["nope"] })),
    "/agents/0/outputs/0",
    "Reviewer",
  ],
  [
    "an undocumented type",
    routing(
      (d) =>
        (d.state.variables[1] = {
          ...d.state.variables[1],
          type: "tuple<int>",
        } as Ir["state"]["variables"][0]),
    ),
    "/state/variables/1/type",
    "review_feedback",
  ],
  [
    "a map with bool keys",
    routing(
      (d) =>
        (d.state.variables[1] = {
          ...d.state.variables[1],
          type: "map<bool,int>",
        } as Ir["state"]["variables"][0]),
    ),
    "/state/variables/1/type",
    "review_feedback",
  ],
  [
    "an edge to no agent",
    routing((d) => (d.graph.edges[1] = { source: "Fixer", target: "Nobody", condition: null })),
    "/graph/edges/1/target",
    "Nobody",
  ],
  [
    "an unknown entrypoint",
    routing((d) => (d.graph.entrypoint = "Nobody")),
    "/graph/entrypoint",
    undefined,
  ],
  ["no terminal", routing((d) => (d.graph.terminals = [])), "/graph/terminals", undefined],
  [
    "a condition node type",
    routing((d) => (firstCondition(d).type = "CallExpr")),
    "/graph/edges/0/condition/type",
    "Reviewer",
  ],
  [
    "a condition operator",
    routing((d) => (firstCondition(d).left.operator = "=~")),
    "/graph/edges/0/condition/left/operator",
    "Reviewer",
  ],
  [
    "a condition on no variable",
    routing((d) => (firstCondition(d).left.left.name = "ghost")),
    "/graph/edges/0/condition/left/left/name",
    "Reviewer",
  ],
  [
    "an exponent literal",
    routing((d) => (firstCondition(d).left.right.value = 1e21)),
    "/graph/edges/0/condition/left/right/value",
    "Reviewer",
  ],
  [
    "max_iterations not positive",
    routing((d) => (d.workflow.config.max_iterations = -1)),
    "/workflow/config/max_iterations",
    undefined,
  ],
  // Several unconditional transitions, and ending while continuing, are imported (fan-outs and
  // the bounded loop): openagentflow-plain.test.ts.
];

describe("importOpenAgentFlow: fails loudly", () => {
  it.each(ERRORS)("%s", (_what, doc, path, elementId) => {
    let caught: unknown;
    try {
      importOpenAgentFlow(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect((caught as ImportError).format).toBe("openagentflow");
    expect((caught as ImportError).path).toBe(path);
    expect((caught as ImportError).elementId).toBe(elementId);
  });
});

describe("importOpenAgentFlow: declared warnings", () => {
  const cases: [string, Ir, [string, string][]][] = [
    ["an unknown top-level key", routing((d) => (d.extra = 1)), [["FIELD_DROPPED", "/extra"]]],
    [
      "an unknown config key",
      routing((d) => (d.workflow.config.retries = 2)),
      [["FIELD_DROPPED", "/workflow/config/retries"]],
    ],
    [
      "an agent id that is not a valid id",
      routing((d) => {
        d.agents[1] = { ...d.agents[1], id: "_fixer" };
        d.graph.edges[0] = { ...d.graph.edges[0], target: "_fixer" } as Ir["graph"]["edges"][0];
        d.graph.edges[1] = { ...d.graph.edges[1], source: "_fixer" } as Ir["graph"]["edges"][0];
      }),
      [["VALUE_NORMALIZED", "/agents/1/id"]],
    ],
    [
      "max_iterations with no loop to bound",
      routing((d) => {
        d.graph.edges = [];
        d.agents = [d.agents[0] ?? {}];
      }),
      [
        ["HEURISTIC", "/graph/terminals/0/condition"],
        ["FIELD_DROPPED", "/workflow/config/max_iterations"],
      ],
    ],
  ];
  const base = codes(importOpenAgentFlow(routing()).warnings);
  it.each(cases)("%s", (_what, doc, extra) => {
    const result = importOpenAgentFlow(doc);
    const got = codes(result.warnings).filter(
      (w) => !base.some((b) => b[0] === w[0] && b[1] === w[1]),
    );
    expect(got).toEqual(extra);
    expect(
      parseWorkflow(result.workflow).diagnostics.filter((d) => d.severity === "error"),
    ).toEqual([]);
  });

  it("a normalised agent id keeps the node id valid and the routes consistent", () => {
    const doc = routing((d) => {
      d.agents[1] = { ...d.agents[1], id: "_fixer" };
      d.graph.edges[0] = { ...d.graph.edges[0], target: "_fixer" } as Ir["graph"]["edges"][0];
      d.graph.edges[1] = { ...d.graph.edges[1], source: "_fixer" } as Ir["graph"]["edges"][0];
    });
    const { workflow } = importOpenAgentFlow(doc);
    expect(workflow.nodes.map((n) => n.id)).toEqual(["Reviewer", "Reviewer-route", "a-_fixer"]);
  });

  it("the seed's string terminals and map types import", () => {
    const doc = routing((d) => {
      d.graph.terminals = ["Reviewer"];
      d.graph.edges = [];
      d.workflow.config = {};
      d.state.variables[1] = {
        name: "review_feedback",
        type: "map<string,list<int>>",
        options: [],
      };
    });
    const { workflow, warnings } = importOpenAgentFlow(doc);
    expect(codes(warnings)).toEqual([
      ["HEURISTIC", "/workflow/config/version"],
      ["FIELD_DROPPED", "/state/variables/3/options/0"],
    ]);
    expect(workflow.outputSchema).toHaveProperty("review_feedback?", {
      type: "object",
      additionalProperties: { type: "array", items: { type: "integer" } },
    });
    expect(workflow.edges).toEqual([]);
  });

  it("a __proto__ variable stays a plain key", () => {
    const doc = routing((d) => {
      d.state.variables.push({ name: "__proto__", type: "string", options: [] });
    });
    const { workflow } = importOpenAgentFlow(doc);
    expect(Object.hasOwn(workflow.inputSchema, "__proto__?")).toBe(true);
    expect(({} as Obj).polluted).toBeUndefined();
  });
});

describe("never throws anything but an ImportError", () => {
  const check = (doc: unknown): void => {
    expect(typeof detectOpenAgentFlow(doc)).toBe("boolean");
    try {
      importOpenAgentFlow(doc);
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect(error).toMatchObject({ format: "openagentflow" });
    }
  };
  it("on any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 300 });
  });
  it("on the fixture with one value replaced", () => {
    const keys = [
      "graph",
      "edges",
      "terminals",
      "condition",
      "left",
      "agents",
      "state",
      "variables",
      "type",
      "name",
      "value",
      "__proto__",
    ];
    const token = fc.oneof(fc.nat({ max: 3 }), fc.constantFrom(...keys));
    fc.assert(
      fc.property(
        fc.array(token, { minLength: 1, maxLength: 5 }),
        fc.jsonValue({ maxDepth: 2 }),
        (tokens, value) => {
          const doc: unknown = routing();
          let current: unknown = doc;
          for (const t of tokens.slice(0, -1)) {
            if (typeof current !== "object" || current === null || !Object.hasOwn(current, t))
              return;
            current = (current as Obj)[String(t)];
          }
          const last = tokens.at(-1);
          if (typeof current !== "object" || current === null || last === undefined) return;
          Object.defineProperty(current, String(last), {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          check(doc);
        },
      ),
      { numRuns: 300 },
    );
  });
});
