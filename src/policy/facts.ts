/**
 * The fact model of policy packs (docs/policies.md): what a `when` expression, a message
 * template and a plugin rule's readable view see of each subject. Plain data, built once per
 * evaluation by the layer that knows the subject (validate for workflows and tools, bpmn for
 * agent tasks and processes). Where a `null` can mean "none", a subject's `unread` says when it
 * means unknown instead; a rule over an unknown fact is decided as the strictest case (see
 * `feel.ts`).
 */

/** The subjects a pack rule can be `for`. */
export type PolicySubject = "agentTask" | "workflow" | "tool" | "process";

/** Every {@link PolicySubject}, in the order the docs list them. */
export const POLICY_SUBJECTS: readonly PolicySubject[] = Object.freeze([
  "agentTask",
  "workflow",
  "tool",
  "process",
]);

/**
 * A tool as a subject, or as a member of an agent task's or workflow's `tools`. Every tool a
 * workflow or a BPMN names is known by its ref; {@link UNKNOWN_TOOL} stands for what an agent
 * task may call besides, when its tools could not all be read.
 */
export interface ToolFacts {
  /**
   * The ref as written (`tool:crm-write@1.0.0`, a Camunda job type or element id); null only for
   * {@link UNKNOWN_TOOL}, whose identity is unknown.
   */
  readonly ref: string | null;
  /** Its id: `crm-write` for a btv ref, the element id of a Camunda tool; null as {@link ref}. */
  readonly id: string | null;
  readonly version: string | null;
  /**
   * `read`, `propose`, `notify`, `write-reversible`, `write-irreversible` or
   * `external-commitment`; null when unknown (no contract, a lookup that failed, an unmapped
   * Camunda tool).
   */
  readonly effect: string | null;
  /** `automatic`, `gate` or `forbidden`, as its contract states; null when unknown. */
  readonly authorization: string | null;
}

/** A tool known by its ref: every tool a workflow or a BPMN names. */
export type KnownToolFacts = ToolFacts & { readonly ref: string; readonly id: string };

/**
 * The tool of unknown identity: a `tool` subject of an agent task whose `tools` is unknown (its
 * workflow or a delegate could not be read, a Camunda tool container cannot be found), standing
 * for what it may call besides the tools known. Its `ref` and `id` are unknown (a `when` that
 * reads them is undecided), its `effect` and `authorization` tried at every value: a `tool` rule
 * is never skipped because the tools could not be read (docs/policies.md).
 */
export const UNKNOWN_TOOL: ToolFacts = Object.freeze({
  ref: null,
  id: null,
  version: null,
  effect: null,
  authorization: null,
});

/** An agent's budget, as its workflow (or its Camunda limits) states it; null fields: not stated. */
export interface BudgetFacts {
  readonly maxSteps: number | null;
  readonly maxTokens: number | null;
  readonly maxWallTimeMs: number | null;
  /** `maxCost<CURRENCY>` limits by currency code (`{ USD: 50 }`). */
  readonly maxCost: Readonly<Record<string, number>>;
}

/** A node of a workflow, as packs see it. */
export interface NodeFacts {
  readonly id: string;
  readonly type: string;
  /**
   * The model an `llm` node names; null for others. Unknown, not "none", while the workflow's
   * `models` is null: then some node runs a model no one named (an importer's stand-in name, a
   * Camunda agent's model that cannot be read, a step that may call any model), and a rule that
   * reads a node's model is undecided (docs/policies.md).
   */
  readonly model: string | null;
  /**
   * The model an `llm` node falls back to (`fallbackModel`); null when it names none, and
   * unknown as {@link model} is while the workflow's `models` is null.
   */
  readonly fallbackModel: string | null;
}

/**
 * The names {@link AgentTaskFacts.unread} and {@link WorkflowFacts.unread} can list: facts whose
 * `null` is ordinary data ("no budget", "not stated") unless they are listed there.
 */
export type UnreadFact = "name" | "budget" | "budget.maxSteps" | "budget.maxTokens" | "lane";

/**
 * A workflow as a subject: a workflow document, the workflow a Camunda AI agent runs (derived
 * from the BPMN), or one an agent task names that could not be read (every fact but `id` and
 * `version` unknown).
 */
