/**
 * The gate analysis against a brute-force oracle (issue 16). A random small process — a process
 * and nested sub-processes, tasks, gates (atomic and sub-process), one agent task, end events
 * that throw errors or escalations or terminate, and boundary events of every kind, with random
 * sequence flows (loops included) — is written as BPMN and checked; the oracle enumerates every
 * simple path of the same model, read straight from the BPMN semantics docs/bpmn.md states,
 * without the process graph, and says which verdict the agent task must get.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { GateStatus } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { agentWorkflow } from "../bpmn/builders.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty } from "./settings.js";

const FILE = "test/properties/bpmn-semantics.property.test.ts";

type Throw = "none" | "error" | "escalation" | "terminate";
type BoundaryKind =
  "timer" | "timer-non" | "error" | "escalation" | "escalation-non" | "compensation";

/** A flow node of the model. Containers are nodes with `children`. */
interface ModelNode {
  readonly id: string;
  readonly kind: "start" | "task" | "gate" | "agent" | "sub" | "gate-sub" | "end" | "boundary";
  /** The container index (0: the process). */
  readonly container: number;
  /** For a sub-process: the container it opens. */
  readonly opens?: number;
  readonly thrown?: Throw;
  /** For throwing ends and error/escalation boundaries: the error or escalation (`undefined`: catch-all). */
  readonly ref?: string | undefined;
  readonly boundary?: BoundaryKind;
  readonly host?: string;
}

interface Model {
  readonly nodes: readonly ModelNode[];
  /** Sequence flows by node id. */
  readonly flows: readonly (readonly [string, string])[];
  /** Per container: its parent container (-1 for the process) and its sub-process node id. */
  readonly containers: readonly { readonly parent: number; readonly node: string | undefined }[];
}

/** A tiny deterministic generator, so that a seed is a model (fast-check draws the seed). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const REFS = ["E1", "E2", undefined] as const;

/** A random model: 1 process, up to 2 sub-processes, 2–5 activities a container, random flows. */
export function randomModel(seed: number): Model {
  const rnd = random(seed);
  const nodes: ModelNode[] = [];
  const flows: [string, string][] = [];
  const containers: { parent: number; node: string | undefined }[] = [
    { parent: -1, node: undefined },
  ];
  let next = 0;
  const id = (prefix: string): string => `${prefix}${String(next++)}`;
  let agentPlaced = false;
  const fill = (container: number, depth: number): void => {
    const start: ModelNode = { id: id("S"), kind: "start", container };
    nodes.push(start);
    const activities: ModelNode[] = [];
    const count = 2 + rnd(4);
    for (let i = 0; i < count; i++) {
      const roll = rnd(10);
      const early = container === 0 && i === 0 && rnd(2) === 0;
      if (!agentPlaced && (early || roll < 2 || (container === 0 && i === count - 1))) {
        agentPlaced = true;
        activities.push({ id: id("A"), kind: "agent", container });
      } else if (roll < 4) {
        activities.push({ id: id("G"), kind: "gate", container });
      } else if (roll < 6 && depth < 2 && containers.length < 3) {
        const opens = containers.length;
        const node: ModelNode = {
          id: id("Sub"),
          kind: rnd(4) === 0 ? "gate-sub" : "sub",
          container,
          opens,
        };
        containers.push({ parent: container, node: node.id });
        activities.push(node);
      } else {
        activities.push({ id: id("T"), kind: "task", container });
      }
    }
    const ends: ModelNode[] = [];
    const endCount = 1 + rnd(2);
    for (let i = 0; i < endCount; i++) {
      const thrown =
        (["none", "none", "error", "escalation", "terminate"] as const)[rnd(5)] ?? "none";
      const ref =
        thrown === "error" || thrown === "escalation" ? (REFS[rnd(2)] ?? "E1") : undefined;
      ends.push({ id: id("End"), kind: "end", container, thrown, ref });
    }
    nodes.push(...activities, ...ends);
    const targets = [...activities, ...ends];
    const pick = (): string => targets[rnd(targets.length)]?.id ?? "";
    flows.push([start.id, activities[0]?.id ?? pick()]);
    for (const a of activities) {
      const outs = rnd(4) === 0 ? 0 : 1 + rnd(2);
      for (let k = 0; k < outs; k++) flows.push([a.id, pick()]);
    }
    for (const a of activities) {
      if (rnd(3) !== 0) continue;
      const boundary = (
        ["timer", "timer-non", "error", "escalation", "escalation-non", "compensation"] as const
      )[rnd(6)];
      if (boundary === undefined) continue;
      const ref =
        boundary.startsWith("error") || boundary.startsWith("escalation")
          ? REFS[rnd(3)]
          : undefined;
      const b: ModelNode = { id: id("B"), kind: "boundary", container, boundary, host: a.id, ref };
      nodes.push(b);
      if (boundary !== "compensation" && rnd(4) !== 0) flows.push([b.id, pick()]);
    }
    for (const a of activities) if (a.opens !== undefined) fill(a.opens, depth + 1);
  };
  fill(0, 0);
  return { nodes, flows, containers };
}

