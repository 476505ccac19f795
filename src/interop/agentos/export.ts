/**
 * Export to an AgentOS `CompiledExecutionGraph`, for the subset the importer maps: llm → gmi,
 * tool → tool (or human / guardrail / subgraph for the contract refs the importer binds them to), decision
 * → router with conditional edges whose expressions AgentOS's runtime evaluates
 * (`export-decision.ts`), and the inserted `.personality` / `.discovery` decisions back to their
 * edges. What has no IR form, or no form AgentOS runs as agentflow does, is declared.
 */
import type { AgentNode, AgentWorkflow, FlowGraph } from "../../model/index.js";
import { flowGraph, pointer } from "../../model/index.js";
import { routesOnce } from "../edge-index.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings, omitted } from "../warnings.js";
import type { RouterExport } from "./export-decision.js";
import { exportRouter } from "./export-decision.js";
import { declareCommon, exportNode } from "./export-nodes.js";
import {
  DISCOVERY,
  end,
  inserted,
  declareTop,
  partition,
  PERSONALITY,
  unquote,
} from "./export-parts.js";
import { OUTPUT_PATH } from "./expression.js";
import type { SkipOf } from "./route-skips.js";
import { routeSkips } from "./route-skips.js";
import { END, START } from "./types.js";
import type { FoundLoop } from "./tool-loop.js";
import { DEFAULT_ITERATIONS, unfoldToolLoops } from "./tool-loop.js";

type Obj = Record<string, unknown>;

/** The artifacts key every node's output is promoted to when a router reads it. */
const OUTPUT_KEY = OUTPUT_PATH.slice("artifacts.".length);

/**
 * Exports a workflow to a CompiledExecutionGraph. Never throws. Everything without an IR form is
 * declared: `version` and `autonomyLevel` always, decision conditions, decorators, delegate edges.
 *
 * @example
 * ```ts
 * import { exportAgentOs } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document, warnings } = exportAgentOs(wf);
 * document.id; // → "agnt-doc-review"
 * // the IR has no version and no autonomy level
 * warnings.slice(0, 2).map((w) => w.path); // → ["/version", "/autonomyLevel"]
 * ```
 */
export function exportAgentOs(wf: AgentWorkflow): ExportResult<Record<string, unknown>> {
  const unfolded = unfoldToolLoops(wf);
  const { document, warnings } = exportUnfolded(unfolded.wf, unfolded.loops);
  if (unfolded.loops.size === 0) return { document, warnings };
  // Paths into the workflow without its loops, back into the workflow given.
  const back = (kind: string, k: string): number | undefined =>
    (kind === "nodes" ? unfolded.nodeIndex : unfolded.edgeIndex)[Number(k)];
  const moved = warnings.map((w) => {
    const m = /^\/(nodes|edges)\/(\d+)(?=\/|$)/.exec(w.path);
    const to = m === null ? undefined : back(m[1] ?? "", m[2] ?? "");
    return m === null || to === undefined
      ? w
      : { ...w, path: `/${m[1] ?? ""}/${String(to)}${w.path.slice(m[0].length)}` };
  });
  const unbounded = [...unfolded.loops].flatMap(([id, loop]) =>
    loop.max === undefined
      ? [
          omitted(
            `${loop.casePath}/maxRetries`,
            `the tool loop of '${id}' has no bound; AgentOS bounds every gmi node's loop, at ${String(DEFAULT_ITERATIONS)} by default`,
            { nodeId: id },
          ),
        ]
      : [],
  );
  return { document, warnings: [...moved, ...unbounded] };
}

