/**
 * `require: gates` path predicates (issue 40): `min`, `distinctRoles` and `roles` on real BPMN
 * (read with DI as a modeller writes it), under AGENT_GATE_BYPASS's semantics, and a property
 * cross-checking them against AGENT_GATE_BYPASS's verdict and a brute-force path enumeration.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PreparedProcess } from "../../src/bpmn/index.js";
import { readProcess } from "../../src/bpmn/index.js";
import { prepareProcess } from "../../src/bpmn/analysis.js";
import { computeGateReach, gateVerdict } from "../../src/bpmn/gate-reach.js";
import type { GatePathRequirement, GatePathResult } from "../../src/bpmn/gate-require.js";
import { checkGatePath, MAX_ROLE_SWEEPS, roleKey } from "../../src/bpmn/gate-require.js";
import { motifModel, random } from "../properties/bpmn-motifs.js";
import { modelXml, randomModel } from "../properties/bpmn-semantics.js";
import type { PropertyDef } from "../properties/settings.js";
import { asyncProperty, runConfig } from "../properties/settings.js";
import {
  agent,
  boundaryEvent,
  chain,
  element,
  endEvent,
  exclusiveGateway,
  flow,
  gateMarker,
  parallelGateway,
  processXml,
  startEvent,
  subProcess,
  task,
  userTask,
  ZEEBE_NS,
} from "./builders.js";
import { withDiagram } from "./diagram.js";
import { disjointCount, pathOracle, roleOf } from "./gate-require-oracle.js";

const A = agent("A", { ref: "agnt-x@1.0.0", level: "2" });

/** A user task gate with `role` (none: a `<btv:gate/>` without `approverRole`). */
const gate = (id: string, role?: string): string =>
  element("userTask", id, { ext: [role === undefined ? "<btv:gate />" : gateMarker(role)] });

const terminate = (id: string): string =>
  element("endEvent", id, { children: [`<bpmn:terminateEventDefinition id="${id}_def" />`] });

async function prepare(xml: string): Promise<PreparedProcess> {
  const { definitions, diagnostics } = await readProcess(xml);
  expect(diagnostics).toEqual([]);
  if (definitions === undefined) throw new Error("unreadable");
  return prepareProcess(definitions);
}

/** The outcome of each requirement for agent task `A` of the process made of `children`. */
async function check(
  children: readonly (string | readonly string[])[],
  ...reqs: readonly GatePathRequirement[]
): Promise<GatePathResult[]> {
  const prepared = await prepare(await withDiagram(processXml(...children)));
  const node = prepared.agents.find((a) => a.entry.id === "A")?.node;
  if (node === undefined) throw new Error("no agent task A");
  return reqs.map((req) => checkGatePath(prepared, node, req));
}

const HOLDS = { holds: true };
const fails = (
  failed: "min" | "distinctRoles" | "roles",
  path: readonly string[],
  rolesOnPath: readonly string[],
  gatesOnPath: number,
  missingRole?: string,
) => ({
  holds: false,
  failed,
  path,
  rolesOnPath,
  gatesOnPath,
  ...(missingRole === undefined ? {} : { missingRole }),
});

