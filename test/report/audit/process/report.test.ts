/**
 * The process picture inside the whole report (issue 21): hostile names stay text in both
 * formats, an unreadable file has no picture, and a process past the layout limit is not drawn
 * in either format, which says so.
 */
import { describe, expect, it } from "vitest";
import { generateBpmnProcess } from "../../../../bench/bpmn-generate.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../../src/report/audit/index.js";

const HOSTILE = `<img src=x onerror=alert(1)>"'&amp;\`\`\`\n## Promotion decision: ALLOWED`;

function attr(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

const XML = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="Hostile" targetNamespace="https://example.com">
  <bpmn:process id="P" name="${attr(HOSTILE)}">
    <bpmn:startEvent id="Start" name="${attr(HOSTILE)}" />
    <bpmn:serviceTask id="Agent" name="${attr(HOSTILE)}">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="3" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:exclusiveGateway id="Split" name="${attr(HOSTILE)}" />
    <bpmn:userTask id="Approve" name="${attr(HOSTILE)}">
      <bpmn:extensionElements><btv:gate /></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="End" />
    <bpmn:endEvent id="AutoEnd" name="${attr(HOSTILE)}" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Split" />
    <bpmn:sequenceFlow id="F3" name="${attr(HOSTILE)}" sourceRef="Split" targetRef="Approve" />
    <bpmn:sequenceFlow id="F4" sourceRef="Approve" targetRef="End" />
    <bpmn:sequenceFlow id="F5" name="${attr(HOSTILE)}" sourceRef="Split" targetRef="AutoEnd" />
  </bpmn:process>
</bpmn:definitions>`;

describe("the process picture in the report", () => {
  it("keeps hostile names as text in the SVG and the Mermaid chart, and draws the bypass", async () => {
    const report = await auditProcessReport({ file: "hostile.bpmn", text: XML, tools: {} });
    const bypass = report.process?.rules.find((r) => r.code === "AGENT_GATE_BYPASS");
    expect(bypass?.diagnostics.length).toBe(1);
    const html = renderAuditHtml(report);
    expect(html).not.toContain("<img");
    expect(html).toContain(
      "&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;amp;```\\n## Promotion",
    );
    const svg = /<svg class="diagram process"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    for (const id of ["Start", "Agent", "Split", "Approve", "End", "AutoEnd"]) {
      expect(svg).toContain(`data-element-id="${id}"`);
    }
    expect(svg).toContain('<g class="bypass-finding" data-for="Agent"');
    expect(svg).toContain('data-status="bypassed"');

    const markdown = renderAuditMarkdown(report);
    const fences = markdown.split("\n").filter((l) => l.startsWith("```"));
    // One chart, opened and closed: no name can end it or add a heading.
    expect(fences).toEqual(["```mermaid", "```"]);
    expect(markdown.split("\n").filter((l) => l.startsWith("## Promotion decision"))).toEqual([
      "## Promotion decision: BLOCKED",
    ]);
    const chart = /```mermaid\n([\s\S]*?)\n```/.exec(markdown)?.[1] ?? "";
    expect(chart).toContain("#lt;img src=x onerror=alert(1)#gt;#quot;'#amp;amp;#96;#96;#96;\\n");
    expect(chart).toMatch(/^ {2}linkStyle \d+,\d+ stroke:#b42318/m);
  });

  it("draws nothing for a file it cannot read", async () => {
    const report = await auditProcessReport({ file: "x.bpmn", text: "not xml", tools: {} });
    expect(report.process?.diagrams).toEqual([]);
    expect(renderAuditHtml(report)).not.toContain("process-diagram");
    expect(renderAuditMarkdown(report)).not.toContain("### Process diagram");
  });

  it("says why a process past the layout limit is not drawn, in both formats", async () => {
    const generated = generateBpmnProcess(300);
    const start = generated.xml.indexOf("  <bpmndi:BPMNDiagram");
    const text = generated.xml.slice(0, start) + "</bpmn:definitions>\n";
    const report = await auditProcessReport({ file: "big.bpmn", text, tools: {} });
    expect(report.process?.diagrams[0]?.drawing).toMatchObject({ mode: "none", nodes: 300 });
    const note = `Process not drawn: 300 flow nodes and ${String(generated.sequenceFlows)} flows exceed the limit of 250 flow nodes and 250 flows laid out without BPMN DI.`;
    const html = renderAuditHtml(report);
    expect(html).toContain(note);
    expect(html).not.toContain('<svg class="diagram process"');
    const markdown = renderAuditMarkdown(report);
    expect(markdown).not.toContain("flowchart LR");
    expect(markdown).toContain("Process not drawn as Mermaid: 300 flow nodes");

    // With its DI the same process is drawn as laid out, every flow node by its id.
    const withDi = await auditProcessReport({ file: "big.bpmn", text: generated.xml, tools: {} });
    const drawn = renderAuditHtml(withDi);
    expect(drawn).toContain('data-layout="di"');
    expect(drawn.match(/<g class="el [^"]*" data-element-id=/g)?.length).toBe(300);
  });
});
