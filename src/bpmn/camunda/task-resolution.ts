/**
 * A Camunda AI agent's reading as a task's resolution: on its own (resolution `derived`), or
 * joined to the resolution of a btv ref the same element declares. The engine runs the agent
 * the BPMN draws — its tools, limits and model — whatever a btv document says, so a ref does
 * not replace the reading: both are judged, and the strictest wins (docs/bpmn.md).
 */
import type { AgentDeclaration } from "../agents.js";
import type { TaskResolution } from "../resolution-types.js";
import type { ToolEffectsMapping } from "./effect-mapping.js";
import { resolveCamundaAgent } from "./resolution.js";
import { staticText } from "./static-text.js";
import type { CamundaAgent } from "./types.js";

/** A Camunda AI agent's resolution, derived from its reading with the organisation's mapping. */
export function camundaResolution(
  agent: CamundaAgent,
  mapping: ToolEffectsMapping,
): TaskResolution {
  const got = resolveCamundaAgent(agent, mapping);
  // A model given as FEEL (`=modelName`) is chosen when the process runs: unknown, not a name.
  const model = got.derived.model === undefined ? undefined : staticText(got.derived.model);
  return {
    resolution: "derived",
    workflow: got.workflow,
    diagnostics: [],
    snapshotProblem: undefined,
    registryProblem: undefined,
    registryFailure: undefined,
    dependencies: got.dependencies,
    models: model === undefined || model === "" ? null : [model],
    conflicts: [],
    derived: got.derived,
  };
}

/** The models of both readings: unknown when either's are. */
function joinModels(
  own: readonly string[] | null,
  read: readonly string[] | null,
): readonly string[] | null {
  if (own === null || read === null) return null;
  return [...new Set([...own, ...read])];
}

/**
 * A btv task's resolution joined with the Camunda AI agent its element is, when agentflow reads
 * one; any other task's resolution as it is. The workflow, its validation and its levels stay the
 * ref's. The tools read from the BPMN (with the organisation's `mapping`) join its dependencies
 * (the gate rules read every one: TOOL_EFFECT_NEEDS_GATE), their model joins its models, and the
 * reading is carried as `derived` (its level joins the strictest, analysis.ts;
 * CAMUNDA_TOOL_EFFECT_UNMAPPED and CAMUNDA_AGENT_UNBOUNDED read it) and as `camunda`, the
 * resolution the BPMN alone gives. Joined per task: the ref's resolution is shared by every task
 * that names it (evaluate-run.ts).
 */
export function withCamundaReading(
  resolution: TaskResolution,
  declaration: AgentDeclaration,
  mapping: ToolEffectsMapping,
): TaskResolution {
  const agent = declaration.camunda;
  if (declaration.source !== "btv" || agent === undefined) return resolution;
  const camunda = camundaResolution(agent, mapping);
  return {
    ...resolution,
    dependencies: [...resolution.dependencies, ...camunda.dependencies],
    models: joinModels(resolution.models, camunda.models),
    ...(camunda.derived === undefined ? {} : { derived: camunda.derived }),
    camunda,
  };
}
