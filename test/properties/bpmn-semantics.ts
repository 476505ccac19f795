/**
 * The gate analysis against a brute-force oracle (issues 16 and 38). A random small process — a
 * process and nested sub-processes, tasks, call activities, gates (atomic, call activity and
 * sub-process), one agent task, parallel and exclusive gateways, escalation throw events, end
 * events that throw errors or escalations or terminate, and boundary events of every kind, with
 * random sequence flows (loops, splits and joins included) — is written as BPMN and checked; the
 * oracle (`bpmn-oracle.ts`) enumerates every simple path of the same model, read straight from
 * the semantics docs/bpmn.md states, without the process graph, and says which verdict the agent
 * task must get.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkProcess } from "../../src/bpmn/index.js";
import { agentWorkflow } from "../bpmn/builders.js";
import type { BoundaryKind, Model, ModelNode, NodeKind } from "./bpmn-oracle.js";
import { motifModel, random } from "./bpmn-motifs.js";
import { oracleVerdict } from "./bpmn-oracle.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty } from "./settings.js";

const FILE = "test/properties/bpmn-semantics.property.test.ts";

const REFS = ["E1", "E2", undefined] as const;
const BOUNDARIES: readonly BoundaryKind[] = [
  "timer",
  "timer-non",
  "error",
  "escalation",
  "escalation-non",
  "compensation",
];
const ON_SUBS: readonly BoundaryKind[] = ["error", "escalation", "escalation-non"];
/** Activity kinds by roll, 0..15; `sub` stands for a sub-process while nesting allows one. */
const ROLLS: readonly NodeKind[] = [
  ...["gate", "gate", "gate", "gate", "gate-call", "sub", "sub", "call"],
  ...["fork", "fork", "xor", "throw", "task", "task", "task", "task"],
] as NodeKind[];

/**
 * A random model: 1 process, up to 2 sub-processes, 2–6 nodes a container. `drawn` draws it as
 * a modeller does — a chain, with parallel blocks a join closes and exclusive choices — rather
 * than with flows anywhere; by default a seed decides.
 */
