/**
 * A deterministic generator of realistic BPMN processes for the gate-check benchmark: chains of
 * tasks, exclusive gateways whose branches rejoin, nested sub-processes, timer boundary events,
 * loops back through a joining gateway, and an agent task (`btv:agentTask`) about every 20 flow
 * nodes. Most agent tasks are followed directly by a user task marked `<btv:gate/>`; a known few
 * bypass it (a default branch or a timer boundary event that ends the process ungated). Elements
 * carry names, `incoming`/`outgoing`, conditions and BPMN DI (a shape with bounds for every flow
 * node, sub-processes expanded around their children, boundary events on their host's edge, and
 * an edge with waypoints for every sequence flow) as a modeller writes them.
 */
import { BTV_URI } from "../src/bpmn/index.js";

/** The workflow every generated agent task refers to. */
export const BENCH_AGENT_REF = "agnt-x@1.0.0";

/** What the generator built, for checking the verdicts it intended. */
export interface GeneratedProcess {
  readonly xml: string;
  /** Flow nodes of every kind, in all containers (events, tasks, gateways, sub-processes). */
  readonly flowNodes: number;
  readonly sequenceFlows: number;
  /** Ids of the agent tasks, in document order of generation. */
  readonly agentTasks: readonly string[];
  /** Agent tasks every path from which passes a gate. */
  readonly gatedAgents: readonly string[];
  /** Agent tasks with a gate-free path to an end (AGENT_GATE_BYPASS). */
  readonly bypassingAgents: readonly string[];
  /** Ids of the user tasks marked `<btv:gate/>`. */
  readonly gates: readonly string[];
  /** Flow nodes by BPMN element name (`subProcess`, `boundaryEvent`, `exclusiveGateway`, ...). */
  readonly elements: Readonly<Record<string, number>>;
  /** Deepest sub-process nesting (1 = a sub-process directly in the process). */
  readonly maxDepth: number;
  readonly loops: number;
}

interface Flow {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly condition: string | undefined;
}

interface Node {
  readonly id: string;
  readonly tag: string;
  readonly name: string;
  readonly attrs?: string;
  /** Extension element XML (`btv:agentTask`, `btv:gate`). */
  readonly ext?: string;
  /** Content after incoming/outgoing (event definitions). */
  readonly body?: string;
  readonly children?: Container;
  readonly incoming: string[];
  readonly outgoing: Flow[];
}

interface Container {
  readonly nodes: Node[];
  readonly flows: Flow[];
}

/** Flow nodes each block adds (`sub` adds 4 per level of nesting). */
const BLOCK_SIZES = {
  tasks: 2,
  xor: 5,
  boundary: 4,
  loop: 4,
  sub: 4,
  agent: 2,
  "agent-in-sub": 5,
  "bypass-xor": 4,
  "bypass-boundary": 4,
} as const;

type Block = keyof typeof BLOCK_SIZES;

const AGENT_XML = `<btv:agentTask agentWorkflowRef="${BENCH_AGENT_REF}" autonomyLevel="2" />`;
const GATE_XML = `<btv:gate approverRole="reviewer" />`;
const TIMER =
  '<bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>';

/** The agent block of round `r`: 2 of every 25 bypass, one in three of the rest is nested. */
function agentBlock(r: number): Block {
  if (r % 25 === 7) return "bypass-xor";
  if (r % 25 === 19) return "bypass-boundary";
  return r % 3 === 2 ? "agent-in-sub" : "agent";
}

/** The blocks of round `r`, about 20 flow nodes holding one agent task. */
function round(r: number): Block[] {
  const blocks: Block[] = ["tasks", "xor", agentBlock(r), "boundary", "loop"];
  if (r % 2 === 1) blocks.push("sub");
  return blocks;
}

const depthOf = (r: number): number => 1 + (r % 3);

const blockSize = (block: Block, r: number): number =>
  BLOCK_SIZES[block] * (block === "sub" ? depthOf(r) : 1);

