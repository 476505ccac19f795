/**
 * Routers: two or more conditional out-edges of one source. LangGraph runs whatever its router
 * returns, one branch or several at once (a list of names, `Send` objects), and a node may carry
 * several routers; the drawable graph shows only the union of their branches. So:
 *
 * - where a branch repeats among a source's conditional edges (the same target, with the same
 *   label or none), one router cannot have drawn them: they are read as several branches taken
 *   at once, each branch to a step its own text decision (taken, or the otherwise `end`), all of
 *   them successors of the source (a fan-out);
 * - otherwise they are read as one choice, a text decision over the labels, and the warning says
 *   that the drawing cannot show a router that returns several branches;
 * - a subgraph's sentinel that a router leaves (`subgraph-inline.ts`) is one choice, whose
 *   decision every edge into the sentinel leads to.
 */
import { pointer } from "../../model/index.js";
import { allocateId } from "../ids.js";
import type { Draft } from "../pipeline.js";
import type { InteropWarning } from "../types.js";
import { dropped, guessed } from "../warnings.js";
import type { SourceEdge, SourceNode } from "./graph-read.js";

/** How a source's conditional edges are read. */
export interface RouterPlan {
  /** One decision for one choice; one per branch to a step for several at once. */
  readonly decisions: readonly Draft[];
  /** The decision each conditional edge goes through; none for a parallel branch to `__end__`. */
  readonly via: ReadonlyMap<SourceEdge, string>;
}

/** What planning needs from the build. */
export interface RouterInput {
  readonly edges: readonly SourceEdge[];
  readonly used: Set<string>;
  readonly warnings: InteropWarning[];
  /** The workflow id of a node (a step's id, `end`, a router sentinel's decision). */
  readonly nextOf: (n: SourceNode) => string;
  /** The decision ids allocated for subgraph sentinels that a router leaves. */
  readonly junctionIds: ReadonlyMap<SourceNode, string>;
}

/** The conditional out-edges of each source, in edge order; sources in order of first edge. */
function routers(edges: readonly SourceEdge[]): Map<SourceNode, SourceEdge[]> {
  const groups = new Map<SourceNode, SourceEdge[]>();
  for (const e of edges) {
    if (!e.conditional) continue;
    const group = groups.get(e.from) ?? [];
    group.push(e);
    groups.set(e.from, group);
  }
  for (const [from, group] of [...groups]) if (group.length < 2) groups.delete(from);
  return groups;
}

function labelOf(e: SourceEdge, warnings: InteropWarning[]): string {
  if (e.label !== undefined) return e.label;
  const label = String(e.to.rawId);
  const message = `conditional edge ${String(e.index)} has no branch label; the router's return value, the target name '${label}', is used`;
  warnings.push(guessed(pointer("edges", e.index, "data"), message, { assumed: label }));
  return label;
}

/**
 * The targets met twice with the same label (or twice unlabelled) among a group's edges, by
 * LangGraph id, in edge order. One router cannot draw that: a path map's keys are unique, and a
 * list path map or a router without one draws each target once. So it proves a second router.
 */
function repeatedBranches(group: readonly SourceEdge[]): string[] {
  const seen = new Map<SourceNode, Set<string | undefined>>();
  const repeated = new Set<string>();
  for (const e of group) {
    let labels = seen.get(e.to);
    if (labels === undefined) seen.set(e.to, (labels = new Set<string | undefined>()));
    if (labels.has(e.label)) repeated.add(String(e.to.rawId));
    labels.add(e.label);
  }
  return [...repeated];
}

function oneChoice(
  from: SourceNode,
  group: readonly SourceEdge[],
  id: string,
  input: RouterInput,
): RouterPlan {
  const { warnings, nextOf } = input;
  const labels = group.map((e) => labelOf(e, warnings));
  const otherwise = labels.at(-1) ?? "";
  // Branches the drawing leaves out, on a node it ends at: `hidden-routes.ts` declares them.
  const undrawn =
    group.some((e) => e.hidden === true) &&
    group.every((e) => e.hidden === true || e.to.sentinel === "end");
  const message = `the ${String(group.length)} conditional edges of '${String(from.rawId)}' become the text decision '${id}' (a router's choice, never simulable); the last branch '${otherwise}' is its otherwise route. Read as one choice: the drawing does not show whether the router returns several branches at once (a list, Send objects, a second router on the node)`;
  if (!undrawn) {
    warnings.push(
      guessed(pointer("nodes", from.index), message, {
        nodeId: id,
        from: from.rawId,
        otherwise,
        branches: "one",
      }),
    );
  }
  const routes = group.map((e, k) => ({ condition: labels[k] ?? "", next: nextOf(e.to) }));
  const last = routes.pop();
  const config = {
    conditionLanguage: "text",
    cases: routes,
    otherwise: { next: last?.next ?? "end" },
  };
  return {
    decisions: [{ id, type: "decision", config }],
    via: new Map(group.map((e) => [e, id])),
  };
}

function severalAtOnce(
  from: SourceNode,
  group: readonly SourceEdge[],
  base: string,
  repeated: readonly string[],
  input: RouterInput,
): RouterPlan {
  const { warnings, nextOf, used } = input;
  const decisions: Draft[] = [];
  const via = new Map<SourceEdge, string>();
  for (const e of group) {
    if (e.to.sentinel === "end") continue;
    const id = allocateId(base, used);
    const config = {
      conditionLanguage: "text",
      cases: [{ condition: labelOf(e, warnings), next: nextOf(e.to) }],
      otherwise: { next: "end" },
    };
    decisions.push({ id, type: "decision", config });
    via.set(e, id);
  }
  const ids = decisions.map((d) => String(d.id));
  const raw = String(from.rawId);
  const message = `the conditional edges of '${raw}' draw the branch to ${repeated.map((t) => `'${t}'`).join(", ")} twice, which one router cannot: a second router is on '${raw}', and LangGraph takes a branch of each at once. Each branch to a step becomes its own text decision (${ids.map((d) => `'${d}'`).join(", ")}), all of them successors of '${raw}' (a fan-out), whose otherwise is the end of that branch`;
  warnings.push(
    guessed(pointer("nodes", from.index), message, {
      from: from.rawId,
      decisions: ids,
      repeated,
      branches: "several",
    }),
  );
  for (const e of group) {
    // An undrawn branch into __end__ (`hidden-routes.ts`) drops nothing the drawing had.
    if (e.to.sentinel !== "end" || e.hidden === true) continue;
    const message = `edge ${String(e.index)}: the branch${e.label === undefined ? "" : ` '${e.label}'`} of '${raw}' into __end__ has no decision of its own: a branch not taken ends at each decision's otherwise`;
    warnings.push(dropped(pointer("edges", e.index), message, { from: from.rawId, to: "__end__" }));
  }
  return { decisions, via };
}

/** Every router's plan, in the order of each router's first edge. */
export function planRouters(input: RouterInput): Map<SourceNode, RouterPlan> {
  const plans = new Map<SourceNode, RouterPlan>();
  for (const [from, group] of routers(input.edges)) {
    const junction = input.junctionIds.get(from);
    const base = from.sentinel === "start" ? "start.route" : `${input.nextOf(from)}.route`;
    const repeated = junction === undefined ? repeatedBranches(group) : [];
    const plan =
      repeated.length > 0
        ? severalAtOnce(from, group, base, repeated, input)
        : oneChoice(from, group, junction ?? allocateId(base, input.used), input);
    plans.set(from, plan);
  }
  return plans;
}
