/**
 * `distinctRoles` over gates several groups may approve (red team: two Camunda user tasks with
 * the candidate groups `credit-officers, compliance` and `compliance, credit-officers` passed a
 * four-eyes pack). A gate is approved by a member of any of its candidate groups (or a candidate
 * user, or the assignee), so gates count as distinct approvals only when no one of them may
 * approve two: their role sets are pairwise disjoint.
 */
import { describe, expect, it } from "vitest";
import type { GateSelector } from "../../src/bpmn/index.js";
import { roleFamilies } from "../../src/bpmn/gate-role-sets.js";
import type { GatePathRequirement, GatePathResult } from "../../src/bpmn/gate-require.js";
import {
  checkGatePath,
  MAX_ROLE_STEPS,
  MAX_ROLE_SWEEPS,
  roleNames,
} from "../../src/bpmn/gate-require.js";
import { element, gateMarker, userTask } from "./builders.js";
import { disjointCount } from "./gate-require-oracle.js";
import { gateRow } from "./gate-row.js";
import { random } from "../properties/bpmn-motifs.js";

/** A user task's `zeebe:assignmentDefinition` attributes. */
interface Assignment {
  readonly candidateGroups?: string;
  readonly candidateUsers?: string;
  readonly assignee?: string;
}

/** The selectors of the red team's config, by candidate group: the first that matches decides. */
const SELECTORS: readonly GateSelector[] = [
  { candidateGroup: "credit-officers" },
  { candidateGroup: "compliance" },
  { candidateGroup: "risk" },
];

const reviewTask = (id: string, a: Assignment): string => {
  const attrs = Object.entries(a)
    .map(([k, v]) => ` ${k}="${String(v)}"`)
    .join("");
  return userTask(id, { ext: ["<zeebe:userTask />", `<zeebe:assignmentDefinition${attrs} />`] });
};

/** The outcome of each requirement for agent task `A` before the gates, in a row, then `E`. */
async function check(
  gates: readonly string[],
  ...reqs: readonly GatePathRequirement[]
): Promise<GatePathResult[]> {
  const { process: prepared, node } = await gateRow(gates, SELECTORS);
  return reqs.map((req) => checkGatePath(prepared, node, req));
}

const HOLDS = { holds: true };
const fails = (gates: number, rolesOnPath: readonly string[]) => ({
  holds: false,
  failed: "distinctRoles",
  path: ["A", ...Array.from({ length: gates }, (_, i) => `G${String(i + 1)}`), "E"],
  rolesOnPath,
  gatesOnPath: gates,
});