class Builder {
  private next = 0;
  flowNodes = 0;
  sequenceFlows = 0;
  maxDepth = 0;
  loops = 0;
  readonly elements: Record<string, number> = {};
  readonly agents: string[] = [];
  readonly gated: string[] = [];
  readonly bypassing: string[] = [];
  readonly gates: string[] = [];

  node(c: Container, tag: string, name: string, extra: Partial<Node> = {}): Node {
    const id = `${tag.charAt(0).toUpperCase()}${tag.slice(1)}_${++this.next}`;
    const node: Node = { id, tag, name, incoming: [], outgoing: [], ...extra };
    c.nodes.push(node);
    this.flowNodes++;
    this.elements[tag] = (this.elements[tag] ?? 0) + 1;
    return node;
  }

  flow(c: Container, from: Node, to: Node, condition?: string): void {
    const flow: Flow = { id: `Flow_${++this.next}`, source: from.id, target: to.id, condition };
    c.flows.push(flow);
    from.outgoing.push(flow);
    to.incoming.push(flow.id);
    this.sequenceFlows++;
  }

  chain(c: Container, prev: Node, tag: string, name: string, extra: Partial<Node> = {}): Node {
    const node = this.node(c, tag, name, extra);
    this.flow(c, prev, node);
    return node;
  }

  gate(c: Container, prev: Node): Node {
    const gate = this.chain(c, prev, "userTask", "Approve agent result", { ext: GATE_XML });
    this.gates.push(gate.id);
    return gate;
  }

  agent(c: Container, prev: Node, gated: boolean): Node {
    const agent = this.chain(c, prev, "serviceTask", "Run agent", { ext: AGENT_XML });
    this.agents.push(agent.id);
    (gated ? this.gated : this.bypassing).push(agent.id);
    return agent;
  }

  /** A sub-process with start and end events around `fill`, which chains from the start. */
  sub(c: Container, prev: Node, depth: number, fill: (inner: Container, s: Node) => Node): Node {
    const inner: Container = { nodes: [], flows: [] };
    const sub = this.chain(c, prev, "subProcess", `Stage at depth ${depth}`, { children: inner });
    this.maxDepth = Math.max(this.maxDepth, depth);
    const start = this.node(inner, "startEvent", "Stage started");
    this.chain(inner, fill(inner, start), "endEvent", "Stage done");
    return sub;
  }

  nested(c: Container, prev: Node, level: number, depth: number): Node {
    return this.sub(c, prev, level, (inner, start) => {
      const work = this.chain(inner, start, "scriptTask", "Prepare stage");
      return level < depth ? this.nested(inner, work, level + 1, depth) : work;
    });
  }

