/**
 * What resolution learned about one agent task: its own file, so that the Camunda reading
 * (camunda/task-resolution.ts) and the resolver (resolve-tasks.ts) share it without importing
 * each other.
 */
import type { AgentWorkflow, Diagnostic } from "../model/index.js";
import type { DerivedAgent } from "./camunda/types.js";
import type { Dependency, LookupFailure } from "./dependency.js";
import type { RegistryConflict } from "./registry-conflict.js";
import type { ResolvedDelegate } from "./resolve-dependencies.js";
import type { WorkflowResolution } from "./types.js";

/** What resolution learned about one agent task. */
export interface TaskResolution {
  readonly resolution: WorkflowResolution;
  readonly workflow: AgentWorkflow | undefined;
  /** The workflow's parse and validation diagnostics. */
  readonly diagnostics: readonly Diagnostic[];
  /** Why an embedded snapshot was not used, when there was one. */
  readonly snapshotProblem: string | undefined;
  /** Why the registry's answer was not used: it failed, or returned another workflow. */
  readonly registryProblem: string | undefined;
  /** The kind of {@link registryProblem}. */
  readonly registryFailure: LookupFailure | undefined;
  /** Every tool and delegate looked up, in the order met; failed lookups included. */
  readonly dependencies: readonly Dependency[];
  /**
   * The delegate workflows read, direct and transitive, in the order met (absent: none, as for
   * a Camunda agent's reading). One that could not be read is a failed `delegate` dependency.
   */
  readonly delegates?: readonly ResolvedDelegate[];
  /**
   * The models the llm nodes of the workflow and of each delegate resolved name (`model` and
   * `fallbackModel`), distinct, in order of first use. A delegate that could not be read leaves
   * the list short: it has a failed dependency. For a Camunda agent, its model; null when the
   * BPMN states none or states it as a FEEL expression (known only when the process runs).
   */
  readonly models: readonly string[] | null;
  /**
   * References the registry holds different documents for, met while resolving this task: its
   * workflow, a tool it or a delegate calls, or a delegate. Each blocks the task.
   */
  readonly conflicts: readonly RegistryConflict[];
  /**
   * For a Camunda AI agent: the agent derived from the BPMN (resolution `derived`); for a btv
   * task on one agentflow reads, the same, judged beside its workflow (`withCamundaReading`,
   * camunda/task-resolution.ts).
   */
  readonly derived?: DerivedAgent;
  /**
   * For a btv task on a Camunda AI agent agentflow reads: the resolution derived from the BPMN
   * alone (resolution `derived`), whose tools, model and agent this one joins to its workflow's.
   */
  readonly camunda?: TaskResolution;
}