function exportUnfolded(
  wf: AgentWorkflow,
  loops: ReadonlyMap<string, FoundLoop>,
): ExportResult<Record<string, unknown>> {
  const warnings = new ExportWarnings();
  declareTop(wf, warnings);
  const special = new Map<string, NonNullable<ReturnType<typeof inserted>>>();
  for (const n of wf.nodes) {
    const s = inserted(n);
    if (s !== undefined) special.set(n.id, s);
  }
  const nodes: Obj[] = [];
  const routesOf = routesOnce();
  // The first router of each id, as its edges are read (byId below).
  const routers = new Map<string, RouterExport>();
  let graph: FlowGraph | undefined;
  let skipsOf: ((decision: number) => SkipOf | undefined) | undefined;
  let readsOutput = false;
  for (let i = 0; i < wf.nodes.length; i++) {
    const n = wf.nodes[i];
    if (n === undefined || special.has(n.id)) continue;
    declareCommon(n, i, warnings);
    if (n.type !== "decision") {
      nodes.push(exportNode(n, i, wf, loops.get(n.id), warnings));
      continue;
    }
    graph ??= flowGraph(wf);
    skipsOf ??= routeSkips(graph);
    const router = exportRouter(n, i, routesOf(n), graph, skipsOf(i), warnings);
    if (!routers.has(n.id)) routers.set(n.id, router);
    readsOutput ||= router.readsOutput;
    nodes.push(router.node);
  }
  // The routers' expressions read `output`: the latest llm / tool output, kept there by AgentOS.
  if (readsOutput)
    for (const n of nodes) if (n.type !== "router") n.metadata = { outputAs: OUTPUT_KEY };
  const edges: Obj[] = [];
  const nextId = (): string => `edge-${String(edges.length + 1)}`;
  const add = (e: Obj): void => {
    edges.push({ id: nextId(), ...e });
  };
  // Written out, not spread: a graph of 100,000 nodes has as many static edges.
  const link = (source: string, target: string): void => {
    edges.push({ id: nextId(), source, target, type: "static" });
  };
  const [entry] = wf.nodes;
  if (entry !== undefined) link(START, entry.id);
  const byId = new Map<string, AgentNode>(); // the first node of each id
  for (const n of wf.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const hasOut = new Set<string>();
  const routed = new Set<string>();
  const route = (id: string): void => {
    const node = byId.get(id);
    if (routed.has(id) || node?.type !== "decision") return;
    routed.add(id);
    const conditions = routers.get(id)?.conditions ?? [];
    routesOf(node).forEach((r, k) => {
      edges.push({
        id: nextId(),
        source: id,
        target: end(r.next),
        type: "conditional",
        condition: conditions[k] ?? { type: "function" },
      });
    });
  };
  wf.edges.forEach((e, i) => {
    const from = byId.get(e.from);
    if (e.edgeType === "delegate") {
      warnings.add("delegate edge", () =>
        omitted(
          pointer("edges", i),
          `delegate edge '${e.from}' -> '${e.to}' left out: delegation has no AgentOS form`,
          { from: e.from, to: e.to },
        ),
      );
      return;
    }
    const { when } = e;
    if (when !== undefined)
      warnings.add("edge label", () =>
        omitted(
          pointer("edges", i, "when"),
          `edge '${e.from}' -> '${e.to}': when has no AgentOS form`,
          { when },
        ),
      );
    if (e.edgeType === "toolCall")
      warnings.add("toolCall edge", () =>
        omitted(
          pointer("edges", i, "edgeType"),
          `edge '${e.from}' -> '${e.to}': toolCall is written as a static edge`,
          {},
        ),
      );
    if (from?.type === "decision") {
      route(from.id);
      return;
    }
    hasOut.add(e.from);
    const s = special.get(e.to);
    if (s?.source !== e.from) {
      link(e.from, e.to);
      return;
    }
    const onTrue = end(String((s.config.onTrue as Obj).next));
    const onFalse = end(String((s.config.onFalse as Obj).next));
    if (s.kind === "personality") {
      const [, trait = "", threshold = "0"] = PERSONALITY.exec(String(s.config.condition)) ?? [];
      const personalityCondition = {
        trait,
        threshold: Number(threshold),
        above: onTrue,
        below: onFalse,
      };
      add({ source: e.from, target: onTrue, type: "personality", personalityCondition });
      add({ source: e.from, target: onFalse, type: "personality", personalityCondition });
      return;
    }
    const [, kind = "any", query] = DISCOVERY.exec(String(s.config.condition)) ?? [];
    add({
      source: e.from,
      target: onTrue,
      type: "discovery",
      ...(query === undefined ? {} : { discoveryQuery: unquote(query) }),
      discoveryKind: kind,
      discoveryFallback: onFalse,
    });
  });
  for (const n of wf.nodes) {
    if (n.type === "decision" && !special.has(n.id)) route(n.id);
    else if (n.type !== "decision" && !hasOut.has(n.id)) link(n.id, END);
  }
  const document: Obj = {
    id: wf.id,
    name: wf.name,
    nodes,
    edges,
    stateSchema: {
      input: partition(wf.inputSchema, wf),
      scratch: { type: "object", properties: {} },
      artifacts: partition(wf.outputSchema, wf),
    },
  };
  return { document, warnings: warnings.list() };
}
