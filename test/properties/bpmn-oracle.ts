/**
 * The brute-force oracle of the BPMN gate property (see `bpmn-semantics.ts`): every simple path
 * from the agent task through a small model, read straight from the semantics docs/bpmn.md
 * states, without the process graph. Besides the flow it knows what cancels a running node — a
 * terminate ends its scope, an uncaught error the process — when both may run at once (the
 * parallel splits of their scope, with the joins that close them, found here by brute force),
 * and which boundary events can fire at all (an escalation only if something inside throws it).
 */
import type { GateStatus } from "../../src/bpmn/index.js";

export type Throw = "none" | "error" | "escalation" | "terminate";
export type BoundaryKind =
  "timer" | "timer-non" | "error" | "escalation" | "escalation-non" | "compensation";
export type NodeKind =
  | "start"
  | "task"
  | "gate"
  | "agent"
  | "call"
  | "gate-call"
  | "sub"
  | "gate-sub"
  | "fork"
  | "xor"
  | "throw"
  | "end"
  | "boundary";

/** A flow node of the model. Containers are nodes with `opens`. */
export interface ModelNode {
  readonly id: string;
  readonly kind: NodeKind;
  /** The container index (0: the process). */
  readonly container: number;
  /** For a sub-process: the container it opens. */
  readonly opens?: number;
  readonly thrown?: Throw;
  /** For throwers and error/escalation boundaries: the error or escalation (`undefined`: any). */
  readonly ref?: string | undefined;
  readonly boundary?: BoundaryKind;
  readonly host?: string;
}

/** A generated process. */
export interface Model {
  readonly nodes: readonly ModelNode[];
  /** Sequence flows by node id. */
  readonly flows: readonly (readonly [string, string])[];
  /** Per container: its parent container (-1 for the process) and its sub-process node id. */
  readonly containers: readonly { readonly parent: number; readonly node: string | undefined }[];
}

type Position = `enter:${string}` | `done:${string}` | `exit:${number}` | "END";
type Step = readonly [Position, boolean];

const GATES: readonly NodeKind[] = ["gate", "gate-sub", "gate-call"];
/**
 * What waits for someone outside the engine (src/bpmn/gate-kind.ts): a user task, a call
 * activity. A plain task, a gateway or an event passes, and an agent is nobody's approval; a
 * sub-process waits when every path through it does (`containerWaits`).
 */
const WAITING: readonly NodeKind[] = ["gate", "gate-call", "call"];
/** Activities that may end in an error of their own (a job, a called process). */
const FAILING: readonly NodeKind[] = ["task", "gate", "agent", "call", "gate-call"];
const CALLS: readonly NodeKind[] = ["call", "gate-call"];
/** Nodes a token passes at once: nothing finds one running. */
const INSTANT: readonly NodeKind[] = ["start", "end", "boundary", "throw"];

