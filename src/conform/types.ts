/**
 * The language between the readers of recorded runs and the conformance checker: every source
 * (OpenTelemetry GenAI spans, Camunda's agent instance history, Zeebe's exported records,
 * LangGraph's stream events and checkpoints) becomes these events, and the checker knows no
 * source. An event says where it came from (`at`), so that a deviation names the record that
 * shows it.
 */

/** A JSON object as a run recorded it (an output, a tool call's arguments). */
export type RecordedObject = Readonly<Record<string, unknown>>;

/** Where an event came from: its position in its source, for people and for SARIF. */
export interface EventAt {
  /** 0-based index of the record in its source (a span, a line, a history entry). */
  readonly index: number;
  /** The source file as given on the command line (`-` for stdin); absent for a host's push. */
  readonly file?: string;
  /** 1-based line of the record in the file, when the file is JSON lines. */
  readonly line?: number;
  /** The record's own time, ISO 8601. */
  readonly time?: string;
  /** The record's own ids (`traceId`, `spanId`, `key`, `checkpoint_id`...), as recorded. */
  readonly ids?: Readonly<Record<string, string>>;
}

/** The process instance an agent run ran in, when the source says so. */
export interface ProcessLink {
  /** The process instance key (Zeebe's `processInstanceKey`) as a string. */
  readonly instance: string;
  /** The BPMN element (the agent task) the run executed for. */
  readonly element?: string;
  /** The process definition's id (`bpmnProcessId`). */
  readonly process?: string;
}

/** A run begins. Runs are kept apart by `run`; events of one run may interleave with others. */
export interface RunStartEvent {
  readonly kind: "run-start";
  readonly run: string;
  /** The workflow as `id@version`, when the run names it. */
  readonly workflow?: string;
  /** Epoch milliseconds. */
  readonly time?: number;
  readonly process?: ProcessLink;
  readonly at: EventAt;
}

/** A model's, provider's and prompt's identity as a step recorded it. */
export interface StepIdentity {
  readonly model?: string;
  readonly provider?: string;
  /** The prompt's versioned reference (`agentflow.prompt.ref`), when recorded. */
  readonly promptRef?: string;
  /** The sha256 (hex) of the system prompt or instructions the step used, when recorded. */
  readonly promptSha256?: string;
}

/**
 * One execution of an llm or tool node. A source names the node by `node` (its id), or a tool
 * by `tool` (the node id or the tool contract's id, as `gen_ai.tool.name` does), or says only
 * that a model was called (`nodeType: "llm"`); the checker finds the node the graph allows.
 */
export interface StepEvent {
  readonly kind: "step";
  readonly run: string;
  readonly nodeType: "llm" | "tool";
  /**
   * True when the source does not say whether the step called a model or a tool and the reader
   * inferred `nodeType` (a LangGraph update without `agentflow.node.type`): the node the step
   * names is then that node, whatever its kind. Otherwise a step naming a node of the other kind
   * is an identity mismatch: a model call is never taken for a tool's step, nor the reverse.
   */
  readonly nodeTypeInferred?: boolean;
  readonly node?: string;
  readonly tool?: string;
  /** `error` when the execution failed (an error boundary may retry it). */
  readonly status: "ok" | "error";
  /**
   * The node's structured output, when recorded: decisions are evaluated on it. A step that
   * succeeded without one leaves the fields its node writes unknown (never the previous
   * iteration's values), so a decision that reads them is unverified.
   */
  readonly output?: RecordedObject;
  /**
   * Why the step recorded something in place of a structured output that could not be read as
   * one (a reply in free text, JSON cut short): said with the decision it leaves undecided.
   */
  readonly outputUnread?: string;
  /** A tool call's arguments, when recorded: checked against the contract's input schema. */
  readonly args?: RecordedObject;
  readonly identity?: StepIdentity;
  /**
   * The identity of each model call the step made, when its source records several apart (a
   * LangGraph node whose update holds several AIMessages, each with its own model): every one is
   * checked, each with `identity`'s fields where it records none of its own.
   */
  readonly modelCalls?: readonly StepIdentity[];
  /** Tokens the step used (input + output, or the total recorded), when recorded. */
  readonly tokens?: number;
  /**
   * The step recorded only part of its tokens (input or output, and no total): `tokens` is a
   * lower bound, on which a token budget can be exceeded but never passed.
   */
  readonly tokensPartial?: boolean;
  /** Cost by ISO 4217 code, when recorded. */
  readonly cost?: Readonly<Record<string, number>>;
  /** Epoch milliseconds. */
  readonly start?: number;
  readonly end?: number;
  readonly at: EventAt;
}

