/**
 * A process review is titled by the process's name (its id when it has none), not by the id of
 * the `<bpmn:definitions>` element; several processes by the definitions' or the
 * collaboration's name, else the first named process and how many others.
 */
import { describe, expect, it } from "vitest";
import { auditProcessReport, renderAuditHtml } from "../../../src/report/audit/index.js";

const NS = `xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="https://example.com"`;

function process(id: string, name?: string): string {
  const named = name === undefined ? "" : ` name="${name}"`;
  return `<bpmn:process id="${id}"${named}><bpmn:startEvent id="${id}_s" /></bpmn:process>`;
}

function definitions(body: string, name?: string): string {
  const named = name === undefined ? "" : ` name="${name}"`;
  return `<bpmn:definitions ${NS} id="Definitions_1x2y"${named}>${body}</bpmn:definitions>`;
}

async function title(xml: string, file = "p.bpmn"): Promise<string> {
  const report = await auditProcessReport({ file, text: xml, tools: { agentflow: "t" } });
  return report.title;
}

const COLLABORATION = (name?: string): string =>
  `<bpmn:collaboration id="C"${name === undefined ? "" : ` name="${name}"`}><bpmn:participant id="A" processRef="P1" /><bpmn:participant id="B" processRef="P2" /></bpmn:collaboration>`;

describe("the title of a process review", () => {
  it.each([
    ["one process: its name", definitions(process("Loan", "Consumer loan")), "Consumer loan"],
    ["one process without a name: its id", definitions(process("Loan")), "Loan"],
    ["a name of spaces is no name", definitions(process("Loan", "  ")), "Loan"],
    [
      "one process: its name, not the definitions'",
      definitions(process("Loan", "Consumer loan"), "All of it"),
      "Consumer loan",
    ],
    [
      "several: the definitions' name",
      definitions(COLLABORATION("Sales") + process("P1", "One") + process("P2", "Two"), "Bank"),
      "Bank",
    ],
    [
      "several: else the collaboration's name",
      definitions(COLLABORATION("Sales") + process("P1", "One") + process("P2", "Two")),
      "Sales",
    ],
    [
      "several: else the first named process and the others",
      definitions(COLLABORATION() + process("P1") + process("P2", "Two")),
      "Two and 1 other process",
    ],
    [
      "several, none named: the first process's id",
      definitions(process("P1") + process("P2") + process("P3")),
      "P1 and 2 other processes",
    ],
    ["no process: the definitions' name", definitions("", "Empty model"), "Empty model"],
    ["no process and no name: the definitions' id", definitions(""), "Definitions_1x2y"],
  ])("%s", async (_, xml, subject) => {
    expect(await title(xml)).toBe(`Process review: ${subject}`);
  });

  it("a very long name is cut, and the page escapes it", async () => {
    const long = "<b>" + "x".repeat(1_000);
    const xml = definitions(process("Loan", long.replace("<", "&lt;").replace(">", "&gt;")));
    const report = await auditProcessReport({ file: "p.bpmn", text: xml, tools: { a: "t" } });
    expect(report.title).toBe(`Process review: ${long.slice(0, 200)}…`);
    expect(renderAuditHtml(report)).toContain(
      `<h1>Process review: &lt;b&gt;${"x".repeat(197)}…</h1>`,
    );
  });
});