describe("checkGatePath", () => {
  const sequential = (roleA: string, roleB: string) => [
    startEvent("S"),
    A,
    gate("G1", roleA),
    gate("G2", roleB),
    endEvent("E"),
    chain("S", "A", "G1", "G2", "E"),
  ];

  it("two gates of different roles in a row", async () => {
    const out = await check(
      sequential("legal", "risk"),
      { distinctRoles: 2 },
      { min: 2 },
      { roles: ["legal", "risk"] },
      { min: 2, distinctRoles: 2, roles: ["risk"] },
      { min: 3 },
      { distinctRoles: 3 },
      { roles: ["legal", "audit"] },
    );
    const path = ["A", "G1", "G2", "E"];
    expect(out).toEqual([
      HOLDS,
      HOLDS,
      HOLDS,
      HOLDS,
      fails("min", path, ["legal", "risk"], 2),
      fails("distinctRoles", path, ["legal", "risk"], 2),
      fails("roles", path, ["legal", "risk"], 2, "audit"),
    ]);
  });

  it("two gates of one role: two passes, one role", async () => {
    const out = await check(sequential("risk", "risk"), { distinctRoles: 2 }, { min: 2 });
    expect(out).toEqual([fails("distinctRoles", ["A", "G1", "G2", "E"], ["risk"], 2), HOLDS]);
  });

  // Red team: a zero-width space or a capital made one approver role two to the four-eyes rule.
  it.each([
    ["credit-officer", "Credit-Officer"],
    ["credit-officer", "credit\u200b-officer"],
    ["credit-officer", "credit\u00ad-officer"],
    ["risk team", "risk  team"],
    ["ｒｉｓｋ", "risk"],
  ])("%j and %j read as one role to distinctRoles, and as two to roles", async (one, other) => {
    const out = await check(sequential(one, other), { distinctRoles: 2 }, { roles: [one, other] });
    expect(out).toEqual([
      fails("distinctRoles", ["A", "G1", "G2", "E"], [one, other].sort(), 2),
      HOLDS,
    ]);
    expect(roleKey(one)).toBe(roleKey(other));
  });

  it("reports the first failing key, in the order min, distinctRoles, roles", async () => {
    const out = await check(
      sequential("risk", "risk"),
      { roles: ["legal"], distinctRoles: 2, min: 3 },
      { roles: ["legal"], distinctRoles: 2 },
      { roles: ["legal"], min: 2 },
    );
    expect(out.map((r) => (r.holds ? "holds" : r.failed))).toEqual([
      "min",
      "distinctRoles",
      "roles",
    ]);
  });

  it("an exclusive choice: the branch with one role is the counter-example", async () => {
    const out = await check(
      [
        startEvent("S"),
        A,
        exclusiveGateway("X"),
        gate("G1", "legal"),
        gate("G2", "risk"),
        gate("G3", "legal"),
        exclusiveGateway("J"),
        endEvent("E"),
        chain("S", "A", "X", "G1", "G2", "J", "E"),
        chain("X", "G3", "J"),
      ],
      { distinctRoles: 2 },
      { roles: ["legal", "risk"] },
      { min: 2 },
      { roles: ["legal"], min: 1, distinctRoles: 1 },
    );
    const weak = ["A", "X", "G3", "J", "E"];
    expect(out).toEqual([
      fails("distinctRoles", weak, ["legal"], 1),
      fails("roles", weak, ["legal"], 1, "risk"),
      fails("min", weak, ["legal"], 1),
      HOLDS,
    ]);
  });

  it("a loop back through a gate: the way out decides", async () => {
    const loop = (exit: string) => [
      startEvent("S"),
      A,
      exclusiveGateway("J"),
      gate("G1", "legal"),
      exclusiveGateway("X"),
      gate("G2", "risk"),
      task("T"),
      endEvent("E"),
      chain("S", "A", "J", "G1", "X"),
      flow("X", "J"),
      chain("X", exit, "E"),
    ];
    expect(await check(loop("G2"), { min: 2, distinctRoles: 2 })).toEqual([HOLDS]);
    expect(await check(loop("T"), { min: 2 }, { roles: ["risk"] })).toEqual([
      fails("min", ["A", "J", "G1", "X", "T", "E"], ["legal"], 1),
      fails("roles", ["A", "J", "G1", "X", "T", "E"], ["legal"], 1, "risk"),
    ]);
  });

  const guarded = (cancel: boolean, to: string) => [
    startEvent("S"),
    A,
    gate("G1", "legal"),
    gate("G2", "risk"),
    endEvent("E"),
    boundaryEvent("B", "G1", cancel),
    endEvent("E2"),
    chain("S", "A", "G1", "G2", "E"),
    flow("B", to),
  ];

  it("an interrupting timer on a gate: the gate is not passed on its path", async () => {
    expect(await check(guarded(true, "E2"), { min: 1 }, { roles: ["legal"] })).toEqual([
      fails("min", ["A", "G1", "B", "E2"], [], 0),
      fails("roles", ["A", "G1", "B", "E2"], [], 0, "legal"),
    ]);
    const onward = await check(guarded(true, "G2"), { roles: ["risk"] }, { min: 2 });
    expect(onward).toEqual([HOLDS, fails("min", ["A", "G1", "B", "G2", "E"], ["risk"], 1)]);
  });

  it("a non-interrupting timer on a gate leaves it running: its path passes it", async () => {
    const out = await check(guarded(false, "E2"), { min: 1, roles: ["legal"] }, { min: 2 });
    expect(out).toEqual([HOLDS, fails("min", ["A", "G1", "B", "E2"], ["legal"], 1)]);
  });

  const reviewSub = (id: string, role: string) =>
    subProcess(
      id,
      [
        startEvent(`${id}S`),
        userTask(`${id}T`),
        endEvent(`${id}E`),
        chain(`${id}S`, `${id}T`, `${id}E`),
      ],
      {
        ext: [gateMarker(role)],
      },
    );

  it("a sub-process gate is passed at its exit, not along an interrupting event", async () => {
    const base = [startEvent("S"), A, reviewSub("Sub", "legal"), gate("G2", "risk"), endEvent("E")];
    const flows = chain("S", "A", "Sub", "G2", "E");
    expect(await check([...base, flows], { min: 2, distinctRoles: 2 })).toEqual([HOLDS]);
    const timed = [...base, boundaryEvent("B", "Sub"), endEvent("E2"), flows, flow("B", "E2")];
    expect(await check(timed, { roles: ["legal"] })).toEqual([
      fails("roles", ["A", "Sub", "B", "E2"], [], 0, "legal"),
    ]);
  });

  it("an agent inside a gate sub-process: no gate it can enter, as AGENT_GATE_BYPASS says", async () => {
    const inner = [startEvent("I"), A, endEvent("IE"), chain("I", "A", "IE")];
    const out = await check(
      [
        startEvent("S"),
        subProcess("Sub", inner, { ext: [gateMarker("legal")] }),
        endEvent("E"),
        chain("S", "Sub", "E"),
      ],
      { min: 1 },
      { roles: ["legal"] },
    );
    expect(out).toEqual([
      fails("min", ["A", "IE", "E"], [], 0),
      fails("roles", ["A", "IE", "E"], [], 0, "legal"),
    ]);
  });

  it("a multi-instance sub-process over a collection that may be empty is passed without its gate", async () => {
    const review = (collection: string) => [
      startEvent("S"),
      A,
      subProcess("Review", [
        `<bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="${collection}" inputElement="r" /></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>`,
        startEvent("RS"),
        gate("G", "legal"),
        endEvent("RE"),
        chain("RS", "G", "RE"),
      ]),
      gate("H", "risk"),
      endEvent("E"),
      chain("S", "A", "Review", "H", "E"),
    ];
    const reqs = [{ min: 1 }, { min: 2 }, { roles: ["legal"] }, { distinctRoles: 2 }];
    expect(await check(review("=agent.reviewers"), ...reqs)).toEqual([
      HOLDS,
      fails("min", ["A", "Review", "H", "E"], ["risk"], 1),
      fails("roles", ["A", "Review", "H", "E"], ["risk"], 1, "legal"),
      fails("distinctRoles", ["A", "Review", "H", "E"], ["risk"], 1),
    ]);
    expect(await check(review("=[&quot;legal&quot;]"), ...reqs)).toEqual([
      HOLDS,
      HOLDS,
      HOLDS,
      HOLDS,
    ]);
  });

  it("an enclosing gate sub-process counts once another gate can be entered, as AGENT_GATE_BYPASS counts it", async () => {
    // W, a user task that is no gate, keeps every path through Sub waiting: Sub counts.
    const inner = [
      startEvent("I"),
      A,
      exclusiveGateway("X"),
      gate("H", "risk"),
      userTask("W"),
      endEvent("IE"),
      chain("I", "A", "X", "H", "IE"),
      chain("X", "W", "IE"),
    ];
    const out = await check(
      [
        startEvent("S"),
        subProcess("Sub", inner, { ext: [gateMarker("legal")] }),
        endEvent("E"),
        chain("S", "Sub", "E"),
      ],
      { min: 1 },
      { min: 2 },
      { roles: ["legal"] },
    );
    expect(out).toEqual([
      HOLDS,
      fails("min", ["A", "X", "W", "IE", "E"], ["legal"], 1),
      fails("roles", ["A", "X", "W", "IE", "E"], [], 0, "legal"),
    ]);
  });

  it("role-less gates count for min, never for roles", async () => {
    const children = [
      startEvent("S"),
      A,
      gate("G1"),
      gate("G2", "risk"),
      endEvent("E"),
      chain("S", "A", "G1", "G2", "E"),
    ];
    const out = await check(
      children,
      { min: 2, roles: ["risk"], distinctRoles: 1 },
      { distinctRoles: 2 },
    );
    expect(out).toEqual([HOLDS, fails("distinctRoles", ["A", "G1", "G2", "E"], ["risk"], 2)]);
    const alone = [startEvent("S"), A, gate("G"), endEvent("E"), chain("S", "A", "G", "E")];
    expect(await check(alone, { min: 1 }, { distinctRoles: 1 }, { roles: ["risk"] })).toEqual([
      HOLDS,
      fails("distinctRoles", ["A", "G", "E"], [], 1),
      fails("roles", ["A", "G", "E"], [], 1, "risk"),
    ]);
  });

  it("a terminate on a parallel branch cancels a pending gate", async () => {
    const split = (closed: boolean) => [
      startEvent("S"),
      parallelGateway("Fork"),
      A,
      gate("G", "legal"),
      task("W"),
      ...(closed ? [parallelGateway("J"), terminate("Stop")] : [endEvent("E"), terminate("Stop")]),
      flow("S", "Fork"),
      chain("Fork", "A", "G", closed ? "J" : "E"),
      chain("Fork", "W", closed ? "J" : "Stop"),
      closed ? flow("J", "Stop") : [],
    ];
    expect(await check(split(false), { min: 1 }, { roles: ["legal"] })).toEqual([
      fails("min", ["A", "G", "Stop"], [], 0),
      fails("roles", ["A", "G", "Stop"], [], 0, "legal"),
    ]);
    expect(await check(split(true), { min: 1, roles: ["legal"], distinctRoles: 1 })).toEqual([
      HOLDS,
    ]);
  });

  it("a task no end is reachable from holds vacuously", async () => {
    const children = [
      startEvent("S"),
      A,
      task("T"),
      exclusiveGateway("J"),
      chain("S", "J", "A", "T", "J"),
    ];
    const out = await check(children, { min: 3, distinctRoles: 2, roles: ["legal"] });
    expect(out).toEqual([HOLDS]);
  });

  it("an agent task that is itself an end fails alone, as AGENT_GATE_BYPASS's path", async () => {
    const children = [
      startEvent("S"),
      A,
      boundaryEvent("B", "A", false),
      gate("G", "legal"),
      endEvent("E"),
      flow("S", "A"),
      chain("B", "G", "E"),
    ];
    const out = await check(children, { min: 1 }, { roles: ["legal"] }, { distinctRoles: 1 });
    expect(out).toEqual([
      fails("min", ["A"], [], 0),
      fails("roles", ["A"], [], 0, "legal"),
      fails("distinctRoles", ["A"], [], 0),
    ]);
  });

  it("a parallel split is read per path: a gate on the other branch is not on the path", async () => {
    const children = [
      startEvent("S"),
      A,
      parallelGateway("Fork"),
      gate("G1", "legal"),
      gate("G2", "risk"),
      parallelGateway("J"),
      gate("G3", "audit"),
      endEvent("E"),
      chain("S", "A", "Fork", "G1", "J", "G3", "E"),
      chain("Fork", "G2", "J"),
    ];
    const out = await check(children, { distinctRoles: 2, min: 2 }, { distinctRoles: 3 });
    expect(out).toEqual([
      HOLDS,
      fails("distinctRoles", ["A", "Fork", "G1", "J", "G3", "E"], ["audit", "legal"], 2),
    ]);
    const inLine = [
      startEvent("S"),
      A,
      gate("G1", "legal"),
      gate("G2", "risk"),
      gate("G3", "audit"),
      endEvent("E"),
    ];
    expect(
      await check([...inLine, chain("S", "A", "G1", "G2", "G3", "E")], { distinctRoles: 3 }),
    ).toEqual([HOLDS]);
  });

  it("zero and empty requirements hold trivially; malformed ones fail closed", async () => {
    const children = [startEvent("S"), A, endEvent("E"), chain("S", "A", "E")];
    const out = await check(
      children,
      { min: 0 },
      { distinctRoles: 0 },
      { roles: [] },
      {},
      { min: -1 },
      { distinctRoles: 1.5 },
      { roles: [""] },
      { min: 1 },
    );
    expect(out.slice(0, 4)).toEqual([HOLDS, HOLDS, HOLDS, HOLDS]);
    expect(out.slice(4, 7).map((r) => (r.holds ? "holds" : r.failed))).toEqual([
      "undecidable",
      "undecidable",
      "undecidable",
    ]);
    expect(out[4]).toMatchObject({
      reason: "min must be a whole number of at least 0, not -1",
      path: [],
    });
    expect(out[7]).toEqual(fails("min", ["A", "E"], [], 0));
  });

  it("distinctRoles beyond the sweep bound is undecidable, below it decided", async () => {
    const ids = Array.from({ length: 15 }, (_, i) => `G${String(i)}`);
    const children = [
      startEvent("S"),
      A,
      ...ids.map((id, i) => gate(id, `role${String(i)}`)),
      endEvent("E"),
      chain("S", "A", ...ids, "E"),
    ];
    // C(15, 6) = 5005 sets of six roles to try for seven; C(15, 4) = 1365 for five.
    const out = await check(
      children,
      { distinctRoles: 7 },
      { distinctRoles: 5 },
      { distinctRoles: 15 },
    );
    expect(MAX_ROLE_SWEEPS).toBeLessThan(5005);
    expect(out[0]).toMatchObject({ holds: false, failed: "undecidable", path: [] });
    expect(out.slice(1)).toEqual([HOLDS, HOLDS]);
  });
});