const NS = [
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"',
  'xmlns:btv="https://agentflow.dev/schema/btv/1.0"',
].join(" ");

/** The model as BPMN XML. */
export function modelXml(model: Model): string {
  const inside = (container: number): string =>
    model.nodes
      .filter((n) => n.container === container)
      .map((n) => nodeXml(n))
      .join("") +
    model.flows
      .filter(([from]) => model.nodes.find((n) => n.id === from)?.container === container)
      .map(
        ([from, to], k) =>
          `<bpmn:sequenceFlow id="F_${from}_${to}_${String(k)}" sourceRef="${from}" targetRef="${to}"/>`,
      )
      .join("");
  const gateExt = "<bpmn:extensionElements><btv:gate/></bpmn:extensionElements>";
  const refAttr = (name: string, ref: string | undefined): string =>
    ref === undefined ? "" : ` ${name}="${ref}"`;
  const nodeXml = (n: ModelNode): string => {
    switch (n.kind) {
      case "start":
        return `<bpmn:startEvent id="${n.id}"/>`;
      case "task":
        return `<bpmn:task id="${n.id}"/>`;
      case "gate":
        return `<bpmn:userTask id="${n.id}">${gateExt}</bpmn:userTask>`;
      case "agent":
        return `<bpmn:serviceTask id="${n.id}"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:serviceTask>`;
      case "sub":
      case "gate-sub":
        return `<bpmn:subProcess id="${n.id}">${n.kind === "gate-sub" ? gateExt : ""}${inside(n.opens ?? -1)}</bpmn:subProcess>`;
      case "end": {
        const def =
          n.thrown === "error"
            ? `<bpmn:errorEventDefinition${refAttr("errorRef", n.ref)}/>`
            : n.thrown === "escalation"
              ? `<bpmn:escalationEventDefinition${refAttr("escalationRef", n.ref)}/>`
              : n.thrown === "terminate"
                ? "<bpmn:terminateEventDefinition/>"
                : "";
        return `<bpmn:endEvent id="${n.id}">${def}</bpmn:endEvent>`;
      }
      case "boundary": {
        const b = n.boundary ?? "timer";
        const cancel = b.endsWith("-non") ? ' cancelActivity="false"' : "";
        const def =
          b === "compensation"
            ? "<bpmn:compensateEventDefinition/>"
            : b === "error"
              ? `<bpmn:errorEventDefinition${refAttr("errorRef", n.ref)}/>`
              : b.startsWith("escalation")
                ? `<bpmn:escalationEventDefinition${refAttr("escalationRef", n.ref)}/>`
                : "<bpmn:timerEventDefinition/>";
        return `<bpmn:boundaryEvent id="${n.id}" attachedToRef="${n.host ?? ""}"${cancel}>${def}</bpmn:boundaryEvent>`;
      }
    }
  };
  const errors =
    '<bpmn:error id="E1" errorCode="C1"/><bpmn:error id="E2" errorCode="C2"/>' +
    '<bpmn:escalation id="E1x" escalationCode="X1"/>';
  // Escalation refs point at escalations: the same two names, their own elements.
  const xml = `<bpmn:definitions ${NS} id="D" targetNamespace="x">${errors}<bpmn:escalation id="E2x" escalationCode="X2"/><bpmn:process id="P">${inside(0)}</bpmn:process></bpmn:definitions>`;
  return xml.replace(/escalationRef="(E[12])"/g, 'escalationRef="$1x"');
}