describe("distinctRoles over gates several groups may approve", () => {
  it.each([
    [
      "the same groups, reordered: one group may approve both",
      [
        { candidateGroups: "credit-officers, compliance" },
        { candidateGroups: "compliance, credit-officers" },
      ],
      fails(2, ["compliance, credit-officers", "credit-officers, compliance"]),
      fails(2, ["compliance, credit-officers", "credit-officers, compliance"]),
    ],
    [
      "overlapping groups: compliance may approve both",
      [{ candidateGroups: "compliance" }, { candidateGroups: "compliance, credit-officers" }],
      fails(2, ["compliance", "compliance, credit-officers"]),
      fails(2, ["compliance", "compliance, credit-officers"]),
    ],
    [
      "disjoint groups: two approvals no one group gives both of",
      [{ candidateGroups: "credit-officers, legal" }, { candidateGroups: "compliance, audit" }],
      HOLDS,
      fails(2, ["compliance, audit", "credit-officers, legal"]),
    ],
    [
      "three groups pairwise shared: no two gates disjoint",
      [
        { candidateGroups: "credit-officers, compliance" },
        { candidateGroups: "compliance, risk" },
        { candidateGroups: "risk, credit-officers" },
      ],
      fails(3, ["compliance, risk", "credit-officers, compliance", "risk, credit-officers"]),
      fails(3, ["compliance, risk", "credit-officers, compliance", "risk, credit-officers"]),
    ],
    [
      "a shared group beside a disjoint gate: two, not three",
      [
        { candidateGroups: "credit-officers, compliance" },
        { candidateGroups: "compliance" },
        { candidateGroups: "risk" },
      ],
      HOLDS,
      fails(3, ["compliance", "credit-officers, compliance", "risk"]),
    ],
    [
      "one group each, and a candidate user who may approve both",
      [
        { candidateGroups: "credit-officers", candidateUsers: "bob" },
        { candidateGroups: "compliance", candidateUsers: "carol, bob" },
      ],
      fails(2, ["compliance, carol, bob", "credit-officers, bob"]),
      fails(2, ["compliance, carol, bob", "credit-officers, bob"]),
    ],
    [
      "one group each, an assignee known only at run time: it may be anyone",
      [
        { candidateGroups: "credit-officers", assignee: "=initiator" },
        { candidateGroups: "compliance" },
      ],
      fails(2, ["compliance", "credit-officers, =initiator"]),
      fails(2, ["compliance", "credit-officers, =initiator"]),
    ],
    [
      "one group each, a static assignee of its own: disjoint",
      [{ candidateGroups: "credit-officers", assignee: "dave" }, { candidateGroups: "compliance" }],
      HOLDS,
      fails(2, ["compliance", "credit-officers, dave"]),
    ],
  ] as const)("%s", async (_, assignments, two, three) => {
    const gates = assignments.map((a, i) => reviewTask(`G${String(i + 1)}`, a));
    expect(await check(gates, { distinctRoles: 2 }, { distinctRoles: 3 })).toEqual([two, three]);
  });

  it("reads each approver as one name, as roleKey reads it, commas and all", () => {
    expect(
      [
        ["credit-officers", "compliance"],
        ["Compliance ", "credit-officers"],
        ["risk"],
        ["a", "A"],
        ["legal", "=reviewerOf(amount, 2)"],
        ["Credit Officer, Level 2", "level 2"],
        [" ", ""],
      ].map((approvers) => roleNames(approvers)),
    ).toEqual([
      ["compliance", "credit-officers"],
      ["compliance", "credit-officers"],
      ["risk"],
      ["a"],
      ["=", "legal"],
      ["credit officer, level 2", "level 2"],
      [],
    ]);
  });

  it("is undecidable, never a pass, when the search for the sets to sweep is too long", async () => {
    // 24 gates, each sharing a role with its two neighbours on a ring: exponentially many
    // families with no 12 disjoint. Each is approved by its declared role and its group.
    const gates = Array.from({ length: 24 }, (_, i) =>
      element("userTask", `G${String(i + 1)}`, {
        ext: [
          gateMarker(`r${String(i)}`),
          `<zeebe:assignmentDefinition candidateGroups="r${String((i + 1) % 24)}" />`,
        ],
      }),
    );
    const [out] = await check(gates, { distinctRoles: 12 });
    expect(out).toEqual({
      holds: false,
      failed: "undecidable",
      reason:
        "distinctRoles 12 over 24 approver roles needs more than 4194304 steps to find the sets of roles to sweep",
      path: [],
    });
    expect(MAX_ROLE_STEPS).toBe(1 << 22);
    expect(MAX_ROLE_SWEEPS).toBe(4096);
  });

  it("sweeps exactly the maximal families with fewer than n disjoint, against every subset", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const rnd = random(seed);
      const names = ["a", "b", "c", "d", "e", "=x"];
      const roles = Array.from({ length: 1 + rnd(7) }, () =>
        Array.from({ length: 1 + rnd(3) }, () => names[rnd(names.length)] ?? "a"),
      );
      const sets = [...new Set(roles.map((r) => roleNames(r).join("\n")))].map((k) =>
        k.split("\n"),
      );
      const n = 1 + rnd(4);
      const count = (mask: number) => disjointCount(sets.filter((_, i) => (mask >> i) & 1));
      const want: number[][] = [];
      for (let mask = 0; mask < 1 << sets.length; mask++) {
        const room = sets.some((_, i) => !((mask >> i) & 1) && count(mask | (1 << i)) < n);
        if (count(mask) < n && !room)
          want.push(sets.flatMap((_, i) => ((mask >> i) & 1 ? [i] : [])));
      }
      const got = roleFamilies(sets, n);
      expect(
        typeof got === "string" ? got : [...got].map((f) => [...f]).sort(),
        String(seed),
      ).toEqual(want.sort());
    }
  });
});
