/**
 * Export to the OpenAgentFlow IR. llm nodes become agents, a decision right after an llm node
 * becomes that agent's conditional edges and terminals, and everything with no IR form is left
 * out and declared (`autonomyLevel` always). The document satisfies the seed's adapter checks
 * (an entrypoint, a terminal, an agent) whenever the workflow has an llm node that ends a run.
 */
import type { AgentWorkflow, DecisionNode, LlmNode } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { flowEdgesBy } from "../edge-index.js";
import { isRecord, own } from "../json.js";
import type { ExportResult } from "../types.js";
import { ExportWarnings, omitted } from "../warnings.js";
import type { Sink } from "./export-decision.js";
import { exportDecision, isLoopDecision, writeTransition } from "./export-decision.js";
import { exportVariables } from "./export-state.js";
import { goOn, toolLoopsOf } from "./export-tools.js";
import { workflowIdOf } from "./import.js";
import type { OafAgent, OafDocument } from "./ir-types.js";
import { OAF_IR_VERSION, RUNTIME_DEFAULT_MODEL } from "./ir-types.js";

const MAPPED_TOP = new Set([
  "kind",
  "id",
  "version",
  "name",
  "autonomyLevel",
  "inputSchema",
  "outputSchema",
  "nodes",
  "edges",
  "budget",
  "metadata",
]);
const MAPPED_LLM = new Set([
  "model",
  "promptRef",
  "provider",
  "temperature",
  "outputSchema",
  "structuredOutput",
]);

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function exportAgent(
  node: LlmNode,
  i: number,
  kept: unknown,
  declared: ReadonlySet<string>,
  tools: readonly string[] | undefined,
  warnings: ExportWarnings,
): OafAgent {
  const at = (...rest: string[]): string => pointer("nodes", i, ...rest);
  for (const key of Object.keys(node)) {
    if (key !== "id" && key !== "type" && key !== "config")
      warnings.add("node field", () =>
        omitted(at(key), `node '${node.id}': '${key}' has no OAF form`, { nodeId: node.id, key }),
      );
  }
  for (const key of Object.keys(node.config)) {
    if (!MAPPED_LLM.has(key))
      warnings.add("node config", () =>
        omitted(at("config", key), `node '${node.id}': '${key}' has no OAF form`, {
          nodeId: node.id,
          key,
        }),
      );
  }
  const meta = isRecord(kept) ? kept : {};
  let instructions = own(meta, "instructions");
  if (typeof instructions !== "string") {
    instructions = node.config.promptRef;
    warnings.add("prompt text", () =>
      omitted(
        at("config", "promptRef"),
        `node '${node.id}': the prompt text is not in the workflow; the promptRef is written as the instructions`,
        { nodeId: node.id },
      ),
    );
  }
  const outputs = Object.keys(node.config.outputSchema ?? {}).map((k) => k.replace(/\?$/, ""));
  return {
    id: node.id,
    instructions: String(instructions),
    model: node.config.model === RUNTIME_DEFAULT_MODEL ? null : node.config.model,
    provider: node.config.provider ?? null,
    temperature: node.config.temperature ?? null,
    // The tool loop after the agent when there is one; a workflow without it, its kept names.
    tools: tools === undefined ? strings(own(meta, "tools")) : [...tools],
    inputs: strings(own(meta, "inputs")).filter((v) => declared.has(v)),
    outputs: outputs.filter((v) => declared.has(v)),
  };
}

/**
 * Exports a workflow to the OpenAgentFlow IR. Never throws. Warnings: `autonomyLevel`, the
 * workflow-level omissions, variables, then nodes and edges in document order.
 *
 * @example
 * ```ts
 * import { exportOpenAgentFlow } from "agentflow/interop";
 * import { getTemplate } from "agentflow/model";
 *
 * const wf = getTemplate("document-review");
 * if (wf === undefined) throw new Error("no such template");
 * const { document } = exportOpenAgentFlow(wf);
 * document.agents.map((a) => a.id); // → ["llm-extract", "llm-classify"]
 * // the decision becomes a condition on the edge between the two agents
 * document.graph.edges[0]?.condition;
 * // → {
 * //     type: "BinaryExpr",
 * //     operator: "==",
 * //     left: { type: "IdentifierExpr", name: "is_valid" },
 * //     right: { type: "LiteralExpr", value: true },
 * //   }
 * ```
 */
