/**
 * An agent's unconditional transitions. The compiler accepts any number of them, to agents and
 * to `end`, and the IR does not say how they combine, so each shape is read one documented way
 * and the reading is declared:
 *
 * - several to agents (and maybe `end`): a fan-out, every branch taken, as every importer reads
 *   a node with several successors; a transition to `end` beside them finishes its branch only,
 *   so it has no edge (agentflow ends a run where a node has no successor), declared;
 * - one back into a loop and one to `end`, under `config.max_iterations`: the loop the compiler
 *   means, a decision `<agent>-loop` that goes back while iterations remain
 *   ({@link OAF_LOOP_CONDITION}, `maxRetries` = `max_iterations`), then ends the run; the bound
 *   is then read unbounded (`import-bound.ts`: its runtime never enforces it);
 * - beside conditional routes: a decision's fallback is one route, so it is the first transition
 *   (what the compiler's LangGraph adapter writes), or the bounded loop; the others are declared.
 */
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { OAF_LOOP_CONDITION } from "./ir-types.js";
import type { At } from "./read.js";
import { dropped, guessed } from "../warnings.js";

/** One way out of an agent: to another agent or (`target` undefined) to `end`. */
export interface Transition {
  readonly target: string | undefined;
  readonly condition: unknown;
  readonly at: At;
}

/** What reading one agent's unconditional transitions needs. */
export interface PlainContext {
  /** The agent's IR id and node id. */
  readonly agentId: string;
  readonly from: string;
  /** The node id of an agent id. */
  readonly nodeOf: (sourceId: string) => string;
  /** Whether an agent leads back to this one (the transition to it closes a loop). */
  readonly loopsBack: (target: string) => boolean;
  readonly maxIterations: number | undefined;
  /** A fresh node id for `wanted`. */
  readonly allocate: (wanted: string) => string;
  readonly warnings: InteropWarning[];
}

/** What the transitions add: decisions (after the agent), edges, and whether the bound was used. */
export interface PlainResult {
  readonly nodes: readonly Record<string, unknown>[];
  readonly edges: readonly Record<string, unknown>[];
  readonly boundUsed: boolean;
}

const names = (ids: readonly string[]): string => ids.map((id) => `'${id}'`).join(", ");

/** The transitions to agents that close a loop, when a transition to `end` and the bound allow. */
function loopTargets(plain: readonly Transition[], ctx: PlainContext): Transition[] {
  if (ctx.maxIterations === undefined || !plain.some((t) => t.target === undefined)) return [];
  return plain.filter((t) => t.target !== undefined && ctx.loopsBack(t.target));
}

/** The decision of one bounded loop: back to `t` while iterations remain, then the end. */
function loopDecision(t: Transition, max: number, ctx: PlainContext): Record<string, unknown> {
  const id = ctx.allocate(`${ctx.from}-loop`);
  const next = ctx.nodeOf(t.target ?? "");
  const cases = [{ condition: OAF_LOOP_CONDITION, next, maxRetries: max }];
  return {
    id,
    type: "decision",
    config: { conditionLanguage: "text", cases, otherwise: { next: "end" } },
  };
}

function declareLoop(
  loops: readonly Transition[],
  decisions: readonly Record<string, unknown>[],
  end: Transition,
  max: number,
  ctx: PlainContext,
): void {
  const targets = loops.map((t) => ctx.nodeOf(t.target ?? ""));
  const ids = decisions.map((d) => String(d.id));
  const message = `agent '${ctx.agentId}' continues unconditionally both back into a loop (${names(targets)}) and to end, under max_iterations ${String(max)}: read as the loop max_iterations is meant to bound, ${names(ids)} going back while iterations remain or ending the run (the IR does not say how the two combine; the compiler's LangGraph adapter wires only the first transition, and enforces no max_iterations, so the loop is read unbounded)`;
  ctx.warnings.push(
    guessed(pointer(...end.at), message, {
      agentId: ctx.agentId,
      decisions: ids,
      loopTargets: targets,
      maxIterations: max,
    }),
  );
}

