/**
 * The bypass layer and the Mermaid chart's bounds (issue 21 review): every bypass path drawn once
 * whatever the number of findings, a path that leaves a sub-process follows the flow out of it,
 * and a chart Mermaid would refuse is not printed.
 */
import { describe, expect, it } from "vitest";
import type { ProcessDiagram } from "../../../../src/bpmn/index.js";
import { hasGateMarker, readProcess, readProcessDiagrams } from "../../../../src/bpmn/index.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../../src/report/audit/index.js";
import type { ProcessMarks } from "../../../../src/report/audit/process/index.js";
import {
  layoutFromDi,
  processMermaid,
  renderProcessSvg,
} from "../../../../src/report/audit/process/index.js";

const HEAD = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
    xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com">`;

const shape = (id: string, x: number, y: number, w: number, h: number, extra = ""): string =>
  `      <bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${extra}><dc:Bounds x="${String(x)}" y="${String(y)}" width="${String(w)}" height="${String(h)}" /></bpmndi:BPMNShape>`;
const edge = (id: string, points: readonly (readonly [number, number])[]): string =>
  `      <bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${String(x)}" y="${String(y)}" />`).join("")}</bpmndi:BPMNEdge>`;

/**
 * A chain of `n` level-3 agent tasks, then a gateway that goes to a gate or straight to the end,
 * as a modeller lays it out: every task has a bypass path through the rest of the chain.
 */
function chain(n: number): string {
  const nodes = [`    <bpmn:startEvent id="Start" />`];
  const flows: string[] = [];
  const di = [shape("Start", 0, 22, 36, 36)];
  const edges: string[] = [];
  let prev = "Start";
  let x = 0;
  for (let i = 0; i < n; i++) {
    const id = `A${String(i)}`;
    nodes.push(
      `    <bpmn:serviceTask id="${id}" name="Agent ${String(i)}"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="3" /></bpmn:extensionElements></bpmn:serviceTask>`,
    );
    flows.push(
      `    <bpmn:sequenceFlow id="F${String(i)}" sourceRef="${prev}" targetRef="${id}" />`,
    );
    edges.push(
      edge(`F${String(i)}`, [
        [x + 36, 40],
        [x + 80, 40],
      ]),
    );
    x += 80;
    di.push(shape(id, x, 0, 100, 80));
    x += 100;
    prev = id;
  }
  nodes.push(
    `    <bpmn:exclusiveGateway id="Split" />`,
    `    <bpmn:userTask id="Review"><bpmn:extensionElements><btv:gate /></bpmn:extensionElements></bpmn:userTask>`,
    `    <bpmn:endEvent id="End" />`,
  );
  flows.push(
    `    <bpmn:sequenceFlow id="FS" sourceRef="${prev}" targetRef="Split" />`,
    `    <bpmn:sequenceFlow id="FR" sourceRef="Split" targetRef="Review" />`,
    `    <bpmn:sequenceFlow id="FE" sourceRef="Split" targetRef="End" />`,
    `    <bpmn:sequenceFlow id="FRE" sourceRef="Review" targetRef="End" />`,
  );
  di.push(
    shape("Split", x + 50, 15, 50, 50, ` isMarkerVisible="true"`),
    shape("Review", x + 150, 120, 100, 80),
    shape("End", x + 300, 22, 36, 36),
  );
  edges.push(
    edge("FS", [
      [x, 40],
      [x + 50, 40],
    ]),
    edge("FR", [
      [x + 75, 65],
      [x + 75, 160],
      [x + 150, 160],
    ]),
    edge("FE", [
      [x + 100, 40],
      [x + 300, 40],
    ]),
    edge("FRE", [
      [x + 250, 160],
      [x + 318, 160],
      [x + 318, 58],
    ]),
  );
  return `${HEAD}
  <bpmn:process id="P">
${[...nodes, ...flows].join("\n")}
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Di"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
${[...di, ...edges].join("\n")}
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}

async function svgOfChain(n: number): Promise<{ svg: string; bypasses: number }> {
  const report = await auditProcessReport({ file: "chain.bpmn", text: chain(n), tools: {} });
  const bypasses =
    report.process?.rules.find((r) => r.code === "AGENT_GATE_BYPASS")?.diagnostics.length ?? 0;
  const html = renderAuditHtml(report);
  return { svg: /<svg class="diagram process"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "", bypasses };
}