const FILE = "test/bpmn/gate-require.test.ts";
/**
 * A gate's declared role and the assignment beside it: several names (a gate any of them may
 * approve), one anyone may (`=initiator`), a declared role that holds a comma (one name), none.
 * No two join to the same role text, so a failure's `rolesOnPath` reads back to its approvers.
 */
const ROLES: readonly (readonly [string, string] | undefined)[] = [
  ["a", ""],
  ["b", ""],
  ["c", ""],
  ["a", ' candidateGroups="c"'],
  ["B", ' candidateGroups="c"'],
  ["c", ' candidateGroups="a"'],
  ["c", ' assignee="=initiator"'],
  ["a, b", ""],
  undefined,
];

/** A random model's XML with each gate given a role (or none) by `seed`. */
function withRoles(xml: string, seed: number): string {
  const rnd = random(seed ^ 0x5bd1e995);
  const marked = xml.replace(/<btv:gate\/>/g, () => {
    const role = ROLES[rnd(ROLES.length)];
    if (role === undefined) return "<btv:gate/>";
    const [declared, assignment] = role;
    const assigned = assignment === "" ? "" : `<zeebe:assignmentDefinition${assignment}/>`;
    return `<btv:gate approverRole="${declared}"/>${assigned}`;
  });
  if (marked.includes("xmlns:zeebe=")) return marked;
  return marked.replace("<bpmn:definitions ", `<bpmn:definitions xmlns:zeebe="${ZEEBE_NS}" `);
}