/** The transition to `end` beside other successors: no edge stands for it, declared. */
function dropEnd(end: Transition, ctx: PlainContext): void {
  const message = `agent '${ctx.agentId}' also continues to other agents: its unconditional transition to end finishes that branch only, and agentflow ends a run where a node has no successor, so it has no edge`;
  ctx.warnings.push(dropped(pointer(...end.at), message, { agentId: ctx.agentId, to: "end" }));
}

/**
 * The unconditional transitions of an agent with no conditional one: data edges to its
 * successors (a fan-out when there are several, declared), through a `-loop` decision for each
 * transition the bounded loop reading applies to.
 */
export function wirePlain(plain: readonly Transition[], ctx: PlainContext): PlainResult {
  const loops = loopTargets(plain, ctx);
  const looping = new Set(loops);
  const end = plain.find((t) => t.target === undefined);
  const nodes: Record<string, unknown>[] = [];
  const edges: Record<string, unknown>[] = [];
  const successors: string[] = [];
  for (const t of plain) {
    if (t.target === undefined) continue;
    let to = ctx.nodeOf(t.target);
    if (looping.has(t) && ctx.maxIterations !== undefined) {
      const decision = loopDecision(t, ctx.maxIterations, ctx);
      nodes.push(decision);
      to = String(decision.id);
    }
    edges.push({ from: ctx.from, to, edgeType: "data" });
    successors.push(to);
  }
  if (end !== undefined && loops.length > 0 && ctx.maxIterations !== undefined)
    declareLoop(loops, nodes, end, ctx.maxIterations, ctx);
  else if (end !== undefined && successors.length > 0) dropEnd(end, ctx);
  const [, second] = plain;
  if (successors.length > 1 && second !== undefined) {
    const message = `agent '${ctx.agentId}' continues unconditionally to ${names(successors)}: read as a fan-out, every branch taken, as every importer reads a node with several successors (the IR does not say whether they run at once; the compiler's LangGraph adapter wires only the first, and a simulation follows only the first)`;
    ctx.warnings.push(
      guessed(pointer(...second.at), message, { agentId: ctx.agentId, successors }),
    );
  }
  return { nodes, edges, boundUsed: nodes.length > 0 };
}

/**
 * The fallback (`otherwise`) of an agent's decision when it has two or more unconditional
 * transitions: the bounded loop's decision when it applies, else the first transition (in IR
 * order: agent edges, then terminals), as the compiler's LangGraph adapter reads it. Every other
 * transition is declared not kept. `route` maps a transition to a decision route.
 */
export function fallbackOf(
  plain: readonly Transition[],
  ctx: PlainContext,
  route: (t: Transition) => Record<string, unknown>,
): { readonly otherwise: Record<string, unknown>; readonly loop?: Record<string, unknown> } {
  const [loop] = loopTargets(plain, ctx);
  const end = plain.find((t) => t.target === undefined);
  const first = plain[0];
  if (loop !== undefined && end !== undefined && ctx.maxIterations !== undefined) {
    const decision = loopDecision(loop, ctx.maxIterations, ctx);
    declareLoop([loop], [decision], end, ctx.maxIterations, ctx);
    dropOthers(plain, [loop, end], `the loop '${String(decision.id)}'`, ctx);
    return { otherwise: { next: decision.id }, loop: decision };
  }
  if (first === undefined) return { otherwise: { next: "end" } };
  const kept = first.target === undefined ? "end" : `'${ctx.nodeOf(first.target)}'`;
  dropOthers(
    plain,
    [first],
    `the first, ${kept}, as the compiler's LangGraph adapter reads it`,
    ctx,
  );
  return { otherwise: route(first) };
}

function dropOthers(
  plain: readonly Transition[],
  kept: readonly Transition[],
  what: string,
  ctx: PlainContext,
): void {
  for (const t of plain) {
    if (kept.includes(t)) continue;
    const to = t.target === undefined ? "end" : ctx.nodeOf(t.target);
    const message = `agent '${ctx.agentId}' has conditional routes and several unconditional transitions; a decision has one fallback, ${what}, so its transition to '${to}' is not kept`;
    ctx.warnings.push(dropped(pointer(...t.at), message, { agentId: ctx.agentId, to }));
  }
}
