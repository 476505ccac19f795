/**
 * Runs a graph in AgentOS's own `GraphRuntime`, as the AgentOS tests compare agentflow's reading
 * with it: routers run by AgentOS's own `NodeExecutor` (so its own expression reader), every other
 * node answered by the test.
 */
import type {
  CompiledExecutionGraph,
  GraphNode,
  GraphState,
  NodeExecutionResult,
} from "@framers/agentos/orchestration";
import {
  GraphRuntime,
  InMemoryCheckpointStore,
  NodeExecutor,
} from "@framers/agentos/orchestration";

type Obj = Record<string, unknown>;

/** What a non-router node answers: its output, and the scratch update, if any. */
export interface Answer {
  readonly output: unknown;
  readonly scratchUpdate?: Obj;
}

class AnsweringExecutor extends NodeExecutor {
  constructor(private readonly answer: (node: GraphNode) => Answer) {
    super({});
  }

  override async execute(node: GraphNode, state: GraphState): Promise<NodeExecutionResult> {
    if (node.type === "router") return super.execute(node, state);
    const { output, scratchUpdate } = this.answer(node);
    return Promise.resolve({
      success: true,
      output,
      ...(scratchUpdate === undefined ? {} : { scratchUpdate }),
    });
  }
}

/** One run: every node started, in order, the routers among them, and the errors reported. */
export interface AgentOsRun {
  readonly started: readonly string[];
  readonly routers: ReadonlySet<string>;
  readonly errors: readonly string[];
}

/** Runs `doc` as a file carries it (JSON), with `input`, each non-router node answering `answer`. */
export async function runAgentOs(
  doc: unknown,
  answer: (node: GraphNode) => Answer,
  input: Obj = {},
): Promise<AgentOsRun> {
  const graph = JSON.parse(JSON.stringify(doc)) as CompiledExecutionGraph;
  const runtime = new GraphRuntime({
    checkpointStore: new InMemoryCheckpointStore(),
    nodeExecutor: new AnsweringExecutor(answer),
  });
  const started: string[] = [];
  const errors: string[] = [];
  for await (const event of runtime.stream(graph, input)) {
    if (event.type === "node_start") started.push(event.nodeId);
    if (event.type === "error") errors.push(event.error.message);
  }
  const routers = new Set(graph.nodes.filter((n) => n.type === "router").map((n) => n.id));
  return { started, routers, errors };
}

/** {@link runAgentOs}, failing on the first error the run reports. */
export async function startedInAgentOs(
  doc: unknown,
  answer: (node: GraphNode) => Answer,
  input: Obj = {},
): Promise<AgentOsRun> {
  const run = await runAgentOs(doc, answer, input);
  const [error] = run.errors;
  if (error !== undefined) throw new Error(error);
  return run;
}
