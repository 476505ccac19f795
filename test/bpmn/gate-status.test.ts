import { describe, expect, it } from "vitest";
import type { AgentTaskSummary } from "../../src/bpmn/index.js";
import { AGENT_GATE_STATUSES, agentGateStatus } from "../../src/bpmn/index.js";

describe("agentGateStatus", () => {
  it("gives every requirement, verdict and resolution one status (docs/bpmn.md)", () => {
    const rows: [AgentTaskSummary["requirement"], AgentTaskSummary["gate"], string, string][] = [];
    for (const requirement of ["required", "optional", "none"] as const)
      for (const gate of ["reached", "bypassed", "missing"] as const)
        for (const resolution of ["registry", "unresolved"] as const)
          rows.push([
            requirement,
            gate,
            resolution,
            agentGateStatus({ requirement, gate, resolution }),
          ]);
    expect(rows).toEqual([
      ["required", "reached", "registry", "reached"],
      ["required", "reached", "unresolved", "reached"],
      ["required", "bypassed", "registry", "bypassed"],
      ["required", "bypassed", "unresolved", "bypassed"],
      ["required", "missing", "registry", "missing"],
      ["required", "missing", "unresolved", "missing"],
      ["optional", "reached", "registry", "reached"],
      ["optional", "reached", "unresolved", "reached"],
      ["optional", "bypassed", "registry", "optional"],
      ["optional", "bypassed", "unresolved", "unresolved"],
      ["optional", "missing", "registry", "optional"],
      ["optional", "missing", "unresolved", "unresolved"],
      ["none", "reached", "registry", "reached"],
      ["none", "reached", "unresolved", "reached"],
      ["none", "bypassed", "registry", "not-needed"],
      ["none", "bypassed", "unresolved", "unresolved"],
      ["none", "missing", "registry", "not-needed"],
      ["none", "missing", "unresolved", "unresolved"],
    ]);
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set(AGENT_GATE_STATUSES));
  });
});
