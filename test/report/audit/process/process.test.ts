/**
 * The process picture's pure parts (issue 21): reading processes and DI from real BPMN, the two
 * layouts, the marks, the SVG and the Mermaid text, and the limits past which nothing is drawn.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ProcessDiagram } from "../../../../src/bpmn/index.js";
import { hasGateMarker, readProcess, readProcessDiagrams } from "../../../../src/bpmn/index.js";
import type { AgentTaskSummary } from "../../../../src/bpmn/index.js";
import type { ProcessMarks } from "../../../../src/report/audit/process/index.js";
import {
  badgeText,
  drawingNote,
  gateMark,
  layoutFromDi,
  layoutWithDagre,
  PROCESS_DI_LIMIT,
  processDrawing,
  processMermaid,
  renderProcessSvg,
} from "../../../../src/report/audit/process/index.js";
import { generateBpmnProcess } from "../../../../bench/bpmn-generate.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

async function diagrams(path: string): Promise<ProcessDiagram[]> {
  const { definitions } = await readProcess(readFileSync(ROOT + path, "utf8"));
  if (definitions === undefined) throw new Error(`unreadable ${path}`);
  return readProcessDiagrams(definitions, hasGateMarker);
}

/** `value`, which the test knows is there. */
function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("expected a value");
  return value;
}

const NO_MARKS: ProcessMarks = { agents: new Map(), bypasses: [] };

