/**
 * Import of the OpenAgentFlow IR (seed `openagentflow-ir-schema.txt`). The version is checked
 * first (another major fails), then state, agents and graph are mapped as
 * `docs/interop/openagentflow.md` lists; `autonomyLevel` is the level the graph justifies.
 */
import { guardImport } from "../guard.js";
import type { AgentWorkflow } from "../../model/index.js";
import { parseVersion, parseWorkflow, pointer, pointerTokens } from "../../model/index.js";
import { minCoherentLevel } from "../../autonomy/index.js";
import { describeValue, isRecord, own } from "../json.js";
import type { ImportResult, InteropWarning } from "../types.js";
import { FIELD_DROPPED, HEURISTIC, VALUE_NORMALIZED } from "../types.js";
import type { ReadAgent } from "./import-agents.js";
import { nodeIdsOf, readAgent, runtimeDefaultWarning } from "./import-agents.js";
import { buildGraph, readEntrypoint } from "./import-graph.js";
import { readVariables, schemasOf } from "./import-state.js";
import { OpenAgentFlowImportError, oafError } from "./ir-types.js";
import type { Obj } from "./read.js";
import { dropUnknown, needArray, needRecord, needString } from "./read.js";

const TOP_KEYS = new Set(["version", "workflow", "state", "agents", "graph"]);
const WORKFLOW_KEYS = new Set(["name", "config"]);
const STATE_KEYS = new Set(["variables"]);
const GRAPH_KEYS = new Set(["edges", "entrypoint", "terminals"]);
const CONFIG_KEYS = new Set(["version", "max_iterations", "timeout_seconds"]);
const DEFAULT_VERSION = "1.0.0";

/** The IR version must be semver with major 0 (the seed's current `0.1.0`). */
function checkIrVersion(doc: Obj): void {
  const written = needString(doc, "version", []);
  const parsed = parseVersion(written);
  if (!parsed.ok || parsed.abbreviated)
    throw oafError("/version", `IR version '${written}' is not a semantic version`);
  if (!parsed.version.startsWith("0.")) {
    throw oafError(
      "/version",
      `IR version '${written}' has another major version than 0.x this importer reads`,
    );
  }
}

/** A workflow id from the workflow name: lower case, runs of other characters become `-`. */
export function workflowIdOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return /^[a-z]/.test(slug) ? slug : `oaf-${slug}`.replace(/-+$/, "");
}

function workflowVersion(config: Obj, warnings: InteropWarning[]): string {
  const written = own(config, "version");
  const parsed = typeof written === "string" ? parseVersion(written) : undefined;
  if (parsed?.ok === true) {
    if (parsed.abbreviated) {
      warnings.push({
        code: VALUE_NORMALIZED,
        message: `config version '${String(written)}' was read as '${parsed.version}'`,
        path: "/workflow/config/version",
        data: { from: written, to: parsed.version },
      });
    }
    return parsed.version;
  }
  if (written !== undefined) {
    warnings.push({
      code: FIELD_DROPPED,
      message: `config version ${describeValue(written)} is not a semantic version`,
      path: "/workflow/config/version",
      data: { key: "version" },
    });
  }
  warnings.push({
    code: HEURISTIC,
    message: `the IR gives the workflow no version; '${DEFAULT_VERSION}' is used`,
    path: "/workflow/config/version",
    data: { assumed: DEFAULT_VERSION },
  });
  return DEFAULT_VERSION;
}