/** The model's facts, read once. */
function facts(model: Model) {
  const byId = new Map(model.nodes.map((n) => [n.id, n]));
  const outgoing = (id: string): string[] =>
    model.flows.filter(([f]) => f === id).map(([, t]) => t);
  const subNode = (c: number): ModelNode | undefined => {
    const id = model.containers[c]?.node;
    return id === undefined ? undefined : byId.get(id);
  };
  const parentOf = (c: number): number => model.containers[c]?.parent ?? -1;
  /** Containers from `c` out to the process. */
  const chain = (c: number): number[] => {
    const out: number[] = [];
    for (let x = c; x >= 0; x = parentOf(x)) out.push(x);
    return out;
  };
  const within = (n: ModelNode, c: number): boolean => chain(n.container).includes(c);
  const boundariesOf = (id: string): ModelNode[] =>
    model.nodes.filter(
      (n) => n.kind === "boundary" && n.host === id && n.boundary !== "compensation",
    );
  const interrupting = (b: ModelNode): boolean =>
    b.boundary === "timer" || b.boundary === "error" || b.boundary === "escalation";
  const waitsInside = new Map<number, boolean>();
  /**
   * Whether every path through container `c` passes something that waits, by brute force: every
   * simple path from its start, as a state of a node and whether a waiting node is still pending
   * beside it. A waiting node (a user task, a call activity, a sub-process whose own content
   * waits) is left only by its boundary events: an interrupting one cancels it unpassed, a
   * non-interrupting one leaves it pending. Any other node is left along its flows and all its
   * boundary events. A path completes the container at a node without flows that is no error end
   * event; while a wait is pending, only at a terminate end event.
   */
  const containerWaits = (c: number): boolean => {
    const known = waitsInside.get(c);
    if (known !== undefined) return known;
    const waits = (n: ModelNode): boolean =>
      WAITING.includes(n.kind) || (n.opens !== undefined && containerWaits(n.opens));
    const completes = (n: ModelNode, pending: boolean): boolean => {
      if (pending) return n.kind === "end" && n.thrown === "terminate";
      return outgoing(n.id).length === 0 && !(n.kind === "end" && n.thrown === "error");
    };
    const bypass = (n: ModelNode, pending: boolean, onPath: Set<string>): boolean => {
      const key = `${n.id}:${String(pending)}`;
      if (onPath.has(key)) return false;
      if (!waits(n) && completes(n, pending)) return true;
      const next: [ModelNode | undefined, boolean][] = waits(n)
        ? boundariesOf(n.id).map((b) => [b, pending || !interrupting(b)])
        : [
            ...outgoing(n.id).map((t): [ModelNode | undefined, boolean] => [byId.get(t), pending]),
            ...boundariesOf(n.id).map((b): [ModelNode | undefined, boolean] => [b, pending]),
          ];
      onPath.add(key);
      const found = next.some(([m, p]) => m !== undefined && bypass(m, p, onPath));
      onPath.delete(key);
      return found;
    };
    const starts = model.nodes.filter((n) => n.container === c && n.kind === "start");
    const result = starts.length > 0 && !starts.some((s) => bypass(s, false, new Set()));
    waitsInside.set(c, result);
    return result;
  };
  /**
   * Whether a node marked as a gate counts: a gate sub-process only when every path from its
   * start to its end passes something that waits; one with a path that waits for nobody may
   * complete with nobody deciding.
   */
  const isGate = (n: ModelNode | undefined): boolean => {
    if (n === undefined || !GATES.includes(n.kind)) return false;
    if (n.kind !== "gate-sub") return true;
    return containerWaits(n.opens ?? -1);
  };
  const throws = (n: ModelNode): "error" | "escalation" | undefined => {
    if (n.kind === "throw") return "escalation";
    if (n.kind !== "end") return undefined;
    return n.thrown === "error" || n.thrown === "escalation" ? n.thrown : undefined;
  };
  /** The catchers of a thrown event, from its scope outwards. */
  const catchers = (y: ModelNode): ModelNode[] => {
    const wanted = throws(y);
    if (wanted === undefined) return [];
    for (const c of chain(y.container)) {
      const sub = subNode(c);
      if (sub === undefined) continue;
      const all = boundariesOf(sub.id).filter((b) => (b.boundary ?? "").startsWith(wanted));
      const named = all.filter((b) => b.ref !== undefined && b.ref === y.ref);
      const found = named.length > 0 ? named : all.filter((b) => b.ref === undefined);
      if (found.length > 0) return found;
    }
    return [];
  };
  /** "any", "thrown" or "never": when a boundary event can fire. */
  const trigger = (b: ModelNode): "any" | "thrown" | "never" => {
    const kind = b.boundary ?? "timer";
    if (kind.startsWith("timer")) return "any";
    const host = byId.get(b.host ?? "");
    if (host?.opens === undefined) return "any";
    const inside = model.nodes.filter((n) => within(n, host.opens ?? -1));
    const wanted = kind.startsWith("error") ? FAILING : CALLS;
    if (inside.some((n) => wanted.includes(n.kind))) return "any";
    return inside.some((n) => catchers(n).includes(b)) ? "thrown" : "never";
  };
  const uncaught = (n: ModelNode): boolean =>
    n.kind === "end" && n.thrown === "error" && catchers(n).length === 0;
  return {
    byId,
    outgoing,
    subNode,
    chain,
    within,
    isGate,
    boundariesOf,
    catchers,
    interrupting,
    trigger,
    uncaught,
  };
}

type Facts = ReturnType<typeof facts>;

/** What one branch reaches in its scope; `self` does not follow its own non-interrupting events. */
function reach(
  f: Facts,
  heads: readonly string[],
  self: string | undefined,
  stop: ReadonlySet<string>,
): Set<string> {
  const seen = new Set<string>();
  const todo = heads.filter((h) => !stop.has(h));
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const own = f.boundariesOf(id).filter((b) => f.trigger(b) !== "never");
    const next = [
      ...f.outgoing(id),
      ...own.filter((b) => id !== self || f.interrupting(b)).map((b) => b.id),
    ];
    todo.push(...next.filter((t) => !stop.has(t)));
  }
  return seen;
}

