/**
 * Who may approve a gate, for `distinctRoles` and `roles` (review of the four-eyes rewrite): the
 * declared role (`btv:approverRole`, a selector's `role`) adds to everyone the task's assignment
 * lets complete it, never hides them; a declared role is one name, commas and all. And the search
 * for the role families answers inputs of any size with a verdict or a reason: it once recursed
 * once per group of gates (a stack overflow past about 2,000 groups) and did uncounted quadratic
 * work before its budget (seconds for 20,000 gates sharing a group).
 */
import { describe, expect, it } from "vitest";
import type { GateSelector } from "../../src/bpmn/index.js";
import type { GatePathRequirement, GatePathResult } from "../../src/bpmn/gate-require.js";
import { checkGatePath } from "../../src/bpmn/gate-require.js";
import { roleFamilies } from "../../src/bpmn/gate-role-sets.js";
import { gateRow } from "./gate-row.js";
import { element } from "./builders.js";

/** A user task `id`: its `btv:approverRole` (if any) and its assignment's attributes. */
const review = (id: string, declared: string | undefined, assignment: string): string =>
  element("userTask", id, {
    ext: [
      "<zeebe:userTask />",
      ...(declared === undefined ? [] : [`<btv:gate approverRole="${declared}" />`]),
      ...(assignment === "" ? [] : [`<zeebe:assignmentDefinition ${assignment} />`]),
      '<zeebe:properties><zeebe:property name="approval" value="yes" /></zeebe:properties>',
    ],
  });

const BY_GROUP: readonly GateSelector[] = [
  { candidateGroup: "credit-officers", role: "credit" },
  { candidateGroup: "compliance" },
];

describe("who may approve a gate", () => {
  it.each<[string, readonly [string | undefined, string][], readonly string[][]]>([
    [
      "a declared role beside another group: both",
      [["credit-officers", 'candidateGroups="compliance"']],
      [["credit-officers", "compliance"]],
    ],
    [
      "a declared role naming the task's own group: once",
      [["credit-officers", 'candidateGroups="credit-officers"']],
      [["credit-officers"]],
    ],
    [
      "a declared role with a comma: one name, beside the users and the assignee",
      [["Credit Officer, Level 2", 'candidateUsers="bob" assignee="=initiator"']],
      [["Credit Officer, Level 2", "bob", "=initiator"]],
    ],
    [
      "a declared role, groups known only at run time: anyone of them",
      [["legal", 'candidateGroups="=groupsFor(amount)"']],
      [["legal", "=groupsFor(amount)"]],
    ],
    [
      "a selector's role beside every group of the task",
      [[undefined, 'candidateGroups="credit-officers, compliance"']],
      [["credit", "credit-officers", "compliance"]],
    ],
    [
      "a selector without a role: the task's assignment alone",
      [[undefined, 'candidateGroups="compliance" assignee="dave"']],
      [["compliance", "dave"]],
    ],
  ])("%s", async (_, gates, approvers) => {
    const tasks = gates.map(([declared, a], i) => review(`G${String(i + 1)}`, declared, a));
    const { process } = await gateRow(tasks, BY_GROUP);
    expect(process.gates.map((g) => [g.approvers, g.role])).toEqual(
      approvers.map((list) => [list, list.join(", ")]),
    );
  });
});

const HOLDS = { holds: true };
const fails = (failed: string, rolesOnPath: readonly string[], more: object = {}) => ({
  holds: false,
  failed,
  path: ["A", "G1", "G2", "E"],
  rolesOnPath,
  gatesOnPath: 2,
  ...more,
});

describe("distinctRoles and roles read the declared role beside the assignment", () => {
  it.each<[string, readonly [string | undefined, string][], GatePathRequirement, unknown]>([
    [
      "a declared role does not hide the group that may approve both gates",
      [
        ["credit-officers", 'candidateGroups="compliance"'],
        [undefined, 'candidateGroups="compliance"'],
      ],
      { distinctRoles: 2 },
      fails("distinctRoles", ["compliance", "credit-officers, compliance"]),
    ],
    [
      "a selector's role does not hide the group that may approve both gates",
      [
        [undefined, 'candidateGroups="credit-officers, compliance"'],
        [undefined, 'candidateGroups="compliance"'],
      ],
      { distinctRoles: 2 },
      fails("distinctRoles", ["compliance", "credit, credit-officers, compliance"]),
    ],
    [
      "a declared role with a comma is one role, apart from a role it mentions",
      [
        ["Credit Officer, Level 2", ""],
        ["Level 2", ""],
      ],
      { distinctRoles: 2 },
      HOLDS,
    ],
    [
      "roles: a gate another group may approve is no gate of the declared role",
      [
        ["credit-officers", 'candidateGroups="compliance"'],
        ["legal", ""],
      ],
      { roles: ["credit-officers"] },
      fails("roles", ["credit-officers, compliance", "legal"], {
        missingRole: "credit-officers",
      }),
    ],
    [
      "roles: a name with a comma names one role, not the groups it lists",
      [
        [undefined, 'candidateGroups="credit-officers, compliance"'],
        ["legal", ""],
      ],
      { roles: ["credit-officers, compliance"] },
      fails("roles", ["credit, credit-officers, compliance", "legal"], {
        missingRole: "credit-officers, compliance",
      }),
    ],
  ])("%s", async (_, gates, req, expected) => {
    const tasks = gates.map(([declared, a], i) => review(`G${String(i + 1)}`, declared, a));
    const { process, node } = await gateRow(tasks, BY_GROUP);
    expect(checkGatePath(process, node, req)).toEqual(expected);
  });
});

/** `count` sets that all list `x`, each with a name of its own. */
const star = (count: number) => Array.from({ length: count }, (_, i) => ["x", `u${String(i)}`]);
/** `count` groups of two sets sharing a name, each with a name of its own. */
const pairs = (count: number) =>
  Array.from({ length: count }, (_, i) => [
    [`a${String(i)}`, `r${String(i)}`],
    [`b${String(i)}`, `r${String(i)}`],
  ]).flat();

describe("the search for the families to sweep, on large inputs", () => {
  it.each<[string, readonly (readonly string[])[], number, unknown]>([
    [
      "20,000 sets sharing one name: one family, no two disjoint",
      star(20_000),
      2,
      [Array.from({ length: 20_000 }, (_, i) => i)],
    ],
    [
      "2,500 groups of two, four-eyes: one family per group (the last group first)",
      pairs(2_500),
      2,
      Array.from({ length: 2_500 }, (_, k) => [4_998 - 2 * k, 4_999 - 2 * k]),
    ],
    ["2,500 groups of two, one approval: the one empty family", pairs(2_500), 1, [[]]],
  ])("%s", (_, sets, n, expected) => {
    expect(roleFamilies(sets, n)).toEqual(expected);
  });

  it("answers a row of 5,000 gates in 2,500 groups with a verdict", async () => {
    const tasks = Array.from({ length: 5_000 }, (_, i) => {
      const group = `r${String(i >> 1)}, ${i % 2 === 0 ? "a" : "b"}${String(i >> 1)}`;
      return review(`G${String(i + 1)}`, undefined, `candidateGroups="${group}"`);
    });
    const { process, node } = await gateRow(tasks, [{ property: { name: "approval" } }]);
    const results: GatePathResult[] = [{ distinctRoles: 2 }, { distinctRoles: 2_501 }].map((req) =>
      checkGatePath(process, node, req),
    );
    expect(results.map((r) => (r.holds ? "holds" : r.failed))).toEqual(["holds", "distinctRoles"]);
  }, 60_000);
});
