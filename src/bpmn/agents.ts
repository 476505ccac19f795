/**
 * Recognising agent tasks and gates on a flow node (SPEC 7): agentflow's own `btv:agentTask` and
 * `btv:gate`, and Camunda 8's AI agents, whose autonomy level the XML does not state.
 */
import type { ModdleObject } from "./moddle.js";
import { camundaAgentMarker, readJobType } from "./camunda-agents.js";
import { isZeebe, modelerTemplate } from "./zeebe-names.js";
import { BTV_URI, elementKind, extensionValues, stringProp } from "./moddle.js";
import type { AgentTaskSource } from "./types.js";
import type { CamundaAgent } from "./camunda/index.js";

/** An embedded copy of the agent workflow, used only when the registry does not know the ref. */
export interface WorkflowSnapshot {
  readonly version: string | undefined;
  readonly body: string;
  /** Pointer of the snapshot element relative to the host element. */
  readonly path: string;
}

/** One `btv:agentTask` of an element that carries more than one. */
export interface AgentTaskElement {
  /** Its `agentWorkflowRef`, as written. */
  readonly ref: string | undefined;
  /** Its `autonomyLevel`, as written. */
  readonly levelText: string | undefined;
  /** Its pointer relative to the host element. */
  readonly path: string;
}

/** What a flow node declares about the agent it runs. */
export interface AgentDeclaration {
  readonly source: AgentTaskSource;
  /** The raw `agentWorkflowRef` (btv only). */
  readonly ref: string | undefined;
  /** The raw `autonomyLevel` (btv only; validated by AGENT_AUTONOMY_INVALID). */
  readonly levelText: string | undefined;
  /** Pointer of the declaring extension element relative to the host element. */
  readonly path: string;
  readonly snapshot: WorkflowSnapshot | undefined;
  /**
   * Every embedded snapshot, in document order, when the element carries more than one: they
   * must agree, or which one stands in for the registry cannot be known (resolve-tasks.ts).
   */
  readonly snapshots?: readonly WorkflowSnapshot[];
  /**
   * Every `btv:agentTask` of the element, in document order, when it carries more than one; the
   * `btv:agentWorkflowRef` attribute first (path `""`), when it names another agent than the
   * first `btv:agentTask`.
   * Which agent it runs then cannot be known: the declaration's `ref` is the first one's, its
   * `levelText` none, and the task is never resolved (resolve-tasks.ts) — it is reported
   * (AGENT_REF_CONFLICT) and judged as an agent nothing is known of, never by the first alone.
   */
  readonly declarations?: readonly AgentTaskElement[];
  /**
   * What gave a Camunda agent away (`zeebe:agentDefinition`, a template id, ...): for a btv task,
   * the Camunda marker the element carries beside its btv ref, if any.
   */
  readonly marker: string | undefined;
  /**
   * For a Camunda AI agent: what the BPMN says of it (docs/bpmn.md), read before any resolver
   * runs. For a btv task on such an element too: the engine runs the agent the BPMN draws
   * whatever the btv ref names, so both are judged (analysis.ts). Absent for other btv tasks and
   * for Camunda agents with nothing to read (an external agent, an A2A client): there the
   * `camundaAgents` policy, or the btv ref, governs.
   */
  readonly camunda?: CamundaAgent;
}

/** The element template of agentflow's own "Governed agent task" (camunda-modeler/). */
const AGENTFLOW_AGENT_TEMPLATE = "dev.agentflow.agent-task";

/** The job type that template gives the worker that runs a governed agent. */
const AGENTFLOW_AGENT_JOB_TYPE = "agentflow-agent";

/**
 * True when the element was made from agentflow's "Governed agent task" template, or runs its
 * agent worker's job type (the template unlinked): it runs an agent whatever its ref says.
 */
function isGovernedAgentTask(element: ModdleObject, values: readonly ModdleObject[]): boolean {
  if (modelerTemplate(element) === AGENTFLOW_AGENT_TEMPLATE) return true;
  const definition = values.find((value) => isZeebe(value, "taskdefinition"));
  const type = definition === undefined ? undefined : stringProp(definition, "type");
  return type !== undefined && readJobType(type).type === AGENTFLOW_AGENT_JOB_TYPE;
}

function isBtv(element: ModdleObject, local: string): boolean {
  const kind = elementKind(element);
  return kind.local === local && kind.namespace === BTV_URI;
}

/** True when one of these extension values is `<btv:gate/>`. */
export function isGateMarker(values: readonly ModdleObject[]): boolean {
  return values.some((value) => isBtv(value, "gate"));
}

/**
 * True when the element carries `<btv:gate/>` in its extension elements.
 *
 * @example
 * ```ts
 * import { checkProcess, hasGateMarker, instanceOf } from "agentflow/bpmn";
 * import { getTemplate } from "agentflow/model";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * // a host's gate predicate that keeps the marker and adds its own approval tasks
 * const decision = await checkProcess(xml, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 *   isGate: (element) => hasGateMarker(element) || instanceOf(element, "bpmn:ManualTask"),
 * });
 * decision.agentTasks[0]?.gate; // → "reached"
 * ```
 */
