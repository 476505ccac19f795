/**
 * A decision's target that AgentOS skips on a route where agentflow runs it
 * (`src/interop/agentos/route-skips.ts`). AgentOS 0.9.164 marks skipped every target a router
 * does not pick and never runs a node so marked, even when its other predecessors are done
 * later; agentflow runs a node on every path a run takes. So when the route taken reaches
 * another target of its decision, or a branch that does not pass the decision joins into one,
 * the export declares it at that route. Each declared case is run in AgentOS's own
 * `GraphRuntime` (its `NodeExecutor` for the routers), as the runtime tests do.
 */
import { describe, expect, it } from "vitest";
import { exportAgentOs } from "../../src/interop/agentos/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import { startedInAgentOs } from "./agentos-run.js";

type Obj = Record<string, unknown>;

const llm = (id: string): Obj => ({
  id,
  type: "llm",
  config: { model: "m", promptRef: "prm:p@1.0.0" },
});
/** A person's approval: AgentOS's `human` node. */
const review = (id: string): Obj => ({
  id,
  type: "tool",
  config: { usesTool: "tool:agentos.human@1.0.0", params: { prompt: "Approve?" } },
});
/** `onTrue` when the last output has `k = 1`. */
const binary = (id: string, onTrue: string, onFalse: string): Obj => ({
  id,
  type: "decision",
  config: { condition: "output.k = 1", onTrue: { next: onTrue }, onFalse: { next: onFalse } },
});
/** `a` for `k = 0`, `b` for `k = 1`, else `other`. */
const threeWay = (id: string, a: string, b: string, other: string): Obj => ({
  id,
  type: "decision",
  config: {
    cases: [
      { condition: "output.k = 0", next: a },
      { condition: "output.k = 1", next: b },
    ],
    otherwise: { next: other },
  },
});