export function randomModel(seed: number, drawn?: boolean): Model {
  const rnd = random(seed);
  const nodes: ModelNode[] = [];
  const flows: [string, string][] = [];
  const containers: { parent: number; node: string | undefined }[] = [
    { parent: -1, node: undefined },
  ];
  let next = 0;
  const id = (prefix: string): string => `${prefix}${String(next++)}`;
  let agentPlaced = false;
  const plain = new Set<number>();
  const coin = rnd(2) === 0;
  const chain = drawn ?? coin;
  const activity = (container: number, depth: number, i: number, count: number): ModelNode => {
    // A third of the sub-processes hold no task: only a trigger from inside fires their events.
    const roll = container > 0 && plain.has(container) ? 9 + rnd(3) : rnd(16);
    const early = container === 0 && i <= 1 && rnd(2) === 0;
    if (!agentPlaced && (early || roll < 2 || (container === 0 && i === count - 1))) {
      agentPlaced = true;
      return { id: id("A"), kind: "agent", container };
    }
    const kind = ROLLS[roll] ?? "task";
    if (kind === "sub") {
      if (depth >= 2 || containers.length >= 3) return { id: id("T"), kind: "task", container };
      const opens = containers.length;
      const node: ModelNode = {
        id: id("Sub"),
        kind: rnd(4) === 0 ? "gate-sub" : "sub",
        container,
        opens,
      };
      containers.push({ parent: container, node: node.id });
      if (rnd(3) === 0) plain.add(opens);
      return node;
    }
    if (kind === "throw") return { id: id("X"), kind, container, ref: REFS[rnd(2)] ?? "E1" };
    const prefixes: Partial<Record<NodeKind, string>> = {
      gate: "G",
      "gate-call": "GC",
      call: "C",
      fork: "P",
      xor: "Q",
    };
    return { id: id(prefixes[kind] ?? "T"), kind, container };
  };
  const fill = (container: number, depth: number): void => {
    const start: ModelNode = { id: id("S"), kind: "start", container };
    nodes.push(start);
    const activities: ModelNode[] = [];
    const count = 2 + rnd(5);
    for (let i = 0; i < count; i++) activities.push(activity(container, depth, i, count));
    const ends: ModelNode[] = [];
    const endCount = 1 + rnd(3);
    for (let i = 0; i < endCount; i++) {
      const thrown =
        (["none", "none", "error", "escalation", "terminate", "terminate"] as const)[rnd(6)] ??
        "none";
      const ref =
        thrown === "error" || thrown === "escalation" ? (REFS[rnd(2)] ?? "E1") : undefined;
      ends.push({ id: id("End"), kind: "end", container, thrown, ref });
    }
    nodes.push(...activities, ...ends);
    const targets = [...activities, ...ends];
    // Most flows go on to the next node, as a modeller draws them; the rest anywhere.
    const pick = (after?: ModelNode): string => {
      const at = after === undefined ? -1 : targets.indexOf(after);
      const onward = at >= 0 && rnd(4) !== 0 ? targets[at + 1] : undefined;
      return (onward ?? targets[rnd(targets.length)])?.id ?? "";
    };
    flows.push([start.id, activities[0]?.id ?? pick()]);
    const inBlock = new Set<ModelNode>();
    activities.forEach((a, at) => {
      if (inBlock.has(a)) return;
      // A parallel block: two branches (drawn: the next nodes, one or two each) a join closes.
      if (a.kind === "fork" && (chain || rnd(2) === 0)) {
        const join: ModelNode = { id: id("J"), kind: "fork", container };
        nodes.push(join);
        const inner = activities.filter((b) => b !== a);
        let ahead = at;
        for (const length of [1 + rnd(2), 1 + rnd(2)]) {
          const branch = chain
            ? activities.slice(ahead + 1, ahead + 1 + length)
            : [inner[rnd(inner.length)] ?? a];
          ahead += branch.length;
          const ids = [a.id, ...branch.map((b) => b.id), join.id];
          for (let k = 1; k < ids.length; k++) flows.push([ids[k - 1] ?? "", ids[k] ?? ""]);
          if (chain) for (const b of branch) inBlock.add(b);
        }
        flows.push([join.id, (chain ? targets[ahead + 1]?.id : undefined) ?? pick()]);
        return;
      }
      if (chain) {
        flows.push([a.id, (targets[at + 1] ?? a).id]);
        if (a.kind === "xor") flows.push([a.id, pick()]);
        return;
      }
      // A parallel gateway splits (or joins, when flows meet there); others leave by 0..2 flows.
      const outs = a.kind === "fork" ? 1 + rnd(3) : rnd(8) === 0 ? 0 : 1 + (rnd(3) === 0 ? 1 : 0);
      for (let k = 0; k < outs; k++) flows.push([a.id, pick(a)]);
    });
    for (const a of activities) {
      if (["fork", "xor", "throw"].includes(a.kind) || rnd(3) !== 0) continue;
      // On a sub-process, mostly the events that only a throw inside may trigger.
      const boundary =
        a.opens !== undefined && rnd(2) === 0
          ? ON_SUBS[rnd(ON_SUBS.length)]
          : BOUNDARIES[rnd(BOUNDARIES.length)];
      if (boundary === undefined) continue;
      const ref =
        boundary.startsWith("error") || boundary.startsWith("escalation")
          ? REFS[rnd(3)]
          : undefined;
      const b: ModelNode = { id: id("B"), kind: "boundary", container, boundary, host: a.id, ref };
      nodes.push(b);
      if (boundary !== "compensation" && rnd(4) !== 0) {
        const outs = 1 + (rnd(4) === 0 ? 1 : 0);
        for (let k = 0; k < outs; k++) flows.push([b.id, pick()]);
      }
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
      case "call":
      case "gate-call":
        return `<bpmn:callActivity id="${n.id}" calledElement="Other">${n.kind === "gate-call" ? gateExt : ""}</bpmn:callActivity>`;
      case "fork":
        return `<bpmn:parallelGateway id="${n.id}"/>`;
      case "xor":
        return `<bpmn:exclusiveGateway id="${n.id}"/>`;
      case "throw":
        return `<bpmn:intermediateThrowEvent id="${n.id}"><bpmn:escalationEventDefinition${refAttr("escalationRef", n.ref)}/></bpmn:intermediateThrowEvent>`;
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

const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);

/** The verdict `checkProcess` gives the model's agent task equals the oracle's. */
export async function verdictMatchesOracle(model: Model, seed: number): Promise<void> {
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
    (seed) => verdictMatchesOracle(randomModel(seed), seed),
  ),
  asyncProperty(
    "gate verdicts around what may cancel a gate equal a brute-force enumeration",
    FILE,
    400,
    fc.nat(),
    (seed) => verdictMatchesOracle(motifModel(seed), seed),
  ),
];
