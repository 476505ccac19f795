/**
 * BPMN DI that a drawing cannot use as it stands: coordinates near the largest double (finite
 * in the file, `Infinity` once added or scaled), a diamond of no size, a flow named with spaces.
 * The audit report's SVG never holds `Infinity` or `NaN`: far-out DI is laid out by agentflow
 * instead, with a note saying why, and degenerate shapes draw as points.
 */
import { describe, expect, it } from "vitest";
import { hasGateMarker, readProcess, readProcessDiagrams } from "../../../../src/bpmn/index.js";
import type { ProcessDiagram } from "../../../../src/bpmn/index.js";
import { auditProcessReport, renderAuditHtml } from "../../../../src/report/audit/index.js";
import { drawingNote, processDrawing } from "../../../../src/report/audit/process/index.js";

interface Di {
  readonly start?: string;
  readonly gateway?: string;
  readonly end?: string;
  readonly flowName?: string;
  /** The first flow's waypoints, or none. */
  readonly waypoints?: string;
  readonly label?: string;
}

function bounds(x: number | string, y: number | string, w: number | string, h: number | string) {
  return `<dc:Bounds x="${String(x)}" y="${String(y)}" width="${String(w)}" height="${String(h)}" />`;
}

function bpmn(di: Di): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
    xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
    xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="Defs" targetNamespace="https://example.com">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="Start" name="Start" />
    <bpmn:exclusiveGateway id="Choice" name="Which?" />
    <bpmn:endEvent id="End" name="Done" />
    <bpmn:sequenceFlow id="F1" name="${di.flowName ?? "go"}" sourceRef="Start" targetRef="Choice" />
    <bpmn:sequenceFlow id="F2" sourceRef="Choice" targetRef="End" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
    <bpmndi:BPMNShape id="Start_di" bpmnElement="Start">${di.start ?? bounds(100, 100, 36, 36)}</bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="Choice_di" bpmnElement="Choice">${di.gateway ?? bounds(200, 93, 50, 50)}</bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="End_di" bpmnElement="End">${di.end ?? bounds(300, 100, 36, 36)}</bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="F1_di" bpmnElement="F1">${di.waypoints ?? ""}${di.label === undefined ? "" : `<bpmndi:BPMNLabel>${di.label}</bpmndi:BPMNLabel>`}</bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}

async function diagramOf(xml: string): Promise<ProcessDiagram> {
  const { definitions } = await readProcess(xml);
  if (definitions === undefined) throw new Error("unreadable");
  const [diagram] = readProcessDiagrams(definitions, hasGateMarker);
  if (diagram === undefined) throw new Error("no process");
  return diagram;
}

/** The report's page, and its drawing. */
async function html(xml: string): Promise<{ page: string; svg: string }> {
  const report = await auditProcessReport({ file: "p.bpmn", text: xml, tools: { agentflow: "t" } });
  const page = renderAuditHtml(report);
  const svg = /<svg class="diagram process"[\s\S]*?<\/svg>/.exec(page)?.[0] ?? "";
  return { page, svg };
}

const FAR = [
  ["a shape at 2e307", { end: bounds(2e307, 100, 36, 36) }],
  ["a shape 1.7e308 wide", { gateway: bounds(200, 93, "1.7e308", 50) }],
  ["a shape at -1.7e308", { start: bounds(-1.7e308, -1.7e308, 36, 36) }],
  [
    "a waypoint at 1e307",
    { waypoints: '<di:waypoint x="136" y="118" /><di:waypoint x="1e307" y="1e307" />' },
  ],
  ["a label 1e308 tall", { label: bounds(150, 150, 40, "1e308") }],
  ["a shape just past the limit", { end: bounds(1_000_000.5, 100, 36, 36) }],
] as const;

describe("DI coordinates past the drawing's range", () => {
  it.each(FAR)("%s: laid out by agentflow, with a note, and no Infinity or NaN", async (_, di) => {
    const xml = bpmn(di);
    const drawing = processDrawing(await diagramOf(xml));
    expect(drawing).toMatchObject({ mode: "dagre", hasDi: true, diOutOfRange: true });
    expect(drawingNote(drawing)).toBe(
      "Laid out by agentflow with dagre, left to right: the file's BPMN DI places elements beyond ±1,000,000 px, too far out to draw as laid out (3 flow nodes and 2 flows).",
    );
    const { page, svg } = await html(xml);
    expect(svg).toContain('data-element-id="End"');
    expect(svg).not.toMatch(/Infinity|NaN/);
    expect(page).toContain("beyond ±1,000,000 px");
  });

  it("a shape at the limit itself is drawn from the DI", async () => {
    const xml = bpmn({ end: bounds(1_000_000 - 36, 100, 36, 36) });
    const drawing = processDrawing(await diagramOf(xml));
    expect(drawing).toMatchObject({ mode: "di", diOutOfRange: false });
    const { svg } = await html(xml);
    expect(svg).toMatch(/viewBox="0 -?[\d.]+ [\d.]+ [\d.]+"/);
    expect(svg).not.toMatch(/Infinity|NaN/);
  });

  it("a diamond of no size and a flow named with spaces draw without NaN or Infinity", async () => {
    // The flow without waypoints runs straight up from the diamond's centre: 0 / 0 before.
    const xml = bpmn({
      gateway: bounds(118, 300, 0, 0),
      end: bounds(100, 400, 36, 36),
      flowName: "   ",
    });
    expect(processDrawing(await diagramOf(xml)).mode).toBe("di");
    const { svg } = await html(xml);
    expect(svg).toContain('data-element-id="F1"');
    expect(svg).not.toMatch(/Infinity|NaN/);
    expect(svg).not.toContain('class="flow-label"');
  });
});