function workflow(
  nodes: readonly Obj[],
  edges: readonly (readonly [string, string])[],
): AgentWorkflow {
  const parsed = parseWorkflow({
    kind: "AgentWorkflow",
    id: "wf",
    version: "1.0.0",
    name: "wf",
    autonomyLevel: 3,
    inputSchema: {},
    outputSchema: {},
    nodes,
    edges: edges.map(([from, to]) => ({ from, to, edgeType: "data" })),
  });
  if (parsed.workflow === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.workflow;
}

/** The declared skips of an export: code, path and data. */
function declared(wf: AgentWorkflow): [string, string, unknown][] {
  return exportAgentOs(wf)
    .warnings.filter((w) => w.data?.skipped !== undefined)
    .map((w) => [w.code, w.path, w.data]);
}

type Row = [string, Obj[], [string, string][], [string, Obj][]];

const d = (data: Obj): Obj => ({ nodeId: "d", ...data });

const DECLARED: Row[] = [
  [
    "the route taken reaches the other target, a review",
    [llm("s"), binary("d", "a", "t"), llm("a"), review("t")],
    [
      ["s", "d"],
      ["a", "t"],
    ],
    [["/nodes/1/config/onTrue", d({ next: "a", skipped: "t", after: "a", reachedFrom: "a" })]],
  ],
  [
    "the route taken reaches it further on",
    [llm("s"), binary("d", "a", "t"), llm("a"), llm("b"), review("t")],
    [
      ["s", "d"],
      ["a", "b"],
      ["b", "t"],
    ],
    [["/nodes/1/config/onTrue", d({ next: "a", skipped: "t", after: "b", reachedFrom: "a" })]],
  ],
  [
    "a branch that does not pass the decision joins into the target",
    [llm("s"), binary("d", "a", "t"), llm("a"), llm("x"), review("t")],
    [
      ["s", "d"],
      ["s", "x"],
      ["x", "t"],
    ],
    [["/nodes/1/config/onTrue", d({ next: "a", skipped: "t", after: "x", reachedFrom: "s" })]],
  ],
  [
    "the node before the decision also leads to the target",
    [llm("s"), binary("d", "a", "t"), llm("a"), review("t")],
    [
      ["s", "d"],
      ["s", "t"],
    ],
    [["/nodes/1/config/onTrue", d({ next: "a", skipped: "t", after: "s", reachedFrom: "s" })]],
  ],
  [
    "a route to the end skips the target too",
    [llm("s"), binary("d", "t", "end"), review("t")],
    [
      ["s", "d"],
      ["s", "t"],
    ],
    [["/nodes/1/config/onFalse", d({ next: "end", skipped: "t", after: "s", reachedFrom: "s" })]],
  ],
  [
    "route by route: only the route whose path reaches the target",
    [llm("s"), threeWay("d", "a", "b", "u"), llm("a"), llm("b"), review("u")],
    [
      ["s", "d"],
      ["b", "u"],
    ],
    [["/nodes/1/config/cases/1", d({ next: "b", skipped: "u", after: "b", reachedFrom: "b" })]],
  ],
  [
    "each route that reaches another target, the first in document order named",
    [llm("s"), threeWay("d", "a", "b", "u"), llm("a"), llm("b"), review("u")],
    [
      ["s", "d"],
      ["a", "b"],
      ["b", "u"],
    ],
    [
      ["/nodes/1/config/cases/0", d({ next: "a", skipped: "b", after: "a", reachedFrom: "a" })],
      ["/nodes/1/config/cases/1", d({ next: "b", skipped: "u", after: "b", reachedFrom: "b" })],
    ],
  ],
];

describe("a decision's target AgentOS skips on a route where agentflow runs it", () => {
  it.each(DECLARED)("is declared at the route: %s", (_label, nodes, edges, expected) => {
    const wf = workflow(nodes, edges);
    expect(declared(wf)).toEqual(expected.map(([path, data]) => ["NOT_EXPORTABLE", path, data]));
  });

  it("words the route's own path and a joining branch in the one message", () => {
    const [along, joined] = [DECLARED[0], DECLARED[2]].map((row) => {
      if (row === undefined) throw new Error("no such row");
      const wf = workflow(row[1], row[2]);
      return exportAgentOs(wf).warnings.find((w) => w.data?.skipped !== undefined)?.message;
    });
    expect(along).toBe(
      "decision 'd': when it routes to 'a', AgentOS marks skipped each target it does not pick, 't' among them, and never runs a node marked skipped, even once its other predecessors are done; agentflow runs 't' on that route right after 'a'",
    );
    expect(joined).toBe(
      "decision 'd': when it routes to 'a', AgentOS marks skipped each target it does not pick, 't' among them, and never runs a node marked skipped, even once its other predecessors are done; agentflow runs 't' on that route after 'x' whenever a run reaches 'x' on a path that does not pass 'd' (from the entry 's')",
    );
  });

  // Each left workflow declares nothing; its twin, one path added, declares the route.
  it.each<[string, Obj[], [string, string][], [string, string][], string]>([
    [
      "a target reached only through its own route",
      [llm("s"), binary("d", "a", "t"), llm("a"), review("t")],
      [["s", "d"]],
      [["a", "t"]],
      "/nodes/1/config/onTrue",
    ],
    [
      "targets whose paths join after them",
      [llm("s"), binary("d", "a", "t"), llm("a"), review("t"), llm("z")],
      [
        ["s", "d"],
        ["a", "z"],
        ["t", "z"],
      ],
      [["s", "t"]],
      "/nodes/1/config/onTrue",
    ],
    [
      "a target reached from a route's own target only through that route",
      [llm("s"), threeWay("d", "a", "b", "u"), llm("a"), llm("b"), review("u")],
      [
        ["s", "d"],
        ["b", "u"],
      ],
      [["a", "u"]],
      "/nodes/1/config/cases/0",
    ],
  ])(
    "declares nothing for %s, and the route once a path joins in",
    (_l, nodes, edges, join, at) => {
      expect(declared(workflow(nodes, edges)).filter(([, path]) => path === at)).toEqual([]);
      const twin = declared(workflow(nodes, [...edges, ...join]));
      expect(twin.filter(([, path]) => path === at)).toHaveLength(1);
    },
  );

  it("declares nothing for a decision on a loop, which AgentOS never starts (declared as the loop)", () => {
    const looped = workflow(
      [llm("s"), binary("d", "t", "s"), review("t")],
      [
        ["s", "d"],
        ["s", "t"],
      ],
    );
    const { warnings } = exportAgentOs(looped);
    expect(
      warnings.filter((w) => w.path.startsWith("/nodes/1/config/on")).map((w) => w.path),
    ).toEqual(["/nodes/1/config/onFalse"]);
    expect(warnings.find((w) => w.path === "/nodes/1/config/onFalse")?.message).toContain(
      "closes a cycle",
    );
    // the same shape without its retry is declared
    const straight = workflow(
      [llm("s"), binary("d", "t", "end"), review("t")],
      [
        ["s", "d"],
        ["s", "t"],
      ],
    );
    expect(declared(straight).map(([, path]) => path)).toEqual(["/nodes/1/config/onFalse"]);
  });
});

/** The non-router nodes AgentOS starts, in order, running the export as a file carries it. */
async function runInAgentOs(wf: AgentWorkflow, k: number): Promise<string[]> {
  const run = await startedInAgentOs(exportAgentOs(wf).document, () => ({ output: { k } }));
  return run.started.filter((id) => !run.routers.has(id));
}

/** The nodes agentflow's simulation moves through when every node outputs `{ k }`. */
function simulated(wf: AgentWorkflow, k: number): string[] {
  const fixtures = Object.fromEntries(wf.nodes.map((n) => [n.id, { outputs: [{ k }] }]));
  return simulate(wf, { fixtures })
    .trail.filter((r) => r.type === "move")
    .map((r) => r.nodeId ?? "");
}

describe("what the declared route runs in AgentOS's GraphRuntime", () => {
  // [row of DECLARED, k taking the declared route, AgentOS's run there, k taking the other
  // route, AgentOS's run there]
  it.each<[number, number, string[], number, string[]]>([
    [0, 1, ["s", "a"], 0, ["s", "t"]],
    // 'b' runs on the other route too: AgentOS skips 'a' only (declared as a route not taken)
    [1, 1, ["s", "a", "b"], 0, ["s", "b", "t"]],
    [2, 1, ["s", "x", "a"], 0, ["s", "x", "t"]],
    [3, 1, ["s", "a"], 0, ["s", "t"]],
    [4, 0, ["s"], 1, ["s", "t"]],
    [5, 1, ["s", "b"], 0, ["s", "a"]],
  ])(
    "row %i: never runs the target it declares skipped, after the node agentflow runs it after",
    async (row, k, run, otherK, otherRun) => {
      const spec = DECLARED[row];
      if (spec === undefined) throw new Error(`no row ${String(row)}`);
      const wf = workflow(spec[1], spec[2]);
      const skip = exportAgentOs(wf).warnings.find((w) => w.data?.skipped !== undefined)?.data;
      const started = await runInAgentOs(wf, k);
      expect(started).toEqual(run);
      expect(started).toContain(skip?.after);
      expect(started).not.toContain(skip?.skipped);
      // the other route declares no skip, and AgentOS runs its target
      expect(await runInAgentOs(wf, otherK)).toEqual(otherRun);
    },
  );

  it("skips a review agentflow's own simulation runs on that route", async () => {
    const spec = DECLARED[0];
    if (spec === undefined) throw new Error("no row 0");
    const wf = workflow(spec[1], spec[2]);
    expect(declared(wf).map(([, , data]) => (data as Obj).skipped)).toEqual(["t"]);
    expect(simulated(wf, 1)).toEqual(["s", "a", "t"]);
    expect(await runInAgentOs(wf, 1)).toEqual(["s", "a"]);
  });
});

describe("the skips of a large graph, found in one pass", () => {
  const BIG = 20_000;

  it("declares every route of a 20,000-decision chain whose taken route reaches the next", () => {
    // d_i → (a_i | d_{i+1}), a_i → d_{i+1}: each route to a_i reaches d_{i+1}, which it skips
    const nodes: Obj[] = [llm("s")];
    const edges: [string, string][] = [["s", "d0"]];
    for (let i = 0; i < BIG; i++) {
      const next = i + 1 < BIG ? `d${String(i + 1)}` : "end";
      nodes.push(binary(`d${String(i)}`, `a${String(i)}`, next), llm(`a${String(i)}`));
      if (i + 1 < BIG) edges.push([`a${String(i)}`, next]);
    }
    const skips = exportAgentOs(workflow(nodes, edges)).warnings.filter(
      (w) => w.data?.skipped !== undefined,
    );
    // 1,000 listed and one that counts the rest: every decision but the last
    expect(skips).toHaveLength(1_001);
    expect(skips[999]?.data).toEqual(
      d({ nodeId: "d999", next: "a999", skipped: "d1000", after: "a999", reachedFrom: "a999" }),
    );
    expect(skips[1_000]?.data).toMatchObject({ unlisted: BIG - 1 - 1_000, limit: 1_000 });
  });

  it("names, for each of 20,000 routes whose targets form a chain, the next target", () => {
    const steps = Array.from({ length: BIG }, (_, i) => `t${String(i)}`);
    const cases = steps.map((next, i) => ({ condition: `output.k = ${String(i)}`, next }));
    const wf = workflow(
      [
        llm("s"),
        { id: "d", type: "decision", config: { cases, otherwise: { next: "end" } } },
        ...steps.map(llm),
      ],
      [["s", "d"], ...steps.slice(1).map((t, i): [string, string] => [steps[i] ?? "", t])],
    );
    const skips = exportAgentOs(wf).warnings.filter((w) => w.data?.skipped !== undefined);
    expect(skips.slice(0, 2).map((w) => [w.path, w.data])).toEqual([
      ["/nodes/1/config/cases/0", d({ next: "t0", skipped: "t1", after: "t0", reachedFrom: "t0" })],
      ["/nodes/1/config/cases/1", d({ next: "t1", skipped: "t2", after: "t1", reachedFrom: "t1" })],
    ]);
    // every case but the last (the route to the end skips only targets reached through d)
    expect(skips[1_000]?.data).toMatchObject({ unlisted: BIG - 1 - 1_000 });
  });
});
