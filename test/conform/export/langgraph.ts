/**
 * A simulated run recorded by LangGraph itself: a real StateGraph is built from the workflow (its
 * llm and tool nodes; decisions are the conditional edges between them, as agentflow's LangGraph
 * export makes them), each node returns the simulated outputs in order (failing first as often as
 * the error boundary retried it, under a retry policy), the router follows the simulated path,
 * and the stream is written as JSON lines. A run the simulator stopped is cut where it stopped.
 */
import { AIMessage } from "@langchain/core/messages";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import type { AgentWorkflow } from "../../../src/model/index.js";
import type { JsonObject, SimulationState } from "../../../src/simulate/index.js";
import { CALL_TOKENS, costKeys } from "./usage.js";

/** How the run is recorded: one stream mode, both, or the checkpointer's tuples. */
export type LangGraphRecording = "updates" | "debug" | "updates+debug" | "tuples";

interface Exec {
  readonly node: string;
  readonly output: JsonObject;
  readonly params?: JsonObject;
  readonly fails: number;
  readonly fail: boolean;
}

const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

function execsOf(wf: AgentWorkflow, state: SimulationState): { execs: Exec[]; complete: boolean } {
  const steps = new Set(wf.nodes.filter((n) => n.type !== "decision").map((n) => n.id));
  const fails = new Map<string, number>();
  const execs: Exec[] = [];
  let complete = false;
  for (const r of state.trail) {
    const node = r.nodeId;
    if (node === undefined || !steps.has(node)) {
      if (r.type === "end") complete = true;
      continue;
    }
    const failed = fails.get(node) ?? 0;
    if (r.type === "boundary" && r.decorator === "errorBoundary") fails.set(node, failed + 1);
    else if (r.type === "move") {
      execs.push({
        node,
        output: r.output ?? {},
        ...(r.params === undefined ? {} : { params: r.params }),
        fails: failed,
        fail: false,
      });
      fails.set(node, 0);
    } else if (
      r.type === "decision-blocked" &&
      (r.cell === "execution" || r.cell === "errorBoundary")
    )
      execs.push({ node, output: {}, fails: failed, fail: true });
    else if (r.type === "end") complete = true;
  }
  return { execs, complete };
}

/** A key LangGraph can hold as a channel of its own. */
function safeKey(key: string): boolean {
  return (
    !RESERVED.has(key) &&
    !key.startsWith("__") &&
    !/[:|]/.test(key) &&
    !key.startsWith("agentflow.")
  );
}

/**
 * The recording's lines: the run's stream (or checkpoint tuples) as JSON lines. With `models`,
 * each llm node's update holds the AIMessage of its model call (`messages`, with the node's
 * model and provider in `response_metadata` and its tokens in `usage_metadata`), as a chat model
 * node's does, and what the call cost (`agentflow.cost.<code>`): a model call that records no
 * model is unverified, as is one that records no tokens or cost against a budget that limits
 * them. Without it, the updates hold the outputs alone (the committed fixtures were written so).
 */
