/**
 * Which names a walk reads as BPMN processes: every name an engine deploys as BPMN by its name
 * (`.bpmn`; `.bpmn20.xml`, Camunda 7's, Flowable's and Activiti's), in any letter case, so that
 * no process in a walked folder is deployed unjudged.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isDocumentName, isProcessName } from "../../src/cli/file-kinds.js";
import { collectFiles } from "../../src/cli/files.js";
import { tempDir } from "../temp.js";

describe("isProcessName", () => {
  it.each([
    ["loan.bpmn", true],
    ["loan.BPMN", true],
    ["Loan.Bpmn", true],
    ["loan.bpmn20.xml", true],
    ["LOAN.BPMN20.XML", true],
    [".loan.bpmn20.xml", true],
    ["processes/loan.bpmn20.xml", true],
    ["a.bpmn/loan.json", false],
    ["loan.xml", false],
    ["loan.bpmn.json", false],
    ["loan.bpmn20", false],
    ["bpmn", false],
    [".bpmn", false],
    [".bpmn20.xml", false],
  ])("%j → %j", (name, expected) => {
    expect(isProcessName(name)).toBe(expected);
  });

  it("leaves the document names as they were", () => {
    expect(isDocumentName("a.agent.json")).toBe(true);
    expect(isDocumentName("loan.bpmn20.xml")).toBe(false);
  });
});

describe("collectFiles reads every process name in a folder", () => {
  // Sorted by code unit, as every walk is.
  it("for gate and for check", async () => {
    const dir = tempDir("agentflow-file-kinds-");
    for (const name of ["a.bpmn", "b.bpmn20.xml", "C.BPMN", "d.xml", "e.agent.json"]) {
      writeFileSync(join(dir, name), "<x/>");
    }
    const gate = await collectFiles([dir], { onlyProcesses: true });
    expect(gate.files).toEqual(["C.BPMN", "a.bpmn", "b.bpmn20.xml"].map((n) => join(dir, n)));
    const check = await collectFiles([dir], { processes: true });
    expect(check.files).toEqual(
      ["C.BPMN", "a.bpmn", "b.bpmn20.xml", "e.agent.json"].map((n) => join(dir, n)),
    );
    // Named, a Flowable process is read as one by check too.
    const named = await collectFiles([join(dir, "b.bpmn20.xml")], { processes: true });
    expect(named.files).toEqual([join(dir, "b.bpmn20.xml")]);
  });
});