export function exportOpenAgentFlow(wf: AgentWorkflow): ExportResult<OafDocument> {
  const warnings = new ExportWarnings();
  warnings.add("/autonomyLevel", () =>
    omitted("/autonomyLevel", "autonomyLevel left out: the IR has none; an import recomputes it", {
      autonomyLevel: wf.autonomyLevel,
    }),
  );
  if (wf.id !== workflowIdOf(wf.name))
    warnings.add("/id", () =>
      omitted(
        "/id",
        `id '${wf.id}' left out: the IR names a workflow only; an import derives the id from the name`,
        { id: wf.id },
      ),
    );
  for (const key of Object.keys(wf))
    if (!MAPPED_TOP.has(key))
      warnings.add("top-level field", () =>
        omitted(pointer(key), `'${key}' left out: the IR has no such field`, { key }),
      );
  const config: Record<string, unknown> = { version: wf.version };
  for (const [key, value] of Object.entries(wf.budget ?? {})) {
    if (key === "maxWallTimeMs" && typeof value === "number") config.timeout_seconds = value / 1000;
    else
      warnings.add("budget", () =>
        omitted(
          pointer("budget", key),
          `budget '${key}' left out: the IR has only timeout_seconds`,
          {
            key,
          },
        ),
      );
  }
  const meta = wf.metadata ?? {};
  for (const key of Object.keys(meta))
    if (key !== "openagentflow")
      warnings.add("metadata key", () =>
        omitted(pointer("metadata", key), `metadata '${key}' left out`, { key }),
      );
  const oafMeta = own(meta, "openagentflow");
  const keptAgents = isRecord(oafMeta) ? own(oafMeta, "agents") : undefined;
  const variables = exportVariables(wf, warnings);
  const declared = new Set(variables.map((v) => v.name));
  const agentIds = new Set(wf.nodes.filter((n) => n.type === "llm").map((n) => n.id));
  const loops = new Map<string, { node: DecisionNode; i: number }>();
  wf.nodes.forEach((node, i) => {
    if (node.type === "decision" && isLoopDecision(node)) loops.set(node.id, { node, i });
  });
  const sink: Sink = {
    edges: [],
    terminals: [],
    bounds: [],
    warnings,
    loops,
    consumedLoops: new Set<string>(),
    variables: declared,
    written: new Set<string>(),
  };
  const agents: OafAgent[] = [];
  /** The node index of each agent, for the pointer of its terminal. */
  const agentIndex: number[] = [];
  const consumed = new Set<number>();
  const flowsOut = new Set<string>();
  const intoNode = flowEdgesBy(wf, "to");
  const tools = toolLoopsOf(wf, agentIds, intoNode, consumed);
  wf.nodes.forEach((node, i) => {
    if (node.type === "llm") {
      const kept = isRecord(keptAgents) ? own(keptAgents, node.id) : undefined;
      agents.push(exportAgent(node, i, kept, declared, tools.ofAgent.get(node.id), warnings));
      agentIndex.push(i);
      return;
    }
    if (tools.skip.has(i)) return;
    const loop = tools.loops.get(node.id);
    if (loop !== undefined) {
      goOn(loop, tools.after, agentIds, sink, flowsOut);
      return;
    }
    const after = tools.after.get(node.id);
    if (node.type === "decision" && after !== undefined) {
      flowsOut.add(after);
      exportDecision(node, i, after, agentIds, sink);
      return;
    }
    const into = intoNode.get(node.id) ?? [];
    const [only] = into;
    if (
      node.type === "decision" &&
      into.length === 1 &&
      only !== undefined &&
      agentIds.has(only.e.from)
    ) {
      consumed.add(only.j);
      flowsOut.add(only.e.from);
      exportDecision(node, i, only.e.from, agentIds, sink);
      return;
    }
    if (sink.consumedLoops.has(node.id) && into.length === 0) return;
    warnings.add("node", () =>
      omitted(
        pointer("nodes", i),
        `${node.type} node '${node.id}' left out: only llm nodes and decisions right after one llm node have an IR form`,
        { nodeId: node.id },
      ),
    );
  });
  wf.edges.forEach((edge, j) => {
    if (consumed.has(j)) return;
    if (edge.edgeType === "delegate" || !agentIds.has(edge.from) || !agentIds.has(edge.to)) {
      warnings.add("edge", () =>
        omitted(
          pointer("edges", j),
          `edge '${edge.from}' -> '${edge.to}' left out: the IR has agent-to-agent edges only`,
          { from: edge.from, to: edge.to },
        ),
      );
      return;
    }
    const { when } = edge;
    if (when !== undefined)
      warnings.add("edge label", () =>
        omitted(pointer("edges", j, "when"), `edge label '${when}' left out`, { when }),
      );
    flowsOut.add(edge.from);
    writeTransition(edge.from, edge.to, null, pointer("edges", j), sink);
  });
  agents.forEach((agent, k) => {
    if (!flowsOut.has(agent.id))
      writeTransition(agent.id, "end", null, pointer("nodes", agentIndex[k] ?? 0), sink);
  });
  // A loop, not `Math.max(...list)`: spreading 100,000 arguments overflows the stack.
  const bound = sink.bounds.reduce((max, b) => Math.max(max, b.value), 0);
  for (const b of sink.bounds)
    if (b.value !== bound)
      warnings.add("maxRetries", () =>
        omitted(
          b.path,
          `maxRetries ${b.value} is written as the workflow's max_iterations ${bound}`,
          {
            maxRetries: b.value,
          },
        ),
      );
  // An import keeps the IR's max_iterations in metadata and reads the loops unbounded (the
  // reference runtime never enforces it): written back when no route states a bound.
  const kept = isRecord(oafMeta) ? own(oafMeta, "maxIterations") : undefined;
  if (bound > 0) config.max_iterations = bound;
  else if (typeof kept === "number" && Number.isInteger(kept) && kept > 0)
    config.max_iterations = kept;
  const document: OafDocument = {
    version: OAF_IR_VERSION,
    workflow: { name: wf.name, config },
    state: { variables },
    agents,
    graph: { edges: sink.edges, entrypoint: agents[0]?.id ?? "", terminals: sink.terminals },
  };
  return { document, warnings: warnings.list() };
}