/** What one branch reaches, the `held` joins included but not walked past. */
function reachHeld(
  f: Facts,
  heads: readonly string[],
  self: string | undefined,
  held: ReadonlySet<string>,
): Set<string> {
  const within = reach(f, heads, self, held);
  for (const h of heads) if (held.has(h)) within.add(h);
  for (const id of [...within]) {
    if (held.has(id)) continue;
    const own = f.boundariesOf(id).filter((b) => f.trigger(b) !== "never");
    const next = [
      ...f.outgoing(id),
      ...own.filter((b) => id !== self || f.interrupting(b)).map((b) => b.id),
    ];
    for (const t of next) if (held.has(t)) within.add(t);
  }
  return within;
}

/**
 * The joins that close a split, as docs/bpmn.md defines them, by brute force: every join is held
 * at first; each held join some branch reaches that does not have, for every branch, an incoming
 * flow whose source that branch alone reaches (short of the held joins) is released, all such at
 * once, until none is. The joins still held that a branch reaches close the split.
 */
function closingJoins(
  model: Model,
  f: Facts,
  branches: readonly (readonly string[])[],
  self: string | undefined,
  joins: readonly ModelNode[],
): Set<string> {
  const held = new Set(joins.map((j) => j.id));
  for (;;) {
    const reached = branches.map((heads, b) =>
      reachHeld(f, heads, b === 0 ? self : undefined, held),
    );
    const only = (id: string): number | undefined => {
      const by = reached.flatMap((r, b) => (r.has(id) ? [b] : []));
      return by.length === 1 ? by[0] : undefined;
    };
    const released = [...held].filter((j) => {
      if (!reached.some((r) => r.has(j))) return false;
      const own = new Set(model.flows.filter(([, t]) => t === j).map(([s]) => only(s)));
      return !branches.every((_, b) => own.has(b));
    });
    if (released.length === 0)
      return new Set([...held].filter((j) => reached.some((r) => r.has(j))));
    for (const j of released) held.delete(j);
  }
}

/**
 * The events in `c` (or `c` itself) that end the scope `c` is a child of, with all in it: a
 * terminate there, an uncaught error, an error or escalation that an interrupting catcher of that
 * scope or one around it takes.
 */
function cancellers(model: Model, f: Facts, c: ModelNode): ModelNode[] {
  const held = c.opens === undefined ? [c] : model.nodes.filter((n) => f.within(n, c.opens ?? -1));
  return held.filter((y) => {
    if (y.kind === "end" && y.thrown === "terminate") return y === c;
    if (f.uncaught(y)) return true;
    const found = f.catchers(y);
    const first = found[0];
    if (first === undefined || !found.some(f.interrupting)) return false;
    const served = f.byId.get(first.host ?? "")?.opens ?? -1;
    return f.chain(c.container).includes(served);
  });
}

/** The events that may cancel node `a` while it runs: on another branch of a split of its scope. */
function cancelledBy(model: Model, f: Facts, a: ModelNode): ModelNode[] {
  const level = model.nodes.filter((n) => n.container === a.container);
  const splits: { branches: string[][]; self: string | undefined }[] = [];
  for (const n of level) {
    const outs = f.outgoing(n.id);
    if (outs.length >= 2 && n.kind !== "xor")
      splits.push({ branches: outs.map((t) => [t]), self: undefined });
    const non = f.boundariesOf(n.id).filter((b) => !f.interrupting(b) && f.trigger(b) !== "never");
    if (non.length > 0) splits.push({ branches: [[n.id], ...non.map((b) => [b.id])], self: n.id });
  }
  const joins = level.filter(
    (n) => n.kind === "fork" && model.flows.filter(([, t]) => t === n.id).length >= 2,
  );
  const out: ModelNode[] = [];
  for (const { branches, self } of splits) {
    // A host's non-interrupting events here (an empty timer, an escalation) may fire again: their
    // branch is never all come, so no join waits for it.
    const closing =
      self === undefined ? closingJoins(model, f, branches, self, joins) : new Set<string>();
    const regions = branches.map((heads, b) =>
      reach(f, heads, b === 0 ? self : undefined, closing),
    );
    regions.forEach((mine, b) => {
      if (!mine.has(a.id)) return;
      regions.forEach((theirs, other) => {
        if (other === b) return;
        for (const id of theirs) {
          const c = f.byId.get(id);
          if (c !== undefined) out.push(...cancellers(model, f, c));
        }
      });
    });
  }
  return out;
}

/**
 * The oracle: `missing` when no path from the agent task enters a gate, `bypassed` when some
 * path reaches the process's end without completing one, else `reached`.
 */
