/**
 * The report's section data for each Camunda agent read from the BPMN (docs/bpmn.md): the facts and
 * tool rows the gate's text shows too, and the derived workflow's graph for the drawing.
 */
import type { AgentTaskSummary, DerivedAgent } from "../../bpmn/index.js";
import { deriveWorkflow } from "../../bpmn/camunda/index.js";
import { exportMermaid } from "../../interop/index.js";
import { derivedAgentFacts, derivedToolRows, peopleNote, reasonText } from "../derived-agent.js";
import { workflowGraph } from "./graph.js";
import { cutMermaidLabels, drawingVerdict } from "./limits.js";
import type { DerivedAgentAudit } from "./types.js";

/**
 * The derived agent's section. The graph is derived again from the decision's data: the
 * derivation reads only the agent's facts and its effected tools (the container's sub-flow
 * steps and flows decide effects, already in the tools), so the drawing is the graph the level
 * was assessed on.
 */
function derivedAudit(agent: DerivedAgent): DerivedAgentAudit {
  const { workflow } = deriveWorkflow({ ...agent, steps: [], flows: [] }, agent.tools);
  const { nodes, edges, dangling } = workflowGraph(workflow, []);
  const drawing = drawingVerdict(nodes.length, edges.length + dangling, dangling);
  return {
    elementId: agent.elementId,
    workflowRef: agent.workflowRef,
    level: agent.level,
    facts: derivedAgentFacts(agent),
    reasons:
      agent.reasons.length === 0
        ? ["no loop, branch or delegation: one model call, level 1"]
        : agent.reasons.map(reasonText),
    tools: derivedToolRows(agent),
    people: peopleNote(agent),
    nodes,
    edges,
    drawing,
    mermaid: drawing.drawn ? cutMermaidLabels(exportMermaid(workflow)) : "",
  };
}

/** The section of every agent task that carries a derived agent, in the tasks' order. */
export function derivedAgentAudits(tasks: readonly AgentTaskSummary[]): DerivedAgentAudit[] {
  return tasks.flatMap((task) => (task.derived === undefined ? [] : [derivedAudit(task.derived)]));
}
