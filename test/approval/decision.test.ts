/**
 * taskApproval and processApproval: the decision as an approval records it, with levels,
 * dependencies once each in one order, and subject names from the caller's lookup.
 */
import { describe, expect, it } from "vitest";
import type { AgentTaskSummary } from "../../src/bpmn/index.js";
import { processApproval, taskApproval } from "../../src/approval/index.js";
import { HASH_A, HASH_B } from "./helpers.js";

const FILES: Readonly<Record<string, string>> = {
  "workflow agent:review@1.0.0": "registry/workflows/review.yaml",
  "tool tool:pay@1.0.0": "registry/tools/pay.json",
  "tool tool:search@1.0.0": "registry/tools/search.json",
  "delegate agent:helper@1.0.0": "registry/workflows/helper.yaml",
};
const nameOf = (ref: string, kind: string): string | null => FILES[`${kind} ${ref}`] ?? null;

function summary(overrides: Partial<AgentTaskSummary> = {}): AgentTaskSummary {
  return {
    elementId: "Review",
    source: "btv",
    ref: "agent:review@1.0.0",
    level: 2,
    justifiedLevel: 2,
    resolution: "registry",
    contentHash: HASH_A,
    requirement: "required",
    gate: "reached",
    dependencies: [],
    ...overrides,
  };
}

describe("taskApproval", () => {
  it.each([
    [2, 3, 3],
    [4, 1, 4],
    [null, 3, 3],
    [2, null, 2],
    [null, null, null],
    [0, 0, 0],
  ] as const)("declared %s and justified %s: effective %s", (level, justifiedLevel, effective) => {
    const task = taskApproval(summary({ level, justifiedLevel }), nameOf);
    expect(task.declaredLevel).toBe(level);
    expect(task.justifiedLevel).toBe(justifiedLevel);
    expect(task.effectiveLevel).toBe(effective);
  });

  it("names the workflow's subject only when it came from the registry", () => {
    expect(taskApproval(summary(), nameOf).workflow).toBe("registry/workflows/review.yaml");
    for (const resolution of ["snapshot", "unresolved", "derived"] as const) {
      expect(taskApproval(summary({ resolution }), nameOf).workflow).toBeNull();
    }
    expect(taskApproval(summary({ ref: null }), nameOf).workflow).toBeNull();
  });

  it("copies what decides the promotion", () => {
    const task = taskApproval(
      summary({ source: "camunda", gate: "bypassed", contentHash: null, elementId: "X" }),
      nameOf,
    );
    expect(task).toMatchObject({
      elementId: "X",
      source: "camunda",
      ref: "agent:review@1.0.0",
      gate: "bypassed",
      resolution: "registry",
      contentHash: null,
    });
  });

  it("keeps each dependency once, sorted by kind then ref, whatever node asked for it", () => {
    const task = taskApproval(
      summary({
        dependencies: [
          { kind: "tool", ref: "tool:search@1.0.0", nodeId: "s", contentHash: HASH_B },
          { kind: "tool", ref: "tool:pay@1.0.0", nodeId: "p1", contentHash: HASH_A },
          { kind: "delegate", ref: "agent:helper@1.0.0", nodeId: "d", contentHash: HASH_B },
          {
            kind: "tool",
            ref: "tool:pay@1.0.0",
            nodeId: "p2",
            contentHash: HASH_A,
            via: "agent:helper@1.0.0",
          },
        ],
      }),
      nameOf,
    );
    expect(task.dependencies).toEqual([
      {
        kind: "delegate",
        ref: "agent:helper@1.0.0",
        name: "registry/workflows/helper.yaml",
        contentHash: HASH_B,
        failure: null,
      },
      {
        kind: "tool",
        ref: "tool:pay@1.0.0",
        name: "registry/tools/pay.json",
        contentHash: HASH_A,
        failure: null,
      },
      {
        kind: "tool",
        ref: "tool:search@1.0.0",
        name: "registry/tools/search.json",
        contentHash: HASH_B,
        failure: null,
      },
    ]);
  });

  it("records a failed lookup with its reason and no subject", () => {
    const task = taskApproval(
      summary({
        dependencies: [
          {
            kind: "tool",
            ref: "tool:pay@1.0.0",
            nodeId: "p",
            failure: { reason: "missing", detail: "not found" },
          },
        ],
      }),
      nameOf,
    );
    expect(task.dependencies).toEqual([
      { kind: "tool", ref: "tool:pay@1.0.0", name: null, contentHash: null, failure: "missing" },
    ]);
  });

  it("keeps two resolutions of one ref apart (two registries disagreeing)", () => {
    const task = taskApproval(
      summary({
        dependencies: [
          { kind: "tool", ref: "tool:pay@1.0.0", nodeId: "a", contentHash: HASH_B },
          { kind: "tool", ref: "tool:pay@1.0.0", nodeId: "b", contentHash: HASH_A },
        ],
      }),
      nameOf,
    );
    expect(task.dependencies.map((d) => d.contentHash)).toEqual([HASH_A, HASH_B]);
  });
});

describe("processApproval", () => {
  it("sorts tasks by element id and process ids, keeping the verdict", () => {
    const process = processApproval(
      "processes/loan.bpmn",
      ["Loan", "Appeal", "Loan"],
      {
        allowed: true,
        agentTasks: [
          summary({ elementId: "b" }),
          summary({ elementId: "B" }),
          summary({ elementId: "a" }),
        ],
      },
      nameOf,
    );
    expect(process.name).toBe("processes/loan.bpmn");
    expect(process.processIds).toEqual(["Appeal", "Loan"]);
    expect(process.allowed).toBe(true);
    expect(process.agentTasks.map((t) => t.elementId)).toEqual(["B", "a", "b"]);
  });
});