  block(c: Container, prev: Node, block: Block, r: number): Node {
    switch (block) {
      case "tasks":
        return this.chain(c, this.chain(c, prev, "serviceTask", "Fetch"), "scriptTask", "Map");
      case "xor": {
        const split = this.chain(c, prev, "exclusiveGateway", "Amount high?");
        const join = this.node(c, "exclusiveGateway", "");
        this.flow(c, this.chain(c, split, "serviceTask", "Standard handling"), join);
        const high = this.node(c, "userTask", "Check amount");
        this.flow(c, split, high, "=amount > 1000");
        this.flow(c, this.chain(c, high, "serviceTask", "Book high amount"), join);
        return join;
      }
      case "boundary": {
        const call = this.chain(c, prev, "serviceTask", "Call partner");
        const join = this.node(c, "exclusiveGateway", "");
        this.flow(c, call, join);
        const timeout = this.node(c, "boundaryEvent", "Partner late", {
          attrs: ` attachedToRef="${call.id}"`,
          body: TIMER,
        });
        this.flow(c, this.chain(c, timeout, "sendTask", "Send reminder"), join);
        return join;
      }
      case "loop": {
        this.loops++;
        const join = this.chain(c, prev, "exclusiveGateway", "");
        const check = this.chain(c, this.chain(c, join, "scriptTask", "Draft"), "task", "Review");
        const split = this.chain(c, check, "exclusiveGateway", "Draft ok?");
        this.flow(c, split, join, "=not(ok)");
        return split;
      }
      case "sub":
        return this.nested(c, prev, 1, depthOf(r));
      case "agent":
        return this.gate(c, this.agent(c, prev, true));
      case "agent-in-sub":
        return this.sub(c, prev, 1, (inner, s) => this.gate(inner, this.agent(inner, s, true)));
      case "bypass-xor": {
        const split = this.chain(c, this.agent(c, prev, false), "exclusiveGateway", "Risky?");
        const gate = this.node(c, "userTask", "Approve agent result", { ext: GATE_XML });
        this.gates.push(gate.id);
        this.flow(c, split, gate, "=risk > 0.5");
        this.chain(c, split, "endEvent", "Auto-approved");
        return gate;
      }
      case "bypass-boundary": {
        const agent = this.agent(c, prev, false);
        const late = this.node(c, "boundaryEvent", "Agent late", {
          attrs: ` attachedToRef="${agent.id}"`,
          body: TIMER,
        });
        this.chain(c, late, "endEvent", "Given up");
        return this.gate(c, agent);
      }
    }
  }
}

/** A shape's bounds. */
interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const SIZE: Readonly<Record<string, readonly [number, number]>> = {
  startEvent: [36, 36],
  endEvent: [36, 36],
  boundaryEvent: [36, 36],
  exclusiveGateway: [50, 50],
};

/**
 * Lays a container out left to right from `(x, y)`: each node in a row, a sub-process around its
 * own row one level down, a boundary event on its host's lower edge. Returns the row's extent.
 * Nesting is at most three levels deep, so the recursion is bounded by the generator.
 */
function layout(c: Container, x: number, y: number, boxes: Map<string, Box>): Box {
  let right = x;
  let bottom = y + 80;
  const hosts: Node[] = [];
  for (const n of c.nodes) {
    if (n.tag === "boundaryEvent") {
      hosts.push(n);
      continue;
    }
    let box: Box;
    if (n.children !== undefined) {
      const inner = layout(n.children, right + 30, y + 40, boxes);
      box = { x: right, y, width: inner.width + 60, height: inner.height + 80 };
    } else {
      const [width, height] = SIZE[n.tag] ?? [100, 80];
      box = { x: right, y: y + (80 - height) / 2, width, height };
    }
    boxes.set(n.id, box);
    right = box.x + box.width + 50;
    bottom = Math.max(bottom, box.y + box.height);
  }
  for (const n of hosts) {
    const ref = /attachedToRef="([^"]+)"/.exec(n.attrs ?? "")?.[1] ?? "";
    const host = boxes.get(ref) ?? { x, y, width: 100, height: 80 };
    boxes.set(n.id, { x: host.x + 30, y: host.y + host.height - 18, width: 36, height: 36 });
  }
  return { x, y, width: right - x, height: bottom - y };
}

