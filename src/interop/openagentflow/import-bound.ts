/**
 * `config.max_iterations` is the `.oaf` author's bound on iterations, and the compiler accepts a
 * cycle with no conditional exit because of it; but its reference runtime never enforces it: the
 * LangGraph adapter compiles no iteration count (and LangGraph's own recursion limit, 10,007
 * steps by default, only fails a run). Read as the routes' `maxRetries`, it silenced
 * `RETRY_WITHOUT_MAX` on loops nothing bounds, and a replay counted laps against it.
 *
 * So the routes back into a loop are read as what runs, unbounded: the strict reading where the
 * two differ (`RETRY_WITHOUT_MAX` reports each route, a simulation and a replay stop at the first
 * lap back), with the same level either way. The import still works out where the bound was
 * meant to apply (the decisions it makes), names them in one declared guess, and keeps the value
 * in metadata so that the export writes it back.
 */
import { isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { guessed } from "../warnings.js";

/**
 * The runtime whose behaviour the reading follows: the OpenAgentFlow reference compiler's
 * LangGraph adapter, version 0.1.5 (commit 397e57c), the one that writes the IR it reads.
 */
export const OAF_REFERENCE_RUNTIME = "OpenAgentFlow 0.1.5 LangGraph adapter";

/** A route with its `maxRetries` left out. */
function unbound(route: unknown): { route: unknown; bounded: boolean } {
  if (!isRecord(route) || own(route, "maxRetries") === undefined) return { route, bounded: false };
  const rest = Object.fromEntries(Object.entries(route).filter(([key]) => key !== "maxRetries"));
  return { route: rest, bounded: true };
}

/** A decision with its routes' `maxRetries` left out, and whether it had one. */
function unboundDecision(node: unknown): { node: unknown; bounded: boolean } {
  const config = isRecord(node) ? own(node, "config") : undefined;
  if (!isRecord(node) || !isRecord(config)) return { node, bounded: false };
  const cases = own(config, "cases");
  const list = (Array.isArray(cases) ? cases : []).map(unbound);
  const otherwise = unbound(own(config, "otherwise"));
  if (!otherwise.bounded && !list.some((c) => c.bounded)) return { node, bounded: false };
  const next: Record<string, unknown> = { ...config, otherwise: otherwise.route };
  if (Array.isArray(cases)) next.cases = list.map((c) => c.route);
  return { node: { ...node, config: next }, bounded: true };
}

/**
 * The nodes with every route `max_iterations` bounded read unbounded, and the declared guess that
 * names the decisions concerned. The IR has no other source of `maxRetries`, so every one the
 * import made came from `max_iterations`.
 */
export function readUnbounded(
  nodes: readonly unknown[],
  maxIterations: number,
): { readonly nodes: unknown[]; readonly warning: InteropWarning } {
  const decisions: string[] = [];
  const out = nodes.map((n) => {
    const read = unboundDecision(n);
    if (read.bounded && isRecord(n)) decisions.push(String(own(n, "id")));
    return read.node;
  });
  const message = `max_iterations ${String(maxIterations)} is not read as a bound: the reference runtime (${OAF_REFERENCE_RUNTIME}) never enforces it, so the routes back into a loop it was meant to bound (${decisions.map((d) => `'${d}'`).join(", ")}) carry no maxRetries and are read unbounded, as they run; it is kept in metadata for the export`;
  return {
    nodes: out,
    warning: guessed("/workflow/config/max_iterations", message, {
      key: "max_iterations",
      maxIterations,
      runtime: OAF_REFERENCE_RUNTIME,
      decisions,
      assumed: "unbounded",
    }),
  };
}
