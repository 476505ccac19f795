/**
 * Import of the OpenAgentFlow IR (seed `openagentflow-ir-schema.txt`). The version is checked
 * first (another major fails), then state, agents and graph are mapped as
 * `docs/interop/openagentflow.md` lists; `autonomyLevel` is the level the graph justifies.
 */
import type { Diagnostic } from "../../model/index.js";
import { parseVersion, pointer, pointerTokens } from "../../model/index.js";
import type { Built } from "../pipeline.js";
import { defineImport } from "../pipeline.js";
import { describeValue, isRecord, own } from "../json.js";
import type { ImportResult, InteropWarning } from "../types.js";
import type { ReadAgent } from "./import-agents.js";
import { nodeIdsOf, readAgent, runtimeDefaultWarning } from "./import-agents.js";
import { readUnbounded } from "./import-bound.js";
import { buildGraph, readEntrypoint } from "./import-graph.js";
import { readVariables, schemasOf } from "./import-state.js";
import type { ImportError } from "../types.js";
import { fail, OPENAGENTFLOW_ID } from "./ir-types.js";
import type { Obj } from "./read.js";
import { dropUnknown, needArray, needRecord, needString } from "./read.js";
import { dropped, guessed, normalized } from "../warnings.js";

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
    throw fail("/version", `IR version '${written}' is not a semantic version`);
  if (!parsed.version.startsWith("0.")) {
    throw fail(
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
      warnings.push(
        normalized(
          "/workflow/config/version",
          `config version '${String(written)}' was read as '${parsed.version}'`,
          { from: written, to: parsed.version },
        ),
      );
    }
    return parsed.version;
  }
  if (written !== undefined) {
    warnings.push(
      dropped(
        "/workflow/config/version",
        `config version ${describeValue(written)} is not a semantic version`,
        { key: "version" },
      ),
    );
  }
  warnings.push(
    guessed(
      "/workflow/config/version",
      `the IR gives the workflow no version; '${DEFAULT_VERSION}' is used`,
      { assumed: DEFAULT_VERSION },
    ),
  );
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
    throw fail(
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
  { path, message }: Diagnostic,
  nodes: readonly unknown[],
  agents: readonly ReadAgent[],
): ImportError {
  const [head, index, config, key] = pointerTokens(path);
  const node = head === "nodes" && index !== undefined ? nodes[Number(index)] : undefined;
  const nodeId = isRecord(node) ? own(node, "id") : undefined;
  const i = agents.findIndex((a) => a.node.id === nodeId);
  const agent = agents[i];
  if (agent !== undefined && config === "config" && key !== undefined) {
    const reason = message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
    return fail(pointer("agents", i, key), `agent '${agent.sourceId}': ${reason}`, agent.sourceId);
  }
  return fail("", `the mapped workflow does not parse: ${message}`);
}

function build(doc: unknown, warnings: InteropWarning[]): Built {
  if (!isRecord(doc))
    throw fail("", `an OpenAgentFlow IR document must be an object, found ${describeValue(doc)}`);
  checkIrVersion(doc);
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
  if (rawAgents.length === 0) throw fail("/agents", "the IR has no agent");
  const agents = new Map<string, ReadAgent>();
  const ids = nodeIdsOf(rawAgents);
  rawAgents.forEach((item, i) => {
    const agent = readAgent(item, i, byName, ids, warnings);
    if (agents.has(agent.sourceId)) {
      throw fail(
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
    const message =
      "max_iterations bounds no route: no conditional route, and no agent that also ends the run unconditionally, leads back into a loop";
    warnings.push(dropped("/workflow/config/max_iterations", message, { key: "max_iterations" }));
  }
  // The reference runtime never enforces max_iterations: the loops are read unbounded, declared.
  const unbounded =
    maxIterations !== undefined && built.boundUsed
      ? readUnbounded(built.nodes, maxIterations)
      : undefined;
  if (unbounded !== undefined) warnings.push(unbounded.warning);
  const nodes = unbounded?.nodes ?? built.nodes;
  const bound = unbounded === undefined ? {} : { maxIterations };
  const written = new Set(all.flatMap((a) => a.outputs));
  const kept = Object.fromEntries(all.map((a) => [String(a.node.id), a.kept]));
  const draft = {
    kind: "AgentWorkflow",
    id: workflowIdOf(name),
    version,
    name,
    autonomyLevel: 1,
    ...schemasOf(variables, written),
    nodes,
    edges: built.edges,
    ...(timeout === undefined ? {} : { budget: { maxWallTimeMs: timeout * 1000 } }),
    metadata: { openagentflow: { agents: kept, ...bound } },
  };
  return { draft, refuse: (d) => parseFailure(d, nodes, all) };
}

const importIr = defineImport({ format: OPENAGENTFLOW_ID, build });

/**
 * Imports an OpenAgentFlow IR document. Throws only {@link ImportError} (of format
 * `openagentflow`), naming the path and the agent or variable concerned.
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
  return importIr(doc);
}
