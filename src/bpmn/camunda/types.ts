/**
 * A Camunda AI agent as read from the BPMN, as plain data: what the modeller configured (model,
 * provider, prompt hash, limits) and the tools the model may call. Plain data, so that the
 * decision, the CLI, the report and policy packs read the same facts, and a worker thread can
 * carry them.
 */
import type { AutonomyReason } from "../../autonomy/index.js";
import type { AutonomyLevel, ToolEffect } from "../../model/index.js";

/** Which of Camunda's two AI Agent shapes the element is. */
export type CamundaAgentVariant = "task" | "sub-process";

/**
 * One activity of a tool as the effect lookup needs it: the tool's root element, or an element
 * of the sub-flow its sequence flows lead to inside the container.
 */
export interface CamundaActivity {
  readonly id: string;
  /** The moddle type, e.g. `bpmn:ServiceTask`. */
  readonly elementType: string;
  readonly templateId?: string;
  readonly templateVersion?: number;
  /** `zeebe:taskDefinition type`. */
  readonly jobType?: string;
  /** `zeebe:input` target → source, every target once with its last source (for people). */
  readonly inputs: Readonly<Record<string, string>>;
  /**
   * The `zeebe:input` mappings `[target, source]` in the order the engine applies them: what the
   * effect selectors read a field from (`fieldSource`), since a later mapping to an object holding
   * it replaces what an earlier mapping of the field gave.
   */
  readonly inputMappings: readonly (readonly [string, string])[];
  /** `zeebe:property` name → value. */
  readonly properties: Readonly<Record<string, string>>;
  /** The raw `btv:toolEffect` attribute, when present (validated when the effect is read). */
  readonly btvToolEffect?: string;
  /** What the element is, where that decides its effect without a job type. */
  readonly nature: ActivityNature;
  /**
   * The other jobs the engine runs for the element, each with an effect of its own that joins
   * the element's: its execution and task listeners, and the inbound connector it waits on.
   * Absent when there are none.
   */
  readonly jobs?: readonly CamundaJob[];
}

/**
 * A job the engine runs for an element besides its `zeebe:taskDefinition`: a
 * `zeebe:executionListener`, a `zeebe:taskListener`, or the inbound connector a catch event,
 * receive task or boundary event subscribes with (`zeebe:property inbound.type`).
 */
export interface CamundaJob {
  readonly kind: "execution-listener" | "task-listener" | "inbound";
  /** The listener's `eventType` (`start`, `end`, `creating`, …); absent for an inbound connector. */
  readonly event?: string;
  /** The job type (a FEEL string literal decoded, other FEEL as written) or the inbound type. */
  readonly type: string;
  /** True when the type is FEEL other than one string literal: known only at run time. */
  readonly expression: boolean;
}

/**
 * `connector` (a job worker: a connector or any service), `user-task` (a person), `engine` (a
 * FEEL script or a DMN decision the engine evaluates itself), `pass-through` (a task, manual or
 * receive task, gateway, catch event, or a throw event that only routes), `gateway` (an MCP or
 * A2A gateway tool that expands into the remote server's tools: the gateway marker borne out by
 * the job type of Camunda's MCP or A2A client), `call-activity`, `sub-process`,
 * `event-sub-process` (one of the container's event sub-processes, whose inner elements are read
 * as its steps), `other` (anything else, such as a signal throw).
 */
export type ActivityNature =
  | "connector"
  | "user-task"
  | "engine"
  | "pass-through"
  | "gateway"
  | "call-activity"
  | "sub-process"
  | "event-sub-process"
  | "other";

/** A tool of the agent: a root element of its tool container. */
export interface CamundaTool extends CamundaActivity {
  readonly name: string;
  /** `bpmn:documentation`, else the name, else the id: what the model is told. */
  readonly description: string;
  /** The parameter names of the `fromAi(toolCall.<name>, ...)` calls in its input mappings. */
  readonly fromAi: readonly string[];
  /**
   * The MCP or A2A gateway marker as written (`zeebe:property io.camunda.agenticai.gateway.type`).
   * A label: the tool is a gateway (an A2A one a delegation) only when its job type bears the
   * marker out, which its `nature` (`gateway`) says.
   */
  readonly gateway?: string;
}

/** A limit as written: its raw text and, when static, its value. */
export interface CamundaLimit {
  /**
   * The `zeebe:input` target it was read from: the field's own, or an object input that holds
   * it (`data.limits`, `data`) given as a FEEL context literal.
   */
  readonly input: string;
  /** That input's source as written (`=10`); FEEL other than a literal leaves `value` absent. */
  readonly source: string;
  readonly value?: number;
}

