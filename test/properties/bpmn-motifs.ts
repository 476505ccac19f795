/**
 * Random processes around what may cancel a gate (issue 38), for the BPMN gate property: a
 * parallel block whose first branch holds the gate (a user task, call activity or sub-process)
 * and often the agent, whose other branch may terminate, fail with an error, escalate or just
 * join; events on the gate that lead to terminate, error, escalation or plain ends or on; all of
 * it in the process or in a sub-process whose own events need a thrower inside or do not.
 */
import type { BoundaryKind, Model, ModelNode, NodeKind, Throw } from "./bpmn-oracle.js";

/** A tiny deterministic generator, so that a seed is a model (fast-check draws the seed). */
export function random(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const PREFIX: Readonly<Record<NodeKind, string>> = {
  start: "S",
  task: "T",
  gate: "G",
  agent: "A",
  call: "C",
  "gate-call": "GC",
  sub: "Sub",
  "gate-sub": "GS",
  fork: "P",
  xor: "Q",
  throw: "X",
  end: "End",
  boundary: "B",
};

/** A process built around one parallel block with a gate in it. */
export function motifModel(seed: number): Model {
  const rnd = random(seed);
  const one = <T>(list: readonly T[]): T => list[rnd(list.length)] as T;
  const nodes: ModelNode[] = [];
  const flows: [string, string][] = [];
  const containers: { parent: number; node: string | undefined }[] = [
    { parent: -1, node: undefined },
  ];
  let next = 0;
  const add = (kind: NodeKind, container: number, extra: Partial<ModelNode> = {}): ModelNode => {
    const opens = kind === "sub" || kind === "gate-sub" ? containers.length : undefined;
    const node: ModelNode = {
      id: `${PREFIX[kind]}${String(next++)}`,
      kind,
      container,
      ...(opens === undefined ? {} : { opens }),
      ...extra,
    };
    if (opens !== undefined) containers.push({ parent: container, node: node.id });
    nodes.push(node);
    return node;
  };
  const flow = (...chain: readonly ModelNode[]): void => {
    for (let k = 1; k < chain.length; k++) {
      flows.push([chain[k - 1]?.id ?? "", chain[k]?.id ?? ""]);
    }
  };
  // A third of the models are about an escalation that interrupts the block's sub-process.
  const escalating = rnd(3) === 0;
  const fates: readonly Throw[] = escalating
    ? ["none", "none", "none", "escalation"]
    : ["none", "terminate", "error", "escalation"];
  const end = (container: number, thrown: Throw = one(fates)): ModelNode =>
    add("end", container, { thrown, ref: one(["E1", "E2"]) });
  const boundary = (host: ModelNode, kinds: readonly BoundaryKind[], to: () => ModelNode): void => {
    const kind = one(kinds);
    const ref = one(["E1", "E2", undefined, undefined]);
    const b = add("boundary", host.container, { boundary: kind, host: host.id, ref });
    flow(b, to());
  };
  // The scope of the block: the process, or a sub-process with events of its own.
  const start = add("start", 0);
  let scope = 0;
  let first = start;
  if (escalating || rnd(2) === 0) {
    const sub = add(rnd(6) === 0 ? "gate-sub" : "sub", 0);
    const after = add(one<NodeKind>(["gate", "task", "task"]), 0);
    flow(start, sub, after, end(0, "none"));
    for (let k = 1 + rnd(2); k > 0; k--) {
      const kinds: readonly BoundaryKind[] = escalating
        ? ["escalation"]
        : ["escalation", "escalation", "escalation-non", "error", "timer-non"];
      boundary(sub, kinds, () => one([after, end(0)]));
    }
    scope = sub.opens ?? 0;
    first = add("start", scope);
  }
  const agentFirst = rnd(3) === 0;
  const pre = agentFirst
    ? add("agent", scope)
    : add(one<NodeKind>(["task", "throw"]), scope, { ref: "E1" });
  const fork = add("fork", scope);
  const join = add("fork", scope);
  const gate = add(one<NodeKind>(["gate", "gate", "gate-call", "gate-sub"]), scope);
  if (gate.opens !== undefined) {
    flow(
      add("start", gate.opens),
      add(one<NodeKind>(["task", "throw"]), gate.opens, { ref: "E2" }),
      end(gate.opens),
    );
  }
  const branch = [fork, ...(agentFirst ? [] : [add("agent", scope)]), gate];
  if (rnd(2) === 0) branch.push(add(one<NodeKind>(["task", "call"]), scope));
  flow(first, pre, fork);
  flow(...branch, join);
  // The other branch: it joins, terminates, fails, escalates or just ends.
  const other = add(one<NodeKind>(["task", "throw", "call"]), scope, { ref: one(["E1", "E2"]) });
  flow(fork, other);
  const fate = rnd(6);
  flow(other, fate < 3 ? join : fate === 3 ? end(scope, "terminate") : end(scope));
  const tail = add(one<NodeKind>(["task", "gate", "xor"]), scope);
  flow(join, tail, end(scope));
  if (tail.kind === "xor") flow(tail, end(scope));
  for (let k = escalating ? 1 : rnd(3); k > 0; k--) {
    boundary(gate, ["timer-non", "timer-non", "escalation-non", "timer", "error"], () =>
      escalating
        ? end(scope, "escalation")
        : one([end(scope, "terminate"), end(scope, "error"), end(scope), tail]),
    );
  }
  return { nodes, flows, containers };
}