function diagram(main: Container, processId: string): string {
  const boxes = new Map<string, Box>();
  layout(main, 150, 80, boxes);
  const out: string[] = [
    '  <bpmndi:BPMNDiagram id="BPMNDiagram_1">',
    `    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${processId}">`,
  ];
  const center = (id: string): string => {
    const b = boxes.get(id) ?? { x: 0, y: 0, width: 0, height: 0 };
    return `<di:waypoint x="${b.x + b.width / 2}" y="${b.y + b.height / 2}" />`;
  };
  const pending: Container[] = [main];
  for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
    for (const n of c.nodes) {
      const b = boxes.get(n.id);
      if (b === undefined) continue;
      const expanded = n.children === undefined ? "" : ' isExpanded="true"';
      out.push(
        `      <bpmndi:BPMNShape id="${n.id}_di" bpmnElement="${n.id}"${expanded}><dc:Bounds x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" /></bpmndi:BPMNShape>`,
      );
      if (n.children !== undefined) pending.push(n.children);
    }
    for (const f of c.flows) {
      out.push(
        `      <bpmndi:BPMNEdge id="${f.id}_di" bpmnElement="${f.id}">${center(f.source)}${center(f.target)}</bpmndi:BPMNEdge>`,
      );
    }
  }
  out.push("    </bpmndi:BPMNPlane>", "  </bpmndi:BPMNDiagram>");
  return out.join("\n");
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function serialize(c: Container, indent: string): string {
  const out: string[] = [];
  for (const n of c.nodes) {
    const flowOut =
      n.outgoing.length > 1 ? n.outgoing.find((f) => f.condition === undefined) : undefined;
    const def =
      n.tag === "exclusiveGateway" && flowOut !== undefined ? ` default="${flowOut.id}"` : "";
    const name = n.name === "" ? "" : ` name="${n.name}"`;
    out.push(`${indent}<bpmn:${n.tag} id="${n.id}"${name}${n.attrs ?? ""}${def}>`);
    const inner = indent + "  ";
    if (n.ext !== undefined) {
      out.push(`${inner}<bpmn:extensionElements>${n.ext}</bpmn:extensionElements>`);
    }
    for (const f of n.incoming) out.push(`${inner}<bpmn:incoming>${f}</bpmn:incoming>`);
    for (const f of n.outgoing) out.push(`${inner}<bpmn:outgoing>${f.id}</bpmn:outgoing>`);
    if (n.body !== undefined) out.push(inner + n.body);
    if (n.children !== undefined) out.push(serialize(n.children, inner));
    out.push(`${indent}</bpmn:${n.tag}>`);
  }
  for (const f of c.flows) {
    const head = `${indent}<bpmn:sequenceFlow id="${f.id}" sourceRef="${f.source}" targetRef="${f.target}"`;
    if (f.condition === undefined) {
      out.push(`${head} />`);
      continue;
    }
    const condition = escapeXml(f.condition);
    out.push(
      `${head} name="${condition}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`,
    );
  }
  return out.join("\n");
}

/**
 * A process of exactly `size` flow nodes (at least 2). Deterministic: the same size gives the
 * same document. Rounds of blocks are added while they fit; plain tasks fill the remainder.
 */
export function generateBpmnProcess(size: number): GeneratedProcess {
  if (!Number.isInteger(size) || size < 2) throw new RangeError(`size must be ≥ 2, got ${size}`);
  const b = new Builder();
  const main: Container = { nodes: [], flows: [] };
  let prev = b.node(main, "startEvent", "Order received");
  fill: for (let r = 0; ; r++) {
    for (const block of round(r)) {
      if (b.flowNodes + blockSize(block, r) > size - 1) break fill;
      prev = b.block(main, prev, block, r);
    }
  }
  while (b.flowNodes < size - 1) prev = b.chain(main, prev, "task", "Record");
  b.chain(main, prev, "endEvent", "Order done");
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:btv="${BTV_URI}" id="Definitions_bench_${size}" targetNamespace="http://bpmn.io/schema/bpmn">`,
    `  <bpmn:process id="Process_bench_${size}" name="Generated process of ${size} flow nodes" isExecutable="true">`,
    serialize(main, "    "),
    "  </bpmn:process>",
    diagram(main, `Process_bench_${size}`),
    "</bpmn:definitions>",
    "",
  ].join("\n");
  return {
    xml,
    flowNodes: b.flowNodes,
    sequenceFlows: b.sequenceFlows,
    agentTasks: b.agents,
    gatedAgents: b.gated,
    bypassingAgents: b.bypassing,
    gates: b.gates,
    elements: b.elements,
    maxDepth: b.maxDepth,
    loops: b.loops,
  };
}