function positiveNumber(config: Obj, key: string, integer: boolean): number | undefined {
  const value = own(config, key);
  if (value === undefined) return undefined;
  if (
    typeof value !== "number" ||
    !(value > 0) ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value))
  ) {
    throw oafError(
      pointer("workflow", "config", key),
      `'${key}' must be a positive ${integer ? "integer" : "number"}, found ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * The model's parser refused the mapped workflow (a temperature above 2, say). A node config
 * field goes back to the agent it came from, so the error names the source path and agent.
 */
function parseFailure(
  path: string,
  message: string,
  nodes: readonly unknown[],
  agents: readonly ReadAgent[],
): OpenAgentFlowImportError {
  const [head, index, config, key] = pointerTokens(path);
  const node = head === "nodes" && index !== undefined ? nodes[Number(index)] : undefined;
  const nodeId = isRecord(node) ? own(node, "id") : undefined;
  const i = agents.findIndex((a) => a.node.id === nodeId);
  const agent = agents[i];
  if (agent !== undefined && config === "config" && key !== undefined) {
    const reason = message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
    return oafError(
      pointer("agents", i, key),
      `agent '${agent.sourceId}': ${reason}`,
      agent.sourceId,
    );
  }
  return oafError("", `the mapped workflow does not parse: ${message}`);
}

function importUnchecked(doc: unknown): ImportResult {
  if (!isRecord(doc))
    throw oafError(
      "",
      `an OpenAgentFlow IR document must be an object, found ${describeValue(doc)}`,
    );
  checkIrVersion(doc);
  const warnings: InteropWarning[] = [];
  dropUnknown(doc, TOP_KEYS, [], "the IR", warnings);
  const workflow = needRecord(doc, "workflow", []);
  dropUnknown(workflow, WORKFLOW_KEYS, ["workflow"], "workflow", warnings);
  const name = needString(workflow, "name", ["workflow"]);
  const config = needRecord(workflow, "config", ["workflow"]);
  dropUnknown(config, CONFIG_KEYS, ["workflow", "config"], "config", warnings);
  const version = workflowVersion(config, warnings);
  const maxIterations = positiveNumber(config, "max_iterations", true);
  const timeout = positiveNumber(config, "timeout_seconds", false);
  const state = needRecord(doc, "state", []);
  dropUnknown(state, STATE_KEYS, ["state"], "state", warnings);
  const variables = readVariables(state, warnings);
  const byName = new Map(variables.map((v) => [v.name, v]));
  const rawAgents = needArray(doc, "agents", []);
  if (rawAgents.length === 0) throw oafError("/agents", "the IR has no agent");
  const agents = new Map<string, ReadAgent>();
  const ids = nodeIdsOf(rawAgents);
  rawAgents.forEach((item, i) => {
    const agent = readAgent(item, i, byName, ids, warnings);
    if (agents.has(agent.sourceId)) {
      throw oafError(
        pointer("agents", i, "id"),
        `agent id '${agent.sourceId}' is used twice`,
        agent.sourceId,
      );
    }
    agents.set(agent.sourceId, agent);
  });
  const defaulted = runtimeDefaultWarning([...agents.values()]);
  if (defaulted !== undefined) warnings.push(defaulted);
  const graph = needRecord(doc, "graph", []);
  dropUnknown(graph, GRAPH_KEYS, ["graph"], "graph", warnings);
  const entry = readEntrypoint(graph, agents);
  const all = [...agents.values()];
  const order = [
    ...all.filter((a) => a.sourceId === entry),
    ...all.filter((a) => a.sourceId !== entry),
  ];
  const built = buildGraph(graph, {
    agents,
    order,
    variables: new Set(byName.keys()),
    maxIterations,
    warnings,
  });
  if (maxIterations !== undefined && !built.boundUsed) {
    warnings.push({
      code: FIELD_DROPPED,
      message:
        "max_iterations bounds no route: no conditional route, and no agent that also ends the run unconditionally, leads back into a loop",
      path: "/workflow/config/max_iterations",
      data: { key: "max_iterations" },
    });
  }
  const written = new Set(all.flatMap((a) => a.outputs));
  const kept = Object.fromEntries(all.map((a) => [String(a.node.id), a.kept]));
  const draft = {
    kind: "AgentWorkflow",
    id: workflowIdOf(name),
    version,
    name,
    autonomyLevel: 1,
    ...schemasOf(variables, written),
    nodes: built.nodes,
    edges: built.edges,
    ...(timeout === undefined ? {} : { budget: { maxWallTimeMs: timeout * 1000 } }),
    metadata: { openagentflow: { agents: kept } },
  };
  const parsed = parseWorkflow(draft);
  const error = parsed.diagnostics.find((d) => d.severity === "error");
  if (parsed.workflow === undefined || error !== undefined) {
    throw parseFailure(error?.path ?? "", error?.message ?? "no workflow", built.nodes, all);
  }
  const wf: AgentWorkflow = parsed.workflow;
  return { workflow: { ...wf, autonomyLevel: minCoherentLevel(wf) }, warnings };
}

/**
 * Imports an OpenAgentFlow IR document. Throws only {@link OpenAgentFlowImportError} (an
 * {@link ImportError}), naming the path and the agent or variable concerned.
 *
 * @example
 * ```ts
 * import { importOpenAgentFlow } from "agentflow/interop";
 *
 * const { workflow, warnings } = importOpenAgentFlow({
 *   version: "0.1.5",
 *   workflow: { name: "Hello", config: {} },
 *   state: { variables: [] },
 *   agents: [
 *     {
 *       id: "Greeter",
 *       instructions: "Say hello to the user.",
 *       model: "gemini-2.5-flash",
 *       provider: "gemini",
 *       temperature: null,
 *       tools: [],
 *       inputs: [],
 *       outputs: [],
 *     },
 *   ],
 *   graph: { edges: [], entrypoint: "Greeter", terminals: [{ source: "Greeter", condition: null }] },
 * });
 * workflow.id; // → "hello"
 * workflow.nodes[0]?.config;
 * // → { model: "gemini-2.5-flash", promptRef: "prm:Greeter@1.0.0", provider: "gemini" }
 * // the IR states no version: 1.0.0 is assumed, and said so
 * warnings.map((w) => `${w.code} ${w.path}`); // → ["HEURISTIC /workflow/config/version"]
 * ```
 */
export function importOpenAgentFlow(doc: unknown): ImportResult {
  return guardImport(
    () => importUnchecked(doc),
    (failure) => new OpenAgentFlowImportError(failure),
  );
}