describe("the bypass layer", () => {
  it("draws each flow and element on any bypass path once, and links a bounded number of findings", async () => {
    const small = await svgOfChain(150);
    const big = await svgOfChain(600);
    expect(small.bypasses).toBe(150);
    expect(big.bypasses).toBe(600);
    for (const [{ svg }, n] of [
      [small, 150],
      [big, 600],
    ] as const) {
      expect(svg.match(/<g class="bypass"/g)?.length).toBe(1);
      expect(svg).toContain(`<g class="bypass" data-findings="${String(n)}">`);
      // One ring per element on a path: the n tasks, the gateway and the end.
      expect(svg.match(/<rect class="bypass-ring"/g)?.length).toBe(n + 2);
      // One segment per flow on a path: n - 1 between tasks, then FS and FE.
      const line = /<path class="bypass-line" d="([^"]*)"/.exec(svg)?.[1] ?? "";
      expect(line.match(/M/g)?.length).toBe(n + 1);
      expect(svg.match(/<g class="bypass-finding"/g)?.length).toBe(20);
    }
    // Four times the tasks, at most about four times the bytes (quadratic would be sixteen).
    expect(big.svg.length / small.svg.length).toBeLessThan(4.6);
    expect(big.svg.length / 600).toBeLessThan(small.svg.length / 150 + 200);
  }, 60_000);
});

/** An expanded sub-process holding an agent task; the path leaves it by the flow Sub → Split. */
const SUB = `${HEAD}
  <bpmn:process id="P">
    <bpmn:startEvent id="Start" />
    <bpmn:subProcess id="Sub" name="Draft">
      <bpmn:startEvent id="InnerStart" />
      <bpmn:serviceTask id="Agent"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="3" /></bpmn:extensionElements></bpmn:serviceTask>
      <bpmn:endEvent id="InnerEnd" />
      <bpmn:sequenceFlow id="I1" sourceRef="InnerStart" targetRef="Agent" />
      <bpmn:sequenceFlow id="I2" sourceRef="Agent" targetRef="InnerEnd" />
    </bpmn:subProcess>
    <bpmn:exclusiveGateway id="Split" />
    <bpmn:userTask id="Review"><bpmn:extensionElements><btv:gate /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="End" />
    <bpmn:endEvent id="End2" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Sub" />
    <bpmn:sequenceFlow id="F2" sourceRef="Sub" targetRef="Split" />
    <bpmn:sequenceFlow id="F3" sourceRef="Split" targetRef="Review" />
    <bpmn:sequenceFlow id="F4" sourceRef="Review" targetRef="End" />
    <bpmn:sequenceFlow id="F5" sourceRef="Split" targetRef="End2" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Di"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
${shape("Start", 0, 122, 36, 36)}
${shape("Sub", 80, 40, 400, 200, ` isExpanded="true"`)}
${shape("InnerStart", 110, 122, 36, 36)}
${shape("Agent", 200, 100, 100, 80)}
${shape("InnerEnd", 380, 122, 36, 36)}
${shape("Split", 560, 115, 50, 50, ` isMarkerVisible="true"`)}
${shape("Review", 680, 20, 100, 80)}
${shape("End", 860, 42, 36, 36)}
${shape("End2", 860, 202, 36, 36)}
${edge("F1", [
  [36, 140],
  [80, 140],
])}
${edge("I1", [
  [146, 140],
  [200, 140],
])}
${edge("I2", [
  [300, 140],
  [380, 140],
])}
${edge("F2", [
  [480, 140],
  [560, 140],
])}
${edge("F3", [
  [585, 115],
  [585, 60],
  [680, 60],
])}
${edge("F4", [
  [780, 60],
  [860, 60],
])}
${edge("F5", [
  [585, 165],
  [585, 220],
  [860, 220],
])}
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;

async function subDiagram(): Promise<ProcessDiagram> {
  const { definitions } = await readProcess(SUB);
  if (definitions === undefined) throw new Error("unreadable");
  const [d] = readProcessDiagrams(definitions, hasGateMarker);
  if (d === undefined) throw new Error("no diagram");
  return d;
}

describe("a bypass path that leaves a sub-process", () => {
  const marks: ProcessMarks = {
    agents: new Map([["Agent", { level: 3, mark: "bypassed", href: "#finding-1", findings: 1 }]]),
    bypasses: [
      { taskId: "Agent", path: ["Agent", "InnerEnd", "Split", "End2"], finding: 1, listed: true },
    ],
  };

  it("follows the flow out of the sub-process in the SVG, not a line across its frame", async () => {
    const svg = renderProcessSvg(layoutFromDi(await subDiagram()), marks, {
      idPrefix: "p",
      title: "t",
    });
    const line = /<path class="bypass-line" d="([^"]*)"/.exec(svg)?.[1];
    // The DI's waypoints of I2, F2 (Sub → Split) and F5, moved by the picture's margin (24, 4).
    expect(line).toBe("M324,144 L404,144 M504,144 L584,144 M609,169 L609,224 L884,224");
  });

  it("styles the link out of the sub-process in the Mermaid chart", async () => {
    const chart = processMermaid(await subDiagram(), marks);
    const links = chart.split("\n").filter((l) => /^ {2}n\d+ -->/.test(l));
    // Sub is the subgraph n1, Split n2, End2 n5, Agent n7, InnerEnd n8.
    expect(chart).toContain('  subgraph n1["Draft"]');
    expect([links[1], links[4], links[6]]).toEqual(["  n1 --> n2", "  n2 --> n5", "  n7 --> n8"]);
    expect(chart).toContain("  linkStyle 1,4,6 stroke:#b42318");
  });
});

describe("the Mermaid chart's length", () => {
  it("cuts escaped labels and says why a chart over Mermaid's limit is not printed", async () => {
    const name = `"<${"x".repeat(50)}>&`.repeat(40);
    const tasks = Array.from({ length: 240 }, (_, i) => `T${String(i)}`);
    const xml = `${HEAD}
  <bpmn:process id="P">
    <bpmn:startEvent id="Start" />
${tasks.map((t) => `    <bpmn:task id="${t}" name="${name.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")}" />`).join("\n")}
    <bpmn:endEvent id="End" />