/** A decision the run recorded itself (by node id), with the route label or target it took. */
export interface RouteEvent {
  readonly kind: "route";
  readonly run: string;
  readonly node: string;
  /** The route label (`onTrue`, `cases/1`, `otherwise`...). */
  readonly route?: string;
  /** The route's target: a node id or `"end"`. */
  readonly next?: string;
  readonly at: EventAt;
}

/**
 * A run ends; `completed` claims the workflow reached its end. `ended` says only that the
 * records stop here (a LangGraph update stream marks no end): the run conforms if the graph may
 * end where it stopped, and is unfinished otherwise.
 */
export interface RunEndEvent {
  readonly kind: "run-end";
  readonly run: string;
  readonly status: "completed" | "failed" | "cancelled" | "ended";
  readonly time?: number;
  readonly at: EventAt;
}

/** The step a delegation ran under, as its run recorded it. */
export interface DelegatingStep {
  readonly nodeType: "llm" | "tool";
  /** The node the step names, when it names one. */
  readonly node?: string;
  /** The tool the step names (the node id or the tool contract's id), when it names one. */
  readonly tool?: string;
}

/**
 * The run handed work to another agent, whose run is recorded apart (a nested `invoke_agent`
 * span): a delegation by the step it ran under, or by the run itself when it ran under no step.
 * The run's approved workflow must have a `delegate` edge from that step's node (from any node,
 * when the step is not known) to the delegate's workflow; the delegate's own run is checked
 * against its own approved workflow.
 */
export interface DelegateEvent {
  readonly kind: "delegate";
  /** The run that delegated. */
  readonly run: string;
  /** The delegate's own run. */
  readonly delegate: string;
  /** The delegate run's workflow, `id@version`, when its records name one that can be read. */
  readonly workflow?: string;
  /** The step the delegation ran under; absent when it ran under the run itself. */
  readonly step?: DelegatingStep;
  readonly at: EventAt;
}

/** What happened to a BPMN element of a process instance (Zeebe's element intents). */
export type ElementState = "activated" | "completed" | "terminated";

/** A BPMN element of a process instance changed state; the process itself has `elementType` PROCESS. */
export interface ElementEvent {
  readonly kind: "element";
  readonly instance: string;
  /** The process definition's id (`bpmnProcessId`). */
  readonly process: string;
  readonly element: string;
  /** Zeebe's `bpmnElementType` (`USER_TASK`, `SERVICE_TASK`, `PROCESS`...). */
  readonly elementType: string;
  readonly state: ElementState;
  readonly time?: number;
  readonly at: EventAt;
}

/**
 * A record the reader could not map, or could map in more than one way: counted and reported,
 * never dropped. `run` names the run it belongs to when known.
 */
export interface UnknownEvent {
  readonly kind: "unknown";
  readonly run?: string;
  /** Why the record was not mapped, one sentence. */
  readonly reason: string;
  /** `ambiguous` when it could mean more than one thing; `unknown` when it means nothing to us. */
  readonly class: "unknown" | "ambiguous";
  readonly at: EventAt;
}

/** Every event a reader yields and the checker takes. */
export type RunEvent =
  | RunStartEvent
  | StepEvent
  | RouteEvent
  | DelegateEvent
  | RunEndEvent
  | ElementEvent
  | UnknownEvent;

/** The source formats conform reads (docs/conform.md gives each one's mapping). */
export type RunSource = "otlp" | "camunda-agent-history" | "zeebe" | "langgraph";