export async function langgraphRecording(
  wf: AgentWorkflow,
  state: SimulationState,
  run: { id: string; startMs: number },
  how: LangGraphRecording,
  options: { readonly models?: boolean } = {},
): Promise<string> {
  const models = options.models === true;
  const cost = models ? costKeys(wf) : {};
  const { execs, complete } = execsOf(wf, state);
  const keys = new Set<string>();
  for (const e of execs) for (const k of Object.keys(e.output)) if (safeKey(k)) keys.add(k);
  if (models && keys.has("messages"))
    throw new Error("an output key 'messages' is the messages channel");
  // A node id LangGraph refuses (or that a channel already has) gets another name and says its id.
  const names = new Map<string, string>();
  wf.nodes.forEach((n, i) => {
    if (n.type === "decision") return;
    let name = safeKey(n.id) && !keys.has(n.id) && n.id !== "messages" ? n.id : `node_${i}`;
    while (keys.has(name)) name = `${name}_`;
    names.set(n.id, name);
  });
  const types = new Map(wf.nodes.map((n) => [n.id, n.type]));
  const channels: Record<string, ReturnType<typeof Annotation<unknown>>> = {};
  for (const k of [
    ...keys,
    "agentflow.node.id",
    "agentflow.node.type",
    "agentflow.node.output",
    "agentflow.tool.args",
    ...Object.keys(cost),
    ...(models ? ["messages"] : []),
  ])
    Object.defineProperty(channels, k, { value: Annotation<unknown>(), enumerable: true });
  const State = Annotation.Root(channels);
  let cursor = 0;
  const graph = new StateGraph(State);
  const nextName = (): string => {
    const next = execs[cursor];
    return next === undefined ? END : (names.get(next.node) ?? END);
  };
  for (const [id, name] of names) {
    let attempts = 0;
    const maxFails = Math.max(
      0,
      ...execs.filter((e) => e.node === id).map((e) => e.fails + (e.fail ? 1 : 0)),
    );
    graph.addNode(
      name,
      () => {
        const exec = execs[cursor];
        if (exec?.node !== id) throw new Error(`node ${id} ran off the simulated path`);
        if (exec.fail || attempts < exec.fails) {
          attempts += 1;
          throw new Error(`simulated failure of ${id}`);
        }
        attempts = 0;
        cursor += 1;
        const update: Record<string, unknown> = {};
        const plain = Object.keys(exec.output).every((k) => keys.has(k));
        if (plain) Object.assign(update, exec.output);
        else update["agentflow.node.output"] = JSON.stringify(exec.output);
        if (name !== id) update["agentflow.node.id"] = id;
        const node = wf.nodes.find((n) => n.id === id);
        if (models && node?.type === "llm") {
          const { model, provider } = node.config;
          const metadata = {
            model_name: model,
            ...(provider === undefined ? {} : { model_provider: provider }),
          };
          const usage = {
            input_tokens: CALL_TOKENS.input,
            output_tokens: CALL_TOKENS.output,
            total_tokens: CALL_TOKENS.input + CALL_TOKENS.output,
          };
          // The generic message structure types usage_metadata as never; the runtime keeps it.
          const fields = { content: "", response_metadata: metadata, usage_metadata: usage };
          update.messages = [new AIMessage(fields as unknown as { content: string })];
          Object.assign(update, cost);
        }
        if (types.get(id) === "tool") {
          update["agentflow.node.type"] = "tool";
          if (exec.params !== undefined) update["agentflow.tool.args"] = exec.params;
        }
        return update;
      },
      {
        retryPolicy: {
          maxAttempts: maxFails + 1,
          initialInterval: 0,
          jitter: false,
          logWarning: false,
        },
      },
    );
  }
  const ends = [...names.values(), END];
  const router = () => nextName();
  // The typed builder wants literal node names; these come from the workflow at run time.
  const g = graph as unknown as {
    addConditionalEdges(from: string, route: () => string, ends: string[]): void;
    compile(o: object): { stream(input: object, config: object): Promise<AsyncIterable<unknown>> };
  };
  g.addConditionalEdges(START, router, ends);
  for (const name of names.values()) g.addConditionalEdges(name, router, ends);
  const saver = new MemorySaver();
  const app = g.compile({ checkpointer: saver });
  const mode = how === "updates+debug" ? ["updates", "debug"] : how === "tuples" ? "updates" : how;
  const config = {
    configurable: { thread_id: run.id },
    streamMode: mode,
    metadata: { "agentflow.workflow": `${wf.id}@${wf.version}` },
  };
  const lines: string[] = [];
  // Each time LangGraph writes becomes the next tick of a logical clock (one millisecond), so
  // that a recording does not depend on how fast this machine ran it.
  let ticks = 0;
  const logical = (): string => new Date(run.startMs + ticks++).toISOString();
  // A stopped run is cut after its last node's result (after the input, when no node ran): what
  // LangGraph would do next is not the simulator's run.
  const stopped = !complete && !(execs.at(-1)?.fail ?? false);
  // LangGraph runs ahead of the reader of its stream: count the results read, not the nodes run.
  let results = 0;
  const cutHere = (chunk: unknown): boolean => {
    if (!stopped || how === "tuples") return false;
    const body: unknown = Array.isArray(chunk) ? chunk[1] : chunk;
    const isResult =
      how === "updates" ||
      (typeof body === "object" &&
        body !== null &&
        (body as { type?: unknown }).type === "task_result");
    if (isResult) results += 1;
    return results >= execs.length;
  };
  const stamp = (k: string, v: unknown): unknown =>
    (k === "timestamp" || k === "ts") && typeof v === "string" ? logical() : v;
  if (!(stopped && execs.length === 0 && how === "updates")) {
    try {
      for await (const chunk of await app.stream({}, config)) {
        lines.push(JSON.stringify(chunk, stamp));
        if (cutHere(chunk)) break;
      }
    } catch {
      // A node that failed for good ends LangGraph's run with its error: the stream has it.
    }
  }
  if (how !== "tuples") return lines.map((l) => `${l}\n`).join("");
  if (!complete) throw new Error("tuples are recorded for completed runs only");
  const tuples: object[] = [];
  for await (const t of saver.list({ configurable: { thread_id: run.id } })) tuples.push(t);
  // The logical clock follows the checkpoints' steps (list() gives the newest first).
  const step = (t: object): number => (t as { metadata?: { step?: number } }).metadata?.step ?? 0;
  const order = [...tuples].sort((a, b) => step(a) - step(b));
  const tick = new Map(order.map((t) => [t, logical()]));
  const restamp = (t: object) => (k: string, v: unknown) => (k === "ts" ? tick.get(t) : v);
  return tuples.map((t) => `${JSON.stringify(t, restamp(t))}\n`).join("");
}

/** The simulated run as LangGraph streams it with `streamMode: ["updates", "debug"]`. */
export function langgraphFromSimulation(
  wf: AgentWorkflow,
  state: SimulationState,
  run: { id: string; startMs: number },
): Promise<string> {
  return langgraphRecording(wf, state, run, "updates+debug", { models: true });
}