/** A position of the oracle's walk. */
type Position = `enter:${string}` | `done:${string}` | `exit:${number}` | "END";

/**
 * The oracle: every simple path from the agent task, by the semantics as docs/bpmn.md states
 * them, enumerated depth first. `missing` when no path enters a gate, `bypassed` when some path
 * reaches the process's end without completing one, else `reached`.
 */
export function oracleVerdict(model: Model): GateStatus {
  const byId = new Map(model.nodes.map((n) => [n.id, n]));
  const outgoing = (id: string): string[] =>
    model.flows.filter(([f]) => f === id).map(([, t]) => t);
  const boundariesOf = (id: string): ModelNode[] =>
    model.nodes.filter(
      (n) => n.kind === "boundary" && n.host === id && n.boundary !== "compensation",
    );
  const subNode = (container: number): ModelNode | undefined => {
    const c = model.containers[container];
    return c?.node === undefined ? undefined : byId.get(c.node);
  };
  /** Boundaries that can fire while something inside `container` runs (its sub-process and up). */
  const enclosing = (container: number): ModelNode[] => {
    const out: ModelNode[] = [];
    for (let c = container; c > 0; c = model.containers[c]?.parent ?? -1) {
      const sub = subNode(c);
      if (sub !== undefined) out.push(...boundariesOf(sub.id));
    }
    return out;
  };
  const isInterrupting = (b: ModelNode): boolean =>
    b.boundary === "timer" || b.boundary === "error" || b.boundary === "escalation";
  const ending = (container: number): Position => (container === 0 ? "END" : `exit:${container}`);
  /**
   * To a boundary event, however it was triggered: a non-interrupting one leaves its host
   * running, so on a gate's it counts as passing the gate; an interrupting one cancels it.
   */
  const via = (b: ModelNode): readonly [Position, boolean] => {
    const host = byId.get(b.host ?? "")?.kind;
    return [`done:${b.id}`, (host === "gate" || host === "gate-sub") && !isInterrupting(b)];
  };
  /** The catchers of a thrown event from `container` outwards. */
  const catchers = (end: ModelNode): ModelNode[] => {
    const wanted = end.thrown === "error" ? "error" : "escalation";
    for (let c = end.container; c > 0; c = model.containers[c]?.parent ?? -1) {
      const sub = subNode(c);
      if (sub === undefined) continue;
      const candidates = boundariesOf(sub.id).filter((b) => (b.boundary ?? "").startsWith(wanted));
      const named = candidates.filter((b) => b.ref !== undefined && b.ref === end.ref);
      const found = named.length > 0 ? named : candidates.filter((b) => b.ref === undefined);
      if (found.length > 0) return found;
    }
    return [];
  };
  /** Steps from a position, each with whether the step completes a gate. */
  const steps = (p: Position): (readonly [Position, boolean])[] => {
    if (p === "END") return [];
    if (p.startsWith("exit:")) {
      const sub = subNode(Number(p.slice(5)));
      if (sub === undefined) return [];
      return [[`done:${sub.id}`, sub.kind === "gate-sub"]];
    }
    const id = p.slice(p.indexOf(":") + 1);
    const n = byId.get(id);
    if (n === undefined) return [];
    const continueFrom = (node: ModelNode): (readonly [Position, boolean])[] => {
      const outs = outgoing(node.id);
      if (outs.length === 0) return [[ending(node.container), false]];
      return outs.map((t) => [`enter:${t}`, false] as const);
    };
    if (p.startsWith("done:")) return continueFrom(n);
    // Entered. Anything running inside a sub-process may trigger its boundaries.
    const around = enclosing(n.container).map(via);
    switch (n.kind) {
      case "start":
      case "boundary":
        return [...continueFrom(n), ...around];
      case "task":
      case "agent":
      case "gate": {
        return [[`done:${n.id}`, n.kind === "gate"], ...boundariesOf(n.id).map(via), ...around];
      }
      case "sub":
      case "gate-sub": {
        const starts = model.nodes.filter((c) => c.container === n.opens && c.kind === "start");
        const own = boundariesOf(n.id).map(via);
        return [...starts.map((s) => [`enter:${s.id}`, false] as const), ...own, ...around];
      }
      case "end": {
        if (n.thrown === "error" || n.thrown === "escalation") {
          const found = catchers(n);
          const to = found.map(via);
          if (n.thrown === "error")
            return [...(found.length > 0 ? to : [["END", false] as const]), ...around];
          const cancels = found.some(isInterrupting);
          return [...to, ...(cancels ? [] : [[ending(n.container), false] as const]), ...around];
        }
        return [[ending(n.container), false], ...around];
      }
    }
  };
  const agent = model.nodes.find((n) => n.kind === "agent");
  if (agent === undefined) throw new Error("the model has no agent task");
  // Set by `push`, a closure: an object, so that the checker sees them change.
  const seen = { gate: false, ungatedEnd: false };
  const onPath = new Set<Position>();
  // Depth first over simple paths, with the gate flag; iterative, as the suite's graph walks are.
  const stack: { p: Position; gated: boolean; next: (readonly [Position, boolean])[] }[] = [];
  const push = (p: Position, gated: boolean): void => {
    onPath.add(p);
    if (p.startsWith("enter:")) {
      const kind = byId.get(p.slice(6))?.kind;
      if (kind === "gate" || kind === "gate-sub") seen.gate = true;
    }
    if (p === "END" && !gated) seen.ungatedEnd = true;
    stack.push({ p, gated, next: steps(p) });
  };
  // The agent has run: its completion, its boundaries, and the boundaries around it.
  for (const [p, passes] of steps(`enter:${agent.id}`)) {
    push(p, passes);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const step = top.next.pop();
      if (step === undefined) {
        onPath.delete(top.p);
        stack.pop();
        continue;
      }
      const [to, completes] = step;
      const gated = top.gated || completes;
      if (onPath.has(to) || (gated && seen.gate)) continue;
      push(to, gated);
    }
  }
  if (!seen.gate) return "missing";
  return seen.ungatedEnd ? "bypassed" : "reached";
}

const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);

/** The verdict `checkProcess` gives the model's agent task equals the oracle's. */
export async function verdictMatchesOracle(seed: number): Promise<void> {
  const model = randomModel(seed);
  const xml = modelXml(model);
  const check = await checkProcess(xml, { resolveWorkflow: () => WORKFLOW });
  const parse = check.blocking.filter((d) => d.code === "BPMN_PARSE");
  assert.deepEqual(parse, [], `the generated process must read cleanly:\n${xml}`);
  const agent = model.nodes.find((n) => n.kind === "agent");
  const task = check.agentTasks.find((t) => t.elementId === agent?.id);
  assert.ok(task !== undefined, "the agent task is found");
  assert.equal(task.gate, oracleVerdict(model), `seed ${String(seed)}:\n${xml}`);
}

/** The property, for the suite and the fuzz script. */
export const BPMN_SEMANTICS_PROPERTIES: readonly PropertyDef[] = [
  asyncProperty(
    "gate verdicts equal a brute-force enumeration of the paths",
    FILE,
    400,
    fc.nat(),
    verdictMatchesOracle,
  ),
];