export interface WorkflowFacts {
  readonly id: string;
  readonly version: string;
  /** null: it has none, unless {@link unread} lists `name`. */
  readonly name: string | null;
  /** Its declared autonomy level; null when unknown. */
  readonly level: number | null;
  /** The level its graph justifies; null when unknown. */
  readonly justifiedLevel: number | null;
  /** Its nodes; null when the workflow could not be read. */
  readonly nodes: readonly NodeFacts[] | null;
  /** The tools its nodes call; null when they cannot be read (or a Camunda agent's tool container). */
  readonly tools: readonly ToolFacts[] | null;
  /**
   * The models its llm nodes name (`model` and `fallbackModel`), distinct, in order of first use;
   * null when one cannot be read (a Camunda agent's model binding absent or a FEEL expression).
   */
  readonly models: readonly string[] | null;
  /** null when the workflow states no budget at all (unless {@link unread} lists `budget`). */
  readonly budget: BudgetFacts | null;
  /** The refs of the workflows it delegates to; null when the workflow could not be read. */
  readonly delegates: readonly string[] | null;
  /**
   * The facts above whose `null` means unknown here, not "none" or "not stated": `name` and
   * `budget` of a workflow that could not be read, a Camunda limit given as a FEEL expression
   * (`budget.maxSteps`, `budget.maxTokens`). Empty for a workflow document that was read.
   */
  readonly unread: readonly UnreadFact[];
}

/** A gate downstream of an agent task (or in a process). */
export interface GateFacts {
  readonly id: string;
  readonly name: string | null;
  /** Its approver role; null when it declares none. */
  readonly role: string | null;
}

/** An agent task as a subject. */
export interface AgentTaskFacts {
  readonly process: { readonly id: string; readonly name: string | null };
  readonly element: { readonly id: string; readonly name: string | null; readonly type: string };
  /**
   * Its lane, or its enclosing sub-process's; null: in no lane, unless {@link unread} lists
   * `lane` (lanes that do not nest both list it).
   */
  readonly lane: { readonly id: string; readonly name: string | null } | null;
  /** `agentWorkflowRef` of a btv agent; null for a Camunda agent. */
  readonly ref: string | null;
  /**
   * The effective level: the task's own, else its workflow's (a Camunda agent's derived one);
   * null when unknown — among others when the task declares a level that is no level 0–5.
   */
  readonly level: number | null;
  /**
   * The task's own `autonomyLevel`. null: it declares none when {@link declaredLevelText} is
   * null; unknown (tried at every level) when it declares one that is no level 0–5.
   */
  readonly declaredLevel: number | null;
  /** The task's `autonomyLevel` as written; null when it declares none (or is a Camunda agent). */
  readonly declaredLevelText: string | null;
  readonly justifiedLevel: number | null;
  /** True for a Camunda AI agent. */
  readonly camunda: boolean;
  /**
   * Its and its delegates' tools; null when its workflow, or a delegate's, could not be read (a
   * Camunda agent's: when its tool container cannot be found).
   */
  readonly tools: readonly ToolFacts[] | null;
  /**
   * The models its and its delegates' llm nodes name (`model` and `fallbackModel`); null as
   * {@link tools} is, and for a Camunda agent whose model binding is absent or a FEEL expression.
   */
  readonly models: readonly string[] | null;
  /** Its workflow's budget (a Camunda agent's limits); null: none stated, unless {@link unread} lists it. */
  readonly budget: BudgetFacts | null;
  /** The gates some path from the task reaches. */
  readonly gates: readonly GateFacts[];
  /** `reached` (every path), `bypassed` (some path avoids all gates), `missing` (none reached). */
  readonly gateStatus: "reached" | "bypassed" | "missing";
  /**
   * The facts above whose `null` means unknown here, not "none" or "not stated": `budget` when
   * its workflow could not be read (or the task declares its agent twice), `budget.maxSteps` and
   * `budget.maxTokens` when a Camunda limit is a FEEL expression, known only at run time.
   */
  readonly unread: readonly UnreadFact[];
}

/** A process as a subject. */
export interface ProcessFacts {
  readonly id: string;
  readonly name: string | null;
  readonly agentTasks: readonly AgentTaskFacts[];
  readonly gates: readonly GateFacts[];
}
