/**
 * What a check of a process's recorded instances needs of its shape: the process ids, every
 * flow element id, and per agent task the gates downstream of it — the gates its static verdict
 * relied on, so that an instance passing one of them after the task passed the gate it needed.
 * One backward sweep per gate: O(gates × (V + E)); processes have few gates.
 */
import { neighbours, reverseAdjacency } from "../model/index.js";
import { hasGateMarker } from "./agents.js";
import { prepareProcess } from "./analysis.js";
import { selectorsOf } from "./evaluate-setup.js";
import type { GateOptions } from "./gate-options.js";
import type { ModdleObject } from "./moddle.js";
import { nodeId } from "./process-index.js";
import { extensionValues } from "./moddle.js";
import { staticText } from "./camunda/static-text.js";
import { fieldSource, zeebeInputList } from "./camunda/zeebe.js";

/** An agent task and the gates downstream of it, by element id. */
export interface TaskGates {
  readonly elementId: string;
  readonly gates: readonly string[];
  /**
   * A Camunda agent's system prompt as it is sent, when the BPMN fixes it (a static value or one
   * FEEL string literal); absent for an expression evaluated at run time, and for other agents.
   */
  readonly systemPrompt?: string;
}

/** The shape of a process's instances as conformance reads them. */
export interface ProcessTopology {
  /** The ids of the definitions' `bpmn:process` elements. */
  readonly processIds: readonly string[];
  /** Every flow node's id, sub-processes' contents included. */
  readonly elements: readonly string[];
  readonly tasks: readonly TaskGates[];
}

/**
 * The topology of `definitions`, with gates chosen as `evaluateGates` chooses them (`isGate`,
 * `gates` selectors, else the `btv:gate` marker).
 *
 * @example
 * ```ts
 * import { processTopology, readProcess } from "agentflow/bpmn";
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
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("not BPMN");
 * const topology = processTopology(definitions);
 * topology.processIds; // → ["Study"]
 * topology.tasks; // → [{ elementId: "Research", gates: ["Review"] }]
 * ```
 */
export function processTopology(
  definitions: ModdleObject,
  options: Pick<GateOptions, "isGate" | "gates"> = {},
): ProcessTopology {
  const prepared = prepareProcess(
    definitions,
    options.isGate ?? hasGateMarker,
    selectorsOf(options),
  );
  const { graph } = prepared;
  const index = graph.index;
  const predecessors = reverseAdjacency(graph.successors);
  const vertices = graph.kinds.length;
  const agents = prepared.agents.map((a) => a.node);
  const gatesOf = agents.map((): string[] => []);
  const seen = new Int32Array(vertices).fill(-1);
  const queue = new Int32Array(vertices);
  prepared.gates.forEach(({ node: gate }, g) => {
    let head = 0;
    let tail = 0;
    // The gate's predecessors first: a task reaches the gate when a path leaves it and arrives.
    for (const p of neighbours(predecessors, gate)) {
      if (seen[p] !== g) {
        seen[p] = g;
        queue[tail++] = p;
      }
    }
    while (head < tail) {
      const v = queue[head++] ?? 0;
      for (const p of neighbours(predecessors, v)) {
        if (seen[p] === g) continue;
        seen[p] = g;
        queue[tail++] = p;
      }
    }
    agents.forEach((a, i) => {
      if (seen[a] === g) gatesOf[i]?.push(nodeId(index, gate));
    });
  });
  const elements: string[] = [];
  for (let node = 0; node < index.flags.length; node++) elements.push(nodeId(index, node));
  return {
    processIds: index.processIds.filter((id) => id !== ""),
    elements,
    tasks: prepared.agents.map((a, i) => {
      // The last mapping that gives it decides, an object holding it included (as the agent's
      // reading does); an object that cannot be split leaves it unknown.
      const found = fieldSource(
        zeebeInputList(extensionValues(a.entry.element)),
        "data.systemPrompt.prompt",
      );
      const prompt = found?.field === undefined ? undefined : staticText(found.field);
      return {
        elementId: nodeId(index, a.node),
        gates: gatesOf[i] ?? [],
        ...(prompt === undefined ? {} : { systemPrompt: prompt }),
      };
    }),
  };
}
