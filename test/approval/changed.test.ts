/**
 * changedTasks: the modeller's "changed since approval" marks, comparing decisions but never
 * subject names (the modeller does not know the repository's paths).
 */
import { describe, expect, it } from "vitest";
import type { ProcessApproval, TaskApproval } from "../../src/approval/index.js";
import { changedTasks } from "../../src/approval/index.js";
import { HASH_A, HASH_B, REVIEW } from "./helpers.js";

const process = (tasks: readonly TaskApproval[]): ProcessApproval => ({
  name: "processes/loan.bpmn",
  processIds: ["Loan"],
  allowed: true,
  agentTasks: tasks,
});
const task = (patch: Partial<TaskApproval>): TaskApproval => ({ ...REVIEW, ...patch });
const [PAY] = REVIEW.dependencies;
if (PAY === undefined) throw new Error("no dependency");

describe("changedTasks", () => {
  it("finds nothing when the decisions are the same", () => {
    expect(changedTasks(process([REVIEW]), [REVIEW])).toEqual([]);
  });

  it("ignores subject names: a workflow or tool read from another path", () => {
    const moved = task({
      workflow: "elsewhere.yaml",
      dependencies: [{ ...PAY, name: "elsewhere.json" }],
    });
    expect(changedTasks(process([REVIEW]), [moved])).toEqual([]);
  });

  it("names each field that changed, dependencies as one", () => {
    const changed = task({
      contentHash: HASH_B,
      gate: "bypassed",
      dependencies: [{ ...PAY, contentHash: HASH_A }],
    });
    expect(changedTasks(process([REVIEW]), [changed])).toEqual([
      { elementId: "Review", change: "changed", fields: ["gate", "contentHash", "dependencies"] },
    ]);
  });

  it.each([
    ["a dependency added", [PAY, { ...PAY, ref: "tool:refund@1.0.0" }]],
    ["a dependency removed", []],
    ["a dependency failing now", [{ ...PAY, contentHash: null, failure: "missing" }]],
    ["a dependency resolved twice", [PAY, { ...PAY, contentHash: HASH_A }]],
  ])("counts %s as a change of dependencies", (_what, dependencies) => {
    expect(changedTasks(process([REVIEW]), [task({ dependencies })])).toEqual([
      { elementId: "Review", change: "changed", fields: ["dependencies"] },
    ]);
  });

  it("marks tasks added and removed, sorted by element id", () => {
    const approved = process([task({ elementId: "B" }), task({ elementId: "D" })]);
    const current = [
      task({ elementId: "C" }),
      task({ elementId: "B", effectiveLevel: 5 }),
      task({ elementId: "A" }),
    ];
    expect(changedTasks(approved, current)).toEqual([
      { elementId: "A", change: "added", fields: [] },
      { elementId: "B", change: "changed", fields: ["effectiveLevel"] },
      { elementId: "C", change: "added", fields: [] },
      { elementId: "D", change: "removed", fields: [] },
    ]);
  });

  it("marks every task added when the process was not approved", () => {
    expect(changedTasks(undefined, [task({ elementId: "X" })])).toEqual([
      { elementId: "X", change: "added", fields: [] },
    ]);
    expect(changedTasks(undefined, [])).toEqual([]);
  });
});