${[...["Start", ...tasks].map((a, i) => `    <bpmn:sequenceFlow id="F${String(i)}" sourceRef="${a}" targetRef="${tasks[i] ?? "End"}" />`)].join("\n")}
  </bpmn:process>
</bpmn:definitions>`;
    const report = await auditProcessReport({ file: "long.bpmn", text: xml, tools: {} });
    const markdown = renderAuditMarkdown(report);
    expect(markdown).not.toContain("flowchart LR");
    expect(markdown).toMatch(
      /Process chart not drawn: its Mermaid text would be [\d,]+ characters, over Mermaid's limit of 50,000\./,
    );
    // Each label is at most 200 escaped characters, cut between whole escapes.
    const diagram = report.process?.diagrams[0]?.diagram;
    if (diagram === undefined) throw new Error("no diagram");
    const few = processMermaid(diagram, { agents: new Map(), bypasses: [] })
      .split("\n")
      .filter((l) => /^ {2}n\d+\("/.test(l));
    for (const l of few) {
      const label = /\("(.*)"\)$/.exec(l)?.[1] ?? "";
      expect(label.length).toBeLessThanOrEqual(201);
      expect(label).toMatch(/(#\w+;|[^#;])…$/);
    }
    expect(few.length).toBe(240);
  });
});

describe("agent tasks inside a collapsed sub-process", () => {
  const collapsed = SUB.replace(' isExpanded="true"', ' isExpanded="false"').replace(
    '<dc:Bounds x="80" y="40" width="400" height="200" />',
    '<dc:Bounds x="380" y="100" width="100" height="80" />',
  );

  it("puts their count and worst status on the collapsed box", async () => {
    const report = await auditProcessReport({ file: "c.bpmn", text: collapsed, tools: {} });
    const svg = /<svg class="diagram process"[\s\S]*?<\/svg>/.exec(renderAuditHtml(report))?.[0];
    expect(svg).not.toContain('data-element-id="Agent"');
    expect(svg).toContain(
      '<g class="agent-badge hidden-agents status-bypassed" data-for="Sub" data-status="bypassed" data-agents="1">',
    );
    expect(svg).toContain(">1 agent · ✖ gate bypassed</text>");
  });

  it("names the worst of several", async () => {
    const { definitions } = await readProcess(collapsed);
    if (definitions === undefined) throw new Error("unreadable");
    const [d] = readProcessDiagrams(definitions, hasGateMarker);
    if (d === undefined) throw new Error("no diagram");
    const mark = (m: "reached" | "missing" | "not-needed") =>
      ({ level: 3, mark: m, href: undefined, findings: 0 }) as const;
    const svg = renderProcessSvg(
      layoutFromDi(d),
      {
        agents: new Map([
          ["InnerStart", mark("reached")],
          ["Agent", mark("missing")],
          ["InnerEnd", mark("not-needed")],
        ]),
        bypasses: [],
      },
      { idPrefix: "p", title: "t" },
    );
    expect(svg).toContain('data-for="Sub" data-status="missing" data-agents="3"');
    expect(svg).toContain(">3 agents · ✖ gate missing</text>");
    expect(svg.match(/class="agent-badge/g)?.length).toBe(1);
  });
});