export function hasGateMarker(element: ModdleObject): boolean {
  return isGateMarker(extensionValues(element));
}

/** The first snapshot as `snapshot`, and all of them as `snapshots` when there are several. */
function snapshotsOf(
  values: readonly ModdleObject[],
  raw: readonly unknown[],
): Pick<AgentDeclaration, "snapshot" | "snapshots"> {
  const all = values
    .filter((v) => isBtv(v, "agentworkflowsnapshot"))
    .map((snapshot) => ({
      version: stringProp(snapshot, "version"),
      body: stringProp(snapshot, "body") ?? "",
      path: `/extensionElements/values/${raw.indexOf(snapshot)}`,
    }));
  return all.length > 1 ? { snapshot: all[0], snapshots: all } : { snapshot: all[0] };
}

function rawValues(element: ModdleObject): readonly unknown[] {
  const ext = element.extensionElements as { readonly values?: unknown } | undefined;
  return Array.isArray(ext?.values) ? (ext.values as unknown[]) : [];
}

/**
 * The agent a flow node runs, or `undefined` for an ordinary node. A `btv:agentTask` makes the
 * element a btv task whatever Camunda markers it carries: it states the level the Camunda markers
 * cannot. Those markers are kept (`marker`): a Camunda AI agent the BPMN describes still runs
 * what the BPMN draws, and is read beside the ref (camunda/prepare.ts). A bare
 * `btv:agentWorkflowRef` attribute on an activity is the short form of a `btv:agentTask` with that
 * ref and no level (the resolved workflow's level applies), so that an external agent or an A2A
 * client names its agent in one attribute; beside a `btv:agentTask` with the same ref it adds
 * nothing, one that names no agent takes it, and with another ref it is a second declaration
 * (AGENT_REF_CONFLICT).
 * An element of agentflow's "Governed agent task" template is that short form even when its ref
 * is absent.
 * Pass `values` when the caller has already read the extension values.
 */
export function agentDeclaration(
  element: ModdleObject,
  values: readonly ModdleObject[] = extensionValues(element),
): AgentDeclaration | undefined {
  const attributeRef = stringProp(element, "agentWorkflowRef");
  if (values.length === 0 && attributeRef === undefined && modelerTemplate(element) === undefined)
    return undefined;
  const raw = rawValues(element);
  const elements = values
    .filter((v) => isBtv(v, "agenttask"))
    .map((task) => ({
      ref: stringProp(task, "agentWorkflowRef"),
      levelText: stringProp(task, "autonomyLevel"),
      path: `/extensionElements/values/${raw.indexOf(task)}`,
    }));
  // The short form beside a `btv:agentTask` naming another agent is a second declaration, not
  // one the element overrides: the template writes the attribute and the properties panel edits
  // the element, so they part by an ordinary edit, and which one a runner reads is its own.
  const [first, ...more] = elements;
  // One btv:agentTask that names no agent (the properties panel writes one to hold a level
  // beside the template's attribute) takes the attribute's ref.
  const tasks =
    first === undefined || attributeRef === undefined || attributeRef === first.ref
      ? elements
      : first.ref === undefined && more.length === 0
        ? [{ ...first, ref: attributeRef }]
        : [{ ref: attributeRef, levelText: undefined, path: "" }, ...elements];
  const [task] = tasks;
  // Only looked for on a btv task: what the engine runs beside the agent the ref names.
  const beside = () => camundaAgentMarker(element, values);
  if (task !== undefined) {
    // Two declarations (even alike) say two things of one element: taking the first would let
    // the second, perhaps the one that runs, go unjudged. No level is taken from either.
    const several = tasks.length > 1;
    return {
      source: "btv",
      ref: task.ref,
      levelText: several ? undefined : task.levelText,
      path: task.path,
      ...snapshotsOf(values, raw),
      ...(several ? { declarations: tasks } : {}),
      marker: beside(),
    };
  }
  // A governed agent task whose ref was cleared still runs an agent: one that names none
  // (AGENT_REF_INVALID), so it cannot be reviewed and needs a gate.
  if (attributeRef !== undefined || isGovernedAgentTask(element, values)) {
    return {
      source: "btv",
      ref: attributeRef,
      levelText: undefined,
      // The attribute is the host element's own: its pointer is `<element>/agentWorkflowRef`.
      path: "",
      ...snapshotsOf(values, raw),
      marker: beside(),
    };
  }
  const marker = camundaAgentMarker(element, values);
  return marker === undefined ? undefined : camundaDeclaration(marker);
}

/**
 * The declaration of a Camunda agent the BPMN marks as one and names no btv ref for: read from
 * the BPMN alone, named by what marks it (a template, a job type, an attribute).
 */
export function camundaDeclaration(marker: string): AgentDeclaration {
  return {
    source: "camunda",
    ref: undefined,
    levelText: undefined,
    path: "",
    snapshot: undefined,
    marker,
  };
}