function ids(svg: string): string[] {
  return [...svg.matchAll(/<g class="el [^"]*" data-element-id="([^"]*)"/g)].map((m) => m[1] ?? "");
}

describe("reading a process for its picture", () => {
  it("reads the example's flow nodes, DI bounds, waypoints, boundary event and gates", async () => {
    const [d] = await diagrams("examples/processes/loan-origination.bpmn");
    const pool = d?.pools[0];
    expect(d?.id).toBe("LoanOrigination");
    expect(pool?.nodes.map((n) => n.id)).toEqual([
      "ApplicationReceived",
      "AssessCreditRisk",
      "RiskBand",
      "UnderwriterReview",
      "ReviewOverdue",
      "SeniorReview",
      "Approved",
      "DraftAndSendOffer",
      "OfferSent",
      "ApplicationDeclined",
    ]);
    const overdue = pool?.nodes.find((n) => n.id === "ReviewOverdue");
    expect(overdue).toMatchObject({
      type: "BoundaryEvent",
      trigger: "timer",
      attachedTo: "UnderwriterReview",
      bounds: { x: 532, y: 142, width: 36, height: 36 },
    });
    expect(pool?.nodes.filter((n) => n.gate).map((n) => n.id)).toEqual([
      "UnderwriterReview",
      "SeniorReview",
    ]);
    expect(pool?.flows.find((f) => f.id === "Flow_Standard")?.waypoints).toEqual([
      { x: 420, y: 175 },
      { x: 420, y: 120 },
      { x: 500, y: 120 },
    ]);
    expect(processDrawing(defined(d))).toEqual({
      mode: "di",
      hasDi: true,
      diOutOfRange: false,
      missingShapes: 0,
      nodes: 10,
      flows: 10,
      limit: PROCESS_DI_LIMIT,
    });
  });

  it("reads a collaboration as one diagram with a pool per participant, lanes and message flows", async () => {
    const all = await diagrams("test/fixtures/bpmn/miwg-reference/C.1.0.bpmn");
    expect(all).toHaveLength(1);
    const [d] = all;
    expect(d?.pools.length).toBe(2);
    expect(d?.pools.every((p) => p.participantId !== "" && p.bounds !== undefined)).toBe(true);
    expect(d?.pools.map((p) => p.lanes.length)).toEqual([1, 3]);
    expect(d?.messageFlows.length).toBe(5);
    const layout = layoutFromDi(defined(d));
    const svg = renderProcessSvg(layout, NO_MARKS, { idPrefix: "p", title: "A.4.0" });
    const nodes = d?.pools.flatMap((p) => p.nodes.map((n) => n.id)) ?? [];
    expect(new Set(ids(svg))).toEqual(new Set(nodes));
    expect(svg.match(/<g class="pool"/g)?.length).toBe(2);
    expect(svg.match(/<g class="lane"/g)?.length).toBe(4);
    expect(svg.match(/<g class="flow message"/g)?.length).toBe(5);
  });

  it("draws a collapsed sub-process with its marker and leaves its content out", async () => {
    const [d] = await diagrams("test/fixtures/bpmn/bpmn-js/collapsed-sub-process.bpmn");
    const drawing = processDrawing(defined(d));
    expect(drawing.mode).toBe("di");
    const layout = layoutFromDi(defined(d));
    expect(layout.hidden.size).toBeGreaterThan(0);
    const svg = renderProcessSvg(layout, NO_MARKS, { idPrefix: "p", title: "collapsed" });
    for (const hidden of layout.hidden.keys()) expect(ids(svg)).not.toContain(hidden);
  });

  it("lays out a process without DI with dagre, sub-processes around their content", async () => {
    // The file's DI taken away, as a process written by hand or by a generator has none.
    const xml = readFileSync(
      ROOT + "test/fixtures/bpmn/bpmnlint/no-bpmndi-valid-complex.bpmn",
      "utf8",
    );
    const cut = xml.replace(/<bpmndi:BPMNDiagram[\s\S]*<\/bpmndi:BPMNDiagram>/, "");
    expect(cut).not.toContain("BPMNShape");
    const { definitions } = await readProcess(cut);
    if (definitions === undefined) throw new Error("unreadable");
    const [d] = readProcessDiagrams(definitions, hasGateMarker);
    const diagram = defined(d);
    expect(processDrawing(diagram).mode).toBe("dagre");
    const layout = layoutWithDagre(diagram);
    const nodes = diagram.pools.flatMap((p) => p.nodes);
    expect(layout.nodes.map((p) => p.node.id).sort()).toEqual(nodes.map((n) => n.id).sort());
    const box = new Map(layout.nodes.map((p) => [p.node.id, p.box]));
    for (const n of nodes) {
      const parent = box.get(n.parent);
      const own = box.get(n.id);
      if (parent === undefined || own === undefined) continue;
      // Content lies inside its sub-process's frame.
      expect(own.x).toBeGreaterThanOrEqual(parent.x);
      expect(own.y).toBeGreaterThanOrEqual(parent.y);
      expect(own.x + own.width).toBeLessThanOrEqual(parent.x + parent.width + 0.1);
      expect(own.y + own.height).toBeLessThanOrEqual(parent.y + parent.height + 0.1);
    }
    expect(layout.flows.filter((f) => !f.message).length).toBe(
      diagram.pools.flatMap((p) => p.flows).length,
    );
    expect(layout.flows.filter((f) => f.message).length).toBe(diagram.messageFlows.length);
    expect(layout.pools.length).toBe(diagram.pools.length);
    expect(layout.flows.every((f) => f.points.length >= 2)).toBe(true);
    // The same input gives the same bytes.
    const a = renderProcessSvg(layout, NO_MARKS, { idPrefix: "p", title: "t" });
    expect(
      renderProcessSvg(layoutWithDagre(diagram), NO_MARKS, { idPrefix: "p", title: "t" }),
    ).toBe(a);
  });

  it("escapes every name and id in the SVG and the Mermaid text", () => {
    const hostile = '<script>alert(1)</script> "q" & `x`\n```';
    const base = {
      trigger: "",
      interrupting: true,
      parent: "",
      attachedTo: "",
      container: "",
      gate: false,
      bounds: undefined,
      expanded: false,
      label: undefined,
    } as const;
    const diagram: ProcessDiagram = {
      id: "P",
      name: hostile,
      messageFlows: [],
      pools: [
        {
          processId: "P",
          participantId: "",
          name: "",
          bounds: undefined,
          lanes: [],
          nodes: [
            { ...base, id: "a<b", name: hostile, type: "StartEvent" },
            { ...base, id: 'c"d', name: hostile, type: "UserTask", gate: true },
          ],
          flows: [
            {
              id: "f&1",
              name: hostile,
              source: "a<b",
              target: 'c"d',
              isDefault: false,
              conditional: false,
              waypoints: undefined,
              label: undefined,
            },
          ],
        },
      ],
    };
    const svg = renderProcessSvg(layoutWithDagre(diagram), NO_MARKS, {
      idPrefix: "p",
      title: hostile,
    });
    expect(svg).not.toContain("<script");
    expect(svg).toContain('data-element-id="a&lt;b"');
    expect(svg).toContain('data-element-id="c&quot;d"');
    expect(svg).toContain('data-element-id="f&amp;1"');
    const mermaid = processMermaid(diagram, NO_MARKS);
    expect(mermaid).not.toMatch(/<script|```|\n\n/);
    expect(mermaid.split("\n")[1]).toBe(
      '  n0(("#lt;script#gt;alert(1)#lt;/script#gt; #quot;q#quot; #amp; #96;x#96;\\n#96;#96;#96;"))',
    );
  });

  it("styles the bypass path's links with linkStyle and the agent task with its status", () => {
    const base = {
      trigger: "",
      interrupting: true,
      parent: "",
      attachedTo: "",
      container: "",
      gate: false,
      bounds: undefined,
      expanded: false,
      label: undefined,
    } as const;
    const flow = (id: string, source: string, target: string) => ({
      id,
      name: "",
      source,
      target,
      isDefault: false,
      conditional: false,
      waypoints: undefined,
      label: undefined,
    });
    const diagram: ProcessDiagram = {
      id: "P",
      name: "",
      messageFlows: [],
      pools: [
        {
          processId: "P",
          participantId: "",
          name: "",
          bounds: undefined,
          lanes: [],
          nodes: [
            { ...base, id: "S", name: "Start", type: "StartEvent" },
            { ...base, id: "A", name: "Agent", type: "ServiceTask" },
            { ...base, id: "X", name: "Risky?", type: "ExclusiveGateway" },
            { ...base, id: "G", name: "Approve", type: "UserTask", gate: true },
            { ...base, id: "E", name: "Done", type: "EndEvent" },
          ],
          flows: [
            flow("f0", "S", "A"),
            flow("f1", "A", "X"),
            flow("f2", "X", "G"),
            flow("f3", "G", "E"),
            flow("f4", "X", "E"),
          ],
        },
      ],
    };
    const marks: ProcessMarks = {
      agents: new Map([["A", { level: 3, mark: "bypassed", href: "#finding-1", findings: 1 }]]),
      bypasses: [{ taskId: "A", path: ["A", "X", "E"], finding: 1, listed: true }],
    };
    const mermaid = processMermaid(diagram, marks);
    expect(mermaid).toContain('  n1("Agent<br/>L3 · ✖ gate bypassed")');
    expect(mermaid).toContain('  n3("Approve<br/>◆ gate")');
    expect(mermaid).toContain("  class n1 bypassed");
    expect(mermaid).toContain("  class n3 gate");
    // Links 1 (A → X) and 4 (X → E) are the path's.
    expect(mermaid).toContain(
      "  linkStyle 1,4 stroke:#b42318,stroke-width:4px,stroke-dasharray:6 4",
    );
    const svg = renderProcessSvg(layoutWithDagre(diagram), marks, { idPrefix: "p", title: "t" });
    expect(svg).toContain(
      '<a href="#finding-1"><g class="bypass-finding" data-for="A" data-finding="1">',
    );
    expect(svg).toContain('<g class="bypass" data-findings="1">');
    expect(svg).toContain('data-status="bypassed"');
    expect(svg).toContain('<g class="gate-mark" data-for="G">');
    expect(svg.match(/<g class="bypass"/g)?.length).toBe(1);
    // Marks name their element in data-for: data-element-id is the element's shape's alone.
    for (const id of ["A", "G", "X", "E"]) {
      expect(svg.match(new RegExp(`data-element-id="${id}"`, "g"))?.length, id).toBe(1);
    }
    expect(
      renderProcessSvg(layoutWithDagre(diagram), NO_MARKS, { idPrefix: "p", title: "t" }),
    ).not.toContain('class="bypass"');
  });
});

describe("the marks of agent tasks", () => {
  it("gives each gate verdict and requirement its status and badge", () => {
    const task = (requirement: AgentTaskSummary["requirement"], gate: AgentTaskSummary["gate"]) =>
      gateMark({ resolution: "registry", requirement, gate });
    expect(task("required", "reached")).toBe("reached");
    expect(task("required", "missing")).toBe("missing");
    expect(task("required", "bypassed")).toBe("bypassed");
    expect(task("optional", "missing")).toBe("optional");
    expect(task("optional", "reached")).toBe("reached");
    expect(task("none", "missing")).toBe("not-needed");
    expect(badgeText({ level: null, mark: "not-needed", href: undefined, findings: 0 })).toBe(
      "L? · — no gate needed",
    );
    expect(badgeText({ level: 4, mark: "optional", href: undefined, findings: 1 })).toBe(
      "L4 · ⚠ gate optional",
    );
  });
});

describe("choosing the layout", () => {
  it("lays out with dagre when one flow node has no shape, and keeps every point in the picture", async () => {
    const xml = readFileSync(ROOT + "test/fixtures/processes/loan-fast-track.bpmn", "utf8");
    const partial = xml.replace(
      /<bpmndi:BPMNShape id="ReviewOverdue_di"[\s\S]*?<\/bpmndi:BPMNShape>/,
      "",
    );
    expect(partial).not.toContain("ReviewOverdue_di");
    const { definitions } = await readProcess(partial);
    const [d] = readProcessDiagrams(defined(definitions), hasGateMarker);
    const drawing = processDrawing(defined(d));
    expect(drawing).toMatchObject({ mode: "dagre", hasDi: false, missingShapes: 1, nodes: 10 });
    expect(drawingNote(drawing)).toBe(
      "Laid out by agentflow with dagre, left to right: the file's BPMN DI has no shape for 1 of its flow nodes (10 flow nodes and 11 flows).",
    );
    const layout = layoutWithDagre(defined(d));
    expect(layout.nodes).toHaveLength(10);
    // The boundary event sits on its host's lower edge.
    const host = layout.nodes.find((p) => p.node.id === "UnderwriterReview")?.box;
    const timer = layout.nodes.find((p) => p.node.id === "ReviewOverdue")?.box;
    expect(defined(timer).y + defined(timer).height / 2).toBe(
      defined(host).y + defined(host).height,
    );
    for (const f of layout.flows) {
      for (const p of f.points) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.y).toBeGreaterThanOrEqual(0);
        expect(p.x).toBeLessThanOrEqual(layout.width);
        expect(p.y).toBeLessThanOrEqual(layout.height);
      }
    }
  });
});

describe("the limits of the process picture", () => {
  // 2,500 without DI are ten times the limit: the decision counts, so more only costs reading
  // time (bench/report.ts times 50,000).
  it("draws 5,000 flow nodes from DI, and says why 2,500 without DI are not drawn", async () => {
    const small = generateBpmnProcess(5_000);
    const { definitions } = await readProcess(small.xml);
    if (definitions === undefined) throw new Error("unreadable");
    const [d] = readProcessDiagrams(definitions, hasGateMarker);
    expect(processDrawing(defined(d))).toMatchObject({ mode: "di", nodes: 5_000 });
    const svg = renderProcessSvg(layoutFromDi(defined(d)), NO_MARKS, {
      idPrefix: "p",
      title: "t",
    });
    expect(ids(svg)).toHaveLength(5_000);

    const big = generateBpmnProcess(2_500);
    const start = big.xml.indexOf("  <bpmndi:BPMNDiagram");
    const { definitions: bigDefs } = await readProcess(
      big.xml.slice(0, start) + "</bpmn:definitions>\n",
    );
    if (bigDefs === undefined) throw new Error("unreadable");
    const [bd] = readProcessDiagrams(bigDefs, hasGateMarker);
    const drawing = processDrawing(defined(bd));
    expect(drawing).toMatchObject({ mode: "none", hasDi: false, nodes: 2_500, limit: 250 });
    expect(drawingNote(drawing)).toBe(
      `Process not drawn: 2,500 flow nodes and ${big.sequenceFlows.toLocaleString("en-US")} flows exceed the limit of 250 flow nodes and 250 flows laid out without BPMN DI. The agent task table and the findings above name every agent task, its gate status and every bypass path.`,
    );
  }, 120_000);
});