export function oracleVerdict(model: Model): GateStatus {
  const f = facts(model);
  const ending = (container: number): Position => (container === 0 ? "END" : `exit:${container}`);
  /** A non-interrupting boundary on a gate leaves it running: its path counts as past it. */
  const via = (b: ModelNode): Step => {
    return [`done:${b.id}`, f.isGate(f.byId.get(b.host ?? "")) && !f.interrupting(b)];
  };
  const anyTime = (id: string): Step[] =>
    f
      .boundariesOf(id)
      .filter((b) => f.trigger(b) === "any")
      .map(via);
  /** Boundaries that may fire while something inside `container` runs. */
  const around = (container: number): Step[] =>
    f.chain(container).flatMap((c) => {
      const sub = f.subNode(c);
      return sub === undefined ? [] : anyTime(sub.id);
    });
  const cancels = new Map<string, Step[]>();
  /** Cancellations of `n` or of a sub-process it runs in: no gate is passed by them. */
  const cancelSteps = (n: ModelNode, self: boolean): Step[] => {
    const running = [
      ...(!self || INSTANT.includes(n.kind) ? [] : [n]),
      ...f.chain(n.container).flatMap((c) => f.subNode(c) ?? []),
    ];
    return running.flatMap((a) => {
      let steps = cancels.get(a.id);
      if (steps === undefined) {
        steps = cancelledBy(model, f, a).map((w): Step => [`enter:${w.id}`, false]);
        cancels.set(a.id, steps);
      }
      return steps;
    });
  };
  const continueFrom = (node: ModelNode): Step[] => {
    const outs = f.outgoing(node.id);
    if (outs.length === 0) return [[ending(node.container), false]];
    return outs.map((t): Step => [`enter:${t}`, false]);
  };
  const entered = (n: ModelNode): Step[] => {
    switch (n.kind) {
      case "start":
      case "boundary":
      case "fork":
      case "xor":
        return continueFrom(n);
      case "task":
      case "agent":
      case "gate":
      case "call":
      case "gate-call":
        return [[`done:${n.id}`, f.isGate(n)], ...anyTime(n.id)];
      case "sub":
      case "gate-sub": {
        const starts = model.nodes.filter((c) => c.container === n.opens && c.kind === "start");
        return [...starts.map((s): Step => [`enter:${s.id}`, false]), ...anyTime(n.id)];
      }
      case "throw": {
        const found = f.catchers(n);
        return [...found.map(via), ...(found.some(f.interrupting) ? [] : continueFrom(n))];
      }
      case "end": {
        if (n.thrown !== "error" && n.thrown !== "escalation")
          return [[ending(n.container), false]];
        const found = f.catchers(n);
        if (n.thrown === "error") return found.length > 0 ? found.map(via) : [["END", false]];
        return [
          ...found.map(via),
          ...(found.some(f.interrupting) ? [] : [[ending(n.container), false] as const]),
        ];
      }
    }
  };
  // The agent has run: its completion, its boundaries, the boundaries around it, what cancels
  // the scopes it ran in — never its own cancellation, which leaves no output.
  const agent = model.nodes.find((n) => n.kind === "agent");
  if (agent === undefined) throw new Error("the model has no agent task");
  const first = [...entered(agent), ...around(agent.container), ...cancelSteps(agent, false)];
  const steps = (p: Position): Step[] => {
    if (p === "END") return [];
    if (p.startsWith("exit:")) {
      const sub = f.subNode(Number(p.slice(5)));
      return sub === undefined ? [] : [[`done:${sub.id}`, f.isGate(sub)]];
    }
    const n = f.byId.get(p.slice(p.indexOf(":") + 1));
    if (n === undefined) return [];
    if (p.startsWith("done:")) return continueFrom(n);
    return [...entered(n), ...around(n.container), ...cancelSteps(n, true)];
  };
  return enumerate(first, f, steps);
}

/** Depth first over the simple paths from the agent task, with whether each passed a gate. */
function enumerate(first: readonly Step[], f: Facts, steps: (p: Position) => Step[]): GateStatus {
  const seen = { gate: false, ungatedEnd: false };
  const onPath = new Set<Position>();
  const stack: { p: Position; gated: boolean; next: Step[] }[] = [];
  const push = (p: Position, gated: boolean): void => {
    onPath.add(p);
    if (p.startsWith("enter:") && f.isGate(f.byId.get(p.slice(6)))) seen.gate = true;
    if (p === "END" && !gated) seen.ungatedEnd = true;
    stack.push({ p, gated, next: steps(p) });
  };
  for (const [p, passes] of first) {
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
