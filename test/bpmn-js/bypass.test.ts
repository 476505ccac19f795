/**
 * The flows of a bypass (issue 23): `AGENT_GATE_BYPASS` names the path's flow nodes, and the
 * modeller marks the sequence flows between them, found here from the real process's flows.
 */
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import type { FlowEdge } from "../../src/bpmn-js/index.js";
import { bypassFlowIds, bypassPaths } from "../../src/bpmn-js/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import { loanXml, registry, shortcutXml } from "./loan.js";

/** The sequence flows of the first process, as the canvas has them. */
function flowsOf(definitions: ModdleObject | undefined): FlowEdge[] {
  const process = (definitions?.rootElements as ModdleObject[] | undefined)?.find(
    (e) => e.$type === "bpmn:Process",
  );
  return ((process?.flowElements ?? []) as ModdleObject[])
    .filter((e) => e.$type === "bpmn:SequenceFlow")
    .map((e) => ({
      id: e.id as string,
      source: (e.sourceRef as ModdleObject).id as string,
      target: (e.targetRef as ModdleObject).id as string,
    }));
}

const bypass = (pathIds: unknown): Diagnostic => ({
  code: "AGENT_GATE_BYPASS",
  severity: "error",
  message: "bypass",
  target: { kind: "bpmn-element", elementId: "Task" },
  path: "",
  data: { pathIds },
});

describe("bypassFlowIds", () => {
  it("marks the flows from the credit-risk task around both reviews to the end", async () => {
    const decision = await checkProcess(shortcutXml, registry);
    expect(bypassPaths(decision)).toEqual([
      ["AssessCreditRisk", "RiskBand", "DraftAndSendOffer", "OfferSent"],
    ]);
    expect(bypassFlowIds(decision, flowsOf(decision.definitions), () => undefined)).toEqual([
      "Flow_ToBand",
      "Flow_Shortcut",
      "Flow_ToSent",
    ]);
  });

  it("marks nothing when every path passes a gate", async () => {
    const decision = await checkProcess(loanXml, registry);
    expect(bypassFlowIds(decision, flowsOf(decision.definitions), () => undefined)).toEqual([]);
  });

  it("takes the flow leaving the enclosing sub-process when the path steps out of one", () => {
    const flows = [
      { id: "In", source: "Task", target: "InnerEnd" },
      { id: "Out", source: "Sub", target: "Done" },
    ];
    const parents: Record<string, string> = { Task: "Sub", InnerEnd: "Sub", Sub: "Process" };
    const ids = bypassFlowIds(
      { blocking: [bypass(["Task", "InnerEnd", "Done"])], warnings: [] },
      flows,
      (id) => parents[id],
    );
    expect(ids).toEqual(["In", "Out"]);
  });

  it("lists a flow shared by two paths once, and ignores malformed path data", () => {
    const flows = [
      { id: "A", source: "T1", target: "G" },
      { id: "B", source: "T2", target: "G" },
      { id: "C", source: "G", target: "End" },
    ];
    const decision = {
      blocking: [bypass(["T1", "G", "End"]), bypass(["T2", "G", "End"]), bypass("T1 → G")],
      warnings: [bypass([1, 2])],
    };
    expect(bypassFlowIds(decision, flows, () => undefined)).toEqual(["A", "C", "B"]);
  });

  it("stops on a parent cycle instead of looping", () => {
    const ids = bypassFlowIds({ blocking: [bypass(["X", "Y"])], warnings: [] }, [], (id) =>
      id === "X" ? "Z" : "X",
    );
    expect(ids).toEqual([]);
  });
});
