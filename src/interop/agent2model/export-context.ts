/**
 * State shared by the pieces of the agent2model export: the flowchart key of every node, the
 * terminals written so far, and the warnings. Terminals are chosen here, in one place: the kept
 * exit of a route when the importer recorded one, else one shared `success` terminal, declared.
 */
import type { AgentWorkflow } from "../../model/index.js";
import type { IndexedEdge } from "../edge-index.js";
import type { ExportWarnings } from "../warnings.js";
import { guessed } from "../warnings.js";
import type { KeptExit, KeptFlowchart } from "./export-kept.js";
import type { Agent2ModelOutcome } from "./types.js";

/** What every part of one export reads and appends to. */
export interface ExportContext {
  readonly wf: AgentWorkflow;
  readonly kept: KeptFlowchart;
  /** Workflow node id → flowchart node key. */
  readonly keys: ReadonlyMap<string, string>;
  /** The values of `keys`: a terminal must not take one. */
  readonly turnKeys: ReadonlySet<string>;
  /** Terminal key → outcome, in the order they are written. */
  readonly terminals: Map<string, Agent2ModelOutcome>;
  readonly warnings: ExportWarnings;
  /** The model an import gives every llm node: `agent2model:<workflow id>`. */
  readonly hostModel: string;
  /** Node id → the flow edges (not delegate) leaving it, in `wf.edges` order: built once. */
  readonly out: ReadonlyMap<string, readonly IndexedEdge[]>;
  /** Node id → route label → the first exit the importer kept for it: built once. */
  readonly exits: ReadonlyMap<string, ReadonlyMap<string | undefined, KeptExit>>;
  /**
   * Fallback terminals before `end-<fallbackFrom>` are taken for good (a node key, or a terminal
   * that is not a success), so each search starts there instead of at `end` again.
   */
  fallbackFrom: number;
}

/** The first kept exit of each node and route, so that a look-up does not scan every exit. */
export function exitIndex(
  exits: readonly KeptExit[],
): Map<string, Map<string | undefined, KeptExit>> {
  const index = new Map<string, Map<string | undefined, KeptExit>>();
  for (const exit of exits) {
    let routes = index.get(exit.from);
    if (routes === undefined)
      index.set(exit.from, (routes = new Map<string | undefined, KeptExit>()));
    if (!routes.has(exit.route)) routes.set(exit.route, exit);
  }
  return index;
}

/** The terminal the importer kept for this way out, if it is still usable. */
export function keptTerminal(
  ctx: ExportContext,
  from: string,
  route: string | undefined,
): string | undefined {
  const exit = ctx.exits.get(from)?.get(route);
  if (exit === undefined || ctx.turnKeys.has(exit.terminal)) return undefined;
  const known = ctx.terminals.get(exit.terminal);
  if (known !== undefined && known !== exit.outcome) return undefined;
  ctx.terminals.set(exit.terminal, exit.outcome);
  return exit.terminal;
}

/** The fallback terminal: `end` (or `end-2`...), a success, created on first use. */
function fallbackTerminal(ctx: ExportContext): string {
  // A terminal's outcome is never changed once set, so a key skipped here stays skipped.
  for (let n = ctx.fallbackFrom; ; n += 1) {
    const key = n === 1 ? "end" : `end-${String(n)}`;
    ctx.fallbackFrom = n;
    if (ctx.turnKeys.has(key)) continue;
    const outcome = ctx.terminals.get(key);
    if (outcome === "success") return key;
    if (outcome !== undefined) continue;
    ctx.terminals.set(key, "success");
    return key;
  }
}

/**
 * The terminal a way out of the run goes to: the kept one, else the fallback with a HEURISTIC
 * at `path()` (the workflow says that a run ends there, not how the conversation ends). The path
 * is made only when the warning is listed.
 */
export function terminalFor(
  ctx: ExportContext,
  from: string,
  route: string | undefined,
  path: () => string,
): string {
  const kept = keptTerminal(ctx, from, route);
  if (kept !== undefined) return kept;
  const key = fallbackTerminal(ctx);
  ctx.warnings.add("fallback terminal", () =>
    guessed(
      path(),
      `the run ends here; it is written as an edge to the terminal '${key}' with outcome success (the workflow does not say how the conversation ends)`,
      { nodeId: from, terminal: key, outcome: "success" },
    ),
  );
  return key;
}
