/**
 * Which sequence flows a bypass runs along. `AGENT_GATE_BYPASS` reports its path as flow-node
 * ids (`data.pathIds`, the task first); the canvas marks flows, so each step of the path is
 * matched to the flow that takes it. Pure, so it is tested without a browser.
 */
import type { GateDecision } from "../bpmn/index.js";

/** A sequence flow as the diagram has it. */
export interface FlowEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
}

/**
 * The ids of every bypass path a decision reports, one list per `AGENT_GATE_BYPASS` finding.
 *
 * @example
 * ```ts
 * import { checkProcess } from "agentflow/bpmn";
 * import { bypassPaths } from "agentflow/bpmn-js";
 * import { getTemplate } from "agentflow/model";
 *
 * // the "small" branch of the gateway skips the review
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:exclusiveGateway id="Size" />
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Size" />
 *     <bpmn:sequenceFlow id="F3" name="large" sourceRef="Size" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F4" name="small" sourceRef="Size" targetRef="End" />
 *     <bpmn:sequenceFlow id="F5" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const decision = await checkProcess(xml, {
 *   resolveWorkflow: (ref) => (ref === "agnt-rsch@2.1.0" ? getTemplate("research") : undefined),
 * });
 * bypassPaths(decision); // → [["Research", "Size", "End"]]
 * ```
 */
export function bypassPaths(
  decision: Pick<GateDecision, "blocking" | "warnings">,
): (readonly string[])[] {
  const paths: (readonly string[])[] = [];
  for (const diagnostic of [...decision.blocking, ...decision.warnings]) {
    if (diagnostic.code !== "AGENT_GATE_BYPASS") continue;
    const ids = diagnostic.data.pathIds;
    if (Array.isArray(ids) && ids.every((id) => typeof id === "string")) paths.push(ids);
  }
  return paths;
}

/**
 * The flows along the bypass paths of a decision, each once, in path order. A step from one node
 * to the next takes the flow between them; a step that leaves a sub-process (the path names the
 * node inside, then the node after the sub-process) takes the flow from the nearest enclosing
 * container of the node inside. `parentOf` gives a node's container (`undefined` at the top).
 * O(path length × depth + flows).
 *
 * @example
 * ```ts
 * import { bypassFlowIds } from "agentflow/bpmn-js";
 *
 * const flows = [
 *   { id: "F1", source: "Risk", target: "Band" },
 *   { id: "F2", source: "Band", target: "Review" },
 *   { id: "F3", source: "Band", target: "Offer" },
 * ];
 * const bypass = {
 *   code: "AGENT_GATE_BYPASS",
 *   severity: "error" as const,
 *   message: "agent task \"Risk\" can reach the end without an approval gate",
 *   target: { kind: "bpmn-element" as const, elementId: "Risk" },
 *   path: "",
 *   data: { pathIds: ["Risk", "Band", "Offer", "Sent"] },
 * };
 * bypassFlowIds({ blocking: [bypass], warnings: [] }, flows, () => undefined); // → ["F1", "F3"]
 * ```
 */
export function bypassFlowIds(
  decision: Pick<GateDecision, "blocking" | "warnings">,
  flows: readonly FlowEdge[],
  parentOf: (id: string) => string | undefined,
): string[] {
  const byEnds = new Map<string, string>();
  for (const flow of flows) {
    const key = `${flow.source}\u0000${flow.target}`;
    // The first flow between two nodes stands for all of them: one is enough to show the path.
    if (!byEnds.has(key)) byEnds.set(key, flow.id);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const path of bypassPaths(decision)) {
    for (let i = 1; i < path.length; i++) {
      const target = path[i] ?? "";
      let from: string | undefined = path[i - 1];
      let flow: string | undefined;
      for (const visited = new Set<string>(); from !== undefined && !visited.has(from);) {
        visited.add(from);
        flow = byEnds.get(`${from}\u0000${target}`);
        if (flow !== undefined) break;
        from = parentOf(from);
      }
      if (flow !== undefined && !seen.has(flow)) {
        seen.add(flow);
        out.push(flow);
      }
    }
  }
  return out;
}