const COLLECTIONS = ["=agent.reviewers", "=[&quot;a&quot;]", undefined] as const;

/**
 * A random model's XML with each sub-process given, by `seed`, a multi-instance over a collection
 * that may be empty, over a list literal with an item, or no loop: the graph's edge past the
 * content of one that may run none is then among the paths both sides walk.
 */
function withLoops(xml: string, seed: number): string {
  const rnd = random(seed ^ 0x27d4eb2d);
  const opening =
    /(<bpmn:subProcess id="[^"]+">(?:<bpmn:extensionElements><btv:gate\/><\/bpmn:extensionElements>)?)/g;
  const looped = xml.replace(opening, (head: string) => {
    const collection = COLLECTIONS[rnd(COLLECTIONS.length)];
    if (collection === undefined) return head;
    return `${head}<bpmn:multiInstanceLoopCharacteristics><bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="${collection}" inputElement="r"/></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>`;
  });
  return looped.replace("<bpmn:definitions ", `<bpmn:definitions xmlns:zeebe="${ZEEBE_NS}" `);
}

/** The predicates agree with AGENT_GATE_BYPASS and with the brute-force enumeration. */
async function agrees(xml: string): Promise<boolean> {
  const prepared = await prepare(xml);
  const task = prepared.agents[0];
  assert.ok(task !== undefined, "the model has its agent task");
  const { node } = task;
  const run = (req: GatePathRequirement): GatePathResult => checkGatePath(prepared, node, req);
  const oracle = pathOracle(prepared, node, 200_000);
  const one = run({ min: 1 });
  const { status } = task.gate;
  if (status === "missing") assert.equal(one.holds, !oracle.endReachable, xml);
  else assert.equal(one.holds, status !== "bypassed", xml);
  const approvers = new Map(prepared.gates.map((g) => [g.role ?? "", g.approvers]));
  for (const role of ["a", "b", "c", "a, b"]) {
    // A gate of the role: everyone who may approve it is of it.
    const only = prepared.gates.filter(
      (g) => g.approvers.length > 0 && g.approvers.every((a) => a === role),
    );
    const set = only.map((g) => g.node);
    const verdict = gateVerdict(prepared.graph, computeGateReach(prepared.graph, set), node);
    const got = run({ roles: [role] });
    const fail =
      verdict.status === "bypassed" || (verdict.status === "missing" && oracle.endReachable);
    assert.equal(got.holds, !fail, `roles [${role}]: ${xml}`);
    if (verdict.status === "bypassed") assert.deepEqual(got, { ...got, path: verdict.bypassPath });
    if (!got.holds && got.failed !== "undecidable") assert.ok(!got.rolesOnPath.includes(role));
    if (oracle.complete) {
      const key = roleOf([role]);
      const lacks = !oracle.enterableRoles.has(key) || oracle.lacking.has(key);
      assert.equal(got.holds, !(oracle.endReachable && lacks), `oracle, roles [${role}]: ${xml}`);
    }
  }
  const most = run({ min: 1_000 });
  if (!most.holds && most.failed === "min" && oracle.complete && oracle.anyGateEnterable) {
    assert.equal(most.gatesOnPath, oracle.fewestPasses, `fewest passes: ${xml}`);
  }
  for (const n of [1, 2, 3]) {
    const got = run({ distinctRoles: n });
    if (!got.holds && got.failed !== "undecidable") {
      assert.ok(disjointCount(got.rolesOnPath.map((r) => approvers.get(r) ?? [r])) < n, xml);
      assert.equal(got.path[0], task.entry.id);
    }
    if (!oracle.complete) continue;
    const enterable = [...oracle.enterableRoles].map((r) => JSON.parse(r) as string[]);
    const few = disjointCount(enterable) < n || oracle.fewestRoles < n;
    assert.equal(
      got.holds,
      !(oracle.endReachable && few),
      `oracle, distinctRoles ${String(n)}: ${xml}`,
    );
    const min = run({ min: n });
    const under = !oracle.anyGateEnterable || oracle.fewestPasses < n;
    assert.equal(min.holds, !(oracle.endReachable && under), `oracle, min ${String(n)}: ${xml}`);
  }
  return oracle.complete;
}