/** The limits the templates have. There is no tool-call or total-token limit in any template. */
export interface CamundaLimits {
  /**
   * `data.limits.maxModelCalls`, or `data.guardrails.maxModelCalls` for the alpha connector (job
   * type `…aiagent:0`): only the input the running connector reads.
   */
  readonly maxModelCalls?: CamundaLimit;
  /** The provider's per-response token limit (one response, not the run). */
  readonly maxTokensPerResponse?: CamundaLimit;
}

/** The tool container, when the agent has one. */
export interface CamundaToolContainer {
  /** The ad-hoc sub-process's id (the agent itself for the sub-process variant). */
  readonly id: string;
  /** False when the task variant names a container that is not in the definitions. */
  readonly found: boolean;
  /** Why the tools could not be read (a FEEL id, a missing element), when they could not. */
  readonly problem?: string;
}

/** A Camunda AI agent read from the BPMN alone. */
export interface CamundaAgent {
  readonly elementId: string;
  readonly name: string;
  readonly variant: CamundaAgentVariant;
  readonly templateId?: string;
  readonly templateVersion?: number;
  readonly jobType?: string;
  /** `provider.type`, or the provider whose model binding is present. */
  readonly provider?: string;
  readonly model?: string;
  /** `sha256:` of the system prompt's source text as written (FEEL can be any expression). */
  readonly systemPromptHash?: string;
  readonly limits: CamundaLimits;
  readonly container?: CamundaToolContainer;
  readonly tools: readonly CamundaTool[];
  /**
   * The container's other elements: what a tool's sequence flows (and the boundary events of
   * those elements) lead to. A tool's effect is the most demanding of everything it leads to.
   */
  readonly steps: readonly CamundaActivity[];
  /**
   * `[from, to]` ids inside the container: sequence flows, host → boundary event, and event
   * sub-process → each element inside it.
   */
  readonly flows: readonly (readonly [string, string])[];
  /**
   * The container's event sub-processes (read as steps, with everything inside them): what an
   * event starts while the agent runs — an error or escalation a tool throws, a timer, a message,
   * a condition a tool's result meets — so their effect counts for every tool. Absent when there
   * are none.
   */
  readonly eventSubProcesses?: readonly string[];
}

/** Where a tool's effect came from, in the order they are consulted. */
export type ToolEffectSource = "btv" | "config" | "default" | "unknown";

/** One element's own effect. */
export interface ActivityEffect {
  readonly effect?: ToolEffect;
  readonly source: ToolEffectSource;
  readonly key?: string;
  /** Why it is unknown, when it is. */
  readonly reason?: string;
}

/** A tool with its effect. */
export interface EffectedTool extends Omit<CamundaTool, "inputMappings"> {
  /** `undefined` when unknown: then it counts as needing a gate. */
  readonly effect?: ToolEffect;
  readonly effectSource: ToolEffectSource;
  /**
   * What matched: `btv:toolEffect`, the mapping or default key (a template id or job type) with
   * the selector value (`io.camunda:http-json:1 method=GET`), or the nature (`user-task`).
   */
  readonly effectKey?: string;
  /** The element of the tool's flow whose effect decided (the most demanding). */
  readonly decidedBy: string;
  /** Why the effect is unknown, and how to map it, when it is. */
  readonly unknownReason?: string;
  /** `sha256:` of what was read for the tool. */
  readonly contentHash: string;
}

/**
 * The derived agent, as the decision carries it: the reading, each tool with its effect and where
 * the effect came from, the level with its reasons, and the derived workflow's ref.
 */
export interface DerivedAgent extends Omit<
  CamundaAgent,
  "tools" | "steps" | "flows" | "eventSubProcesses"
> {
  readonly tools: readonly EffectedTool[];
  /**
   * The user tasks among the tools: people the model may consult, or not. None of them is a gate
   * on any path: the model decides whether to call them, so they approve nothing for certain.
   */
  readonly people: readonly string[];
  readonly level: AutonomyLevel;
  readonly reasons: readonly AutonomyReason[];
  /** True when the agent has tools and no static `maxModelCalls`: its loop has no stated bound. */
  readonly unbounded: boolean;
  /** `camunda.<elementId>@1.0.0`, the derived workflow's ref. */
  readonly workflowRef: string;
  /** `sha256:` of everything read for the agent (its tools' sub-flows included). */
  readonly readHash: string;
}
