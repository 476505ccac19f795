/**
 * The approved model of permitted behaviour a recorded run is checked against: the workflows
 * (each with its tool contracts and, when known, its prompts' digests) and the BPMN processes
 * (each agent task with the gates its static verdict relied on). `agentflow conform` builds it
 * from an approval or a registry; a host builds it from what it approved.
 */
import type { AgentWorkflow, ToolContract, ToolEffect } from "../model/index.js";

/** A workflow as approved. */
export interface ApprovedWorkflow {
  /** The workflow's `id@version`. */
  readonly ref: string;
  readonly workflow: AgentWorkflow;
  /**
   * The tool contracts by the `usesTool` reference that names them; `null` for one that was not
   * resolved (a tool call to it is unverified, never passed).
   */
  readonly tools: ReadonlyMap<string, ToolContract | null>;
  /**
   * Tools read from a BPMN process rather than from a contract (a Camunda agent's ad-hoc tools),
   * by the tool reference of the derived workflow, with their effect (`undefined`: unknown, which
   * needs a gate). The approval approved no input schema for them, so their arguments are not
   * checked; their effect decides whether they need a gate.
   */
  readonly derivedTools?: ReadonlyMap<string, ToolEffect | undefined>;
  /** The digest of each prompt by its reference, when the prompts' texts were given. */
  readonly prompts?: ReadonlyMap<string, ApprovedPrompt>;
}

/** An approved prompt's digest. */
export interface ApprovedPrompt {
  /** sha256 (hex) of the text. */
  readonly sha256: string;
  /**
   * `false` when the digest is of the prompt as modelled, which may be an expression evaluated
   * at run time (a Camunda agent's system prompt): then an equal digest verifies the prompt, and
   * a different one cannot say it is another prompt — the run is unverified, not deviating.
   */
  readonly exact: boolean;
}

/** An agent task of an approved process. */
export interface ApprovedTask {
  /** The BPMN element id of the agent task. */
  readonly elementId: string;
  /** The workflow it runs, `id@version`, when known. */
  readonly workflow: string | null;
  /**
   * The approved workflow itself, when the model's builder resolved it for this task. An
   * `id@version` need not name one workflow: two Camunda agents of different processes with the
   * same element id derive the same ref, so a run of the task is checked against this one, and
   * without it against the one approved workflow of that ref (several: the run is unverified).
   */
  readonly resolved?: ApprovedWorkflow;
  /** Whether the task's autonomy level requires a gate downstream (the static verdict did). */
  readonly gateRequired: boolean;
  /** The gates downstream of the task the static verdict relied on, by element id. */
  readonly gates: readonly string[];
}

/** A BPMN process as approved. */
export interface ApprovedProcess {
  /** The ids of the process definitions (`bpmnProcessId`) it holds. */
  readonly processIds: readonly string[];
  /** Every flow element id of the process: an instance's element outside it deviates. */
  readonly elements: ReadonlySet<string>;
  /**
   * The Zeebe `bpmnElementType`s each element's records may carry (`USER_TASK`, and
   * `MULTI_INSTANCE_BODY` for a multi-instance one), when known: a record of another type is of
   * another version of the process, so it deviates and never passes a gate. An element not in
   * the map is not checked by type.
   */
  readonly elementTypes?: ReadonlyMap<string, readonly string[]>;
  readonly tasks: readonly ApprovedTask[];
}

/** Everything a run is checked against. */
export interface ApprovedModel {
  readonly workflows: readonly ApprovedWorkflow[];
  readonly processes: readonly ApprovedProcess[];
}

/** Options of the checker. */
export interface ConformanceOptions {
  /**
   * The workflow (`id@version`) of runs that name none; by default the only approved workflow
   * when there is exactly one.
   */
  readonly workflow?: string;
  /**
   * Keep the result of every conforming run in the report (default false: they are counted, so
   * that memory holds the runs still open and the findings, not one record per run of the input).
   */
  readonly keepConforming?: boolean;
}