const PROPERTIES: readonly PropertyDef[] = [
  asyncProperty(
    "require: gates agrees with AGENT_GATE_BYPASS and every path",
    FILE,
    150,
    fc.nat(),
    async (seed) => {
      await agrees(withRoles(modelXml(randomModel(seed)), seed));
    },
  ),
  asyncProperty(
    "require: gates agrees around what may cancel a gate",
    FILE,
    150,
    fc.nat(),
    async (seed) => {
      await agrees(withRoles(modelXml(motifModel(seed)), seed));
    },
  ),
  asyncProperty(
    "require: gates agrees around multi-instance sub-processes that may run none",
    FILE,
    150,
    fc.nat(),
    async (seed) => {
      await agrees(withRoles(withLoops(modelXml(randomModel(seed)), seed), seed));
    },
  ),
];

describe("checkGatePath against AGENT_GATE_BYPASS and a brute-force enumeration", () => {
  for (const def of PROPERTIES) it(def.name, () => def.run(runConfig(def)), 120_000);

  it("the enumeration completes on nearly all the models it is given", async () => {
    let complete = 0;
    for (let seed = 1; seed <= 60; seed++) {
      if (await agrees(withRoles(modelXml(randomModel(seed)), seed))) complete++;
    }
    expect(complete).toBeGreaterThanOrEqual(54);
  });
});
