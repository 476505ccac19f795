/**
 * The public shapes of the simulator (SPEC 5). `SimulationState`, `TransitionRecord` and
 * `BlockedDecision` keep the seed's shape, which is structurally identical to the BPMN token
 * simulator's, so one UI renders an agent run and a process run with the same components.
 */
import type { AgentNode, Budget, Diagnostic } from "../model/index.js";

/** A JSON object: what node outputs, params, inputs and the merged output are. */
export type JsonObject = Readonly<Record<string, unknown>>;

/**
 * Where a run stopped: `condition` (a condition could not be decided, or `decide` named an
 * unknown route), a route label (`onFalse`, `cases/1`...: a looping route without
 * `maxRetries`, an exhausted retry, a route to a missing node), `execution` (a failure without an
 * error boundary, an unresolvable param template, a non-object output), `errorBoundary` (retries
 * exhausted), `budget` (a budget limit or `maxSteps`), `output-schema` (an output violates a
 * declared schema).
 */
export type BlockCell =
  "condition" | "execution" | "errorBoundary" | "budget" | "output-schema" | (string & {});

/** Why and where a run stopped. Every stop is one of these, never an exception. */
export interface BlockedDecision {
  /** The node the token was at (for the final output check: the last node that ran). */
  readonly nodeId: string;
  readonly cell: BlockCell;
  /** A sentence for people; structured values are on the `decision-blocked` trail record. */
  readonly reason: string;
}

/** The record types of the shared trail; an agent run uses `move`, `boundary`, `decision`... */
export type TransitionType =
  | "move"
  | "split"
  | "join-wait"
  | "join-fire"
  | "boundary"
  | "decision"
  | "decision-blocked"
  | "end";

/** Resources a run consumed, as projected by the budget model. */
export interface Usage {
  /** llm/tool executions that produced an output: what `budget.maxSteps` limits. */
  readonly steps: number;
  /** Moves: llm/tool attempts (failed ones too) and decision evaluations; `maxSteps` limits them. */
  readonly moves: number;
  /** Projected model tokens (see docs/simulation.md#budgets). */
  readonly tokens: number;
  /** The logical clock: the sum of error-boundary backoffs. */
  readonly logicalTime: number;
  /** Projected wall time, only with a cost model. */
  readonly wallTimeMs?: number;
  /** Projected cost per ISO 4217 currency code, only with a cost model. */
  readonly cost?: Readonly<Record<string, number>>;
}

/** Retry accounting of a decision route that loops back. */
export interface RetryCount {
  /** Loop-backs of this decision so far, this one included. */
  readonly count: number;
  /** The route's `maxRetries`. */
  readonly max: number;
}

/**
 * One trail record. The first six fields are the shared shape; the others are structured data so
 * that reports never parse `message`. Which fields appear depends on `type` (docs/simulation.md).
 */
export interface TransitionRecord {
  /** Steps executed when the record was written (1 for the entry node's first attempt). */
  readonly step: number;
  readonly type: TransitionType;
  readonly message: string;
  readonly nodeId?: string;
  /** `from->to` with node ids (`dec-3->end` for a route to `"end"`). */
  readonly edgeId?: string;
  /** Never set by this simulator: what it cannot decide, it stops on. */
  readonly approximate?: boolean;
  /** 1-based visit of `nodeId` (`move`, `decision`, and stops at a node). */
  readonly visit?: number;
  /** Execution attempt within the visit (`move`, error-boundary `boundary`). */
  readonly attempt?: number;
  /** `move`: the node's output; `end`: the final merged output. */
  readonly output?: JsonObject;
  /** `move` of a tool: its params with templates resolved. */
  readonly params?: JsonObject;
  /**
   * `move` of a tool: the templates of its params that could not be resolved, kept as their text
   * (the default; `strictParams: true` stops the run at the first instead), each with its reason.
   */
  readonly unresolvedTemplates?: readonly UnresolvedTemplate[];
  /** `decision` (and route stops): the route label taken. */
  readonly route?: string;
  /** `decision`: the route's target, a node id or `"end"`. */
  readonly next?: string;
  /** `decision` (and route stops): the route came from `decide`, not from the condition. */
  readonly forced?: boolean;
  /** `decision` on a looping route: the retry count and bound. */
  readonly retry?: RetryCount;
  /** `boundary`: which decorator acted. */
  readonly decorator?: "memory" | "errorBoundary";
  /** `boundary` of a memory decorator: its scope and expiry. */
  readonly memory?: { readonly scope: string; readonly expiry?: string };
  /** `boundary` of an error boundary: the error caught. */
  readonly error?: string;
  /** `boundary` of an error boundary: the logical backoff before the next attempt. */
  readonly backoff?: number;
  /** `boundary` of an error boundary: the logical clock after the backoff. */
  readonly logicalTime?: number;
  /** `decision-blocked`: the stop's cell and reason (as in `blockedDecision`). */
  readonly cell?: BlockCell;
  readonly reason?: string;
  /** `decision-blocked` at `output-schema`: the offending field (dotted path). */
  readonly field?: string;
  /** `decision-blocked` at `budget`: the limit's name (`maxSteps`, `budget.maxTokens`...). */
  readonly limit?: string;
  /** `end` and `decision-blocked`: the resources used by the whole run. */
  readonly usage?: Usage;
  /**
   * `end`: what is wrong with the completed run's final output, beside it: a
   * `FINAL_OUTPUT_SCHEMA` warning when it breaks the workflow's `outputSchema`
   * (`data.pointer` is the offending field's JSON Pointer into `output`). Absent when none.
   */
  readonly findings?: readonly Diagnostic[];
}

/**
 * The result of a run (the seed's shape). Exactly one of `complete` and `blockedDecision` holds.
 * `joinArrivals`, `pendingChoice`, `boundaryOptions` and `pendingDecisionInput` exist for shape
 * compatibility with the BPMN token simulator, whose interactive runs pause at gateways, boundary
 * events and DMN inputs; a mock run never pauses and agent graphs have no joins.
 */
export interface SimulationState {
  /** Where the flow token is: `[]` once complete, the blocked node otherwise. */
  readonly tokens: readonly string[];
  /** Always `{}`: agent graphs have no parallel joins. */
  readonly joinArrivals: Readonly<Record<string, readonly string[]>>;
  /** Distinct `from->to` edge ids in first-traversal order. */
  readonly traversedEdges: readonly string[];
  /** Distinct node ids in first-visit order. */
  readonly visitedNodes: readonly string[];
  readonly trail: readonly TransitionRecord[];
  readonly complete: boolean;
  /** Always false: without joins a token cannot wait forever; stops are `blockedDecision`. */
  readonly deadlocked: boolean;
  readonly pendingChoice: null;
  readonly boundaryOptions: null;
  readonly pendingDecisionInput: null;
  readonly blockedDecision: BlockedDecision | null;
}

/** One node's fixture: `outputs[i]` is the (i+1)-th visit's output, the last repeating. */
export interface NodeFixture {
  readonly outputs?: readonly JsonObject[];
  /** The first `fails` executions of the node fail. */
  readonly fails?: number;
}

/** Fixtures by node id. A node without one outputs `{}` and never fails. */
export type Fixtures = Readonly<Record<string, NodeFixture>>;

/**
 * Routes by decision id, one label per visit (`onTrue`, `onFalse`, `cases/0`, `otherwise`).
 * A given label overrides the condition (the record says `forced: true`); past the list's end the
 * condition decides again.
 */
export type DecideTable = Readonly<Record<string, readonly string[]>>;

/** What one execution of a node is projected to cost. */
export interface NodeCost {
  readonly tokens?: number;
  /** Cost per ISO 4217 code, matched against `maxCost<CODE>` budget keys. */
  readonly cost?: Readonly<Record<string, number>>;
  readonly wallTimeMs?: number;
}

/**
 * An injected cost model. `perNode` is called once per node when the workflow is compiled (never
 * during a run), so a run stays pure however the model is written.
 */
export interface CostModel {
  perNode?(node: AgentNode): NodeCost | undefined;
}

/** A template of a tool's params that could not be resolved, and why. */
export interface UnresolvedTemplate {
  /** The template as written, e.g. `{{llm-1.output.query}}`. */
  readonly template: string;
  readonly reason: string;
}

/** The machine's input: everything a run needs that is data. */
export interface MachineInput {
  /** The workflow input; `{{input.x}}` templates read it. */
  readonly input?: JsonObject;
  readonly decide?: DecideTable;
  /** Merged over the workflow's own `budget`, key by key. */
  readonly budget?: Budget;
  /** Hard bound on moves: llm/tool attempts and decision evaluations (default 10,000). */
  readonly maxSteps?: number;
  /**
   * Stop the run at a tool whose params hold a template that cannot be resolved (cell
   * `execution`). Default false: as the seed engine does, the template keeps its text, the run
   * goes on, and the tool's `move` record lists it in `unresolvedTemplates`.
   */
  readonly strictParams?: boolean;
}

/** Options of {@link simulate}. */
export interface SimulateOptions extends MachineInput {
  /**
   * Outputs and failures by node id. A run checks every fixture's shape before it starts and
   * each output when it uses it; a plain JSON output is recorded as given (the state shares it
   * with the fixtures), any other as its JSON copy. `lintSimulationOptions` copies them all.
   */
  readonly fixtures?: Fixtures;
  /**
   * A node with no fixture outputs the placeholder {@link sampleFixtures} gives it (default
   * false: it outputs `{}`). Each placeholder is built when a run first reaches its node, so a
   * run of 1,000 steps through a 100,000-node workflow samples 1,000 nodes, not all of them.
   */
  readonly sampleOutputs?: boolean;
  readonly costModel?: CostModel;
}

/** What the `execute` actor receives for one llm/tool execution attempt. */
export interface ExecutorInput {
  readonly nodeId: string;
  readonly node: AgentNode;
  readonly visit: number;
  readonly attempt: number;
  /** Executions of this node so far in the run, this one included. */
  readonly execution: number;
  /** A tool's params with templates resolved. */
  readonly params?: JsonObject;
  /** The merged output so far. */
  readonly output: JsonObject;
  readonly input: JsonObject;
  readonly logicalTime: number;
}

/** What an executor returns: the node's output object. */
export type ExecutorOutput = JsonObject;
