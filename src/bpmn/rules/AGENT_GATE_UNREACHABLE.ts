import type { AgentTaskFacts, GateAnalysis } from "../analysis.js";
import { inToolContainer } from "../camunda/tool-scope.js";
import {
  discountedAfter,
  levelLabel,
  opaqueMarker,
  refLabel,
  undeclaredGates,
} from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * The analysis as the hint reads it for this task: the user tasks in the agent's tool container
 * are its tools (or their steps), people the model may consult or not, never a gate to suggest.
 */
function hintAnalysis(analysis: GateAnalysis, task: AgentTaskFacts): GateAnalysis {
  const inside = inToolContainer(analysis.prepared.graph.index, task.resolution.derived);
  if (inside === undefined) return analysis;
  const userTasks = analysis.prepared.userTasks.filter((node) => !inside(node));
  return { ...analysis, prepared: { ...analysis.prepared, userTasks } };
}

function messageOf(task: AgentTaskFacts, marker: string | undefined): { messageId?: string } {
  if (task.unreviewed) return { messageId: "unreviewed" };
  if (task.camundaLevel !== undefined) return { messageId: "camunda" };
  return marker === undefined ? {} : { messageId: "opaque" };
}

/**
 * Levels 0-3 (and agents of unknown level, by the default policy) need a person to approve what
 * the agent did before the process acts on it. With no gate anywhere downstream, nobody does.
 * A btv ref on a Camunda AI agent agentflow reads does not lower the level the BPMN's agent is
 * read at: when that level is what needs the gate, the finding says so (`camunda`). A sub-process
 * that is a Camunda agent the BPMN does not describe is named with the attribute that makes it
 * one (`opaque`).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_GATE_UNREACHABLE",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task whose level requires a gate has no gate reachable downstream",
    docs: "docs/rules/AGENT_GATE_UNREACHABLE.md",
    messages: {
      default:
        'agent task "{{elementId}}" (autonomy level {{level}}) needs an approval gate downstream, but no gate is reachable from it{{hint}}{{discountHint}}',
      unreviewed:
        'agent task "{{elementId}}" ({{ref}}) could not be reviewed, since its workflow could not be read, so it needs an approval gate downstream as the most demanding case, but no gate is reachable from it{{hint}}{{discountHint}}',
      camunda:
        'agent task "{{elementId}}" names {{ref}} (autonomy level {{level}}) but runs the Camunda AI agent the BPMN draws, read at autonomy level {{camundaLevel}}: it needs an approval gate downstream, and no gate is reachable from it{{hint}}{{discountHint}}',
      opaque:
        'agent task "{{elementId}}" is a Camunda agent the BPMN does not describe ({{marker}}): its autonomy level is unknown, so it needs an approval gate downstream, but no gate is reachable from it{{hint}}{{discountHint}}',
    },
    remediation:
      "add a flow node marked <btv:gate/> (e.g. a user task for approval) after the agent task",
  },
  check(context) {
    const analysis = context.analysis;
    if (analysis === undefined) return;
    for (const task of analysis.tasks) {
      if (task.requirement !== "required" || task.gate.status !== "missing") continue;
      const marker = opaqueMarker(task);
      context.report({
        elementId: task.node.id,
        path: task.node.path,
        ...messageOf(task, marker),
        data: {
          ...undeclaredGates(hintAnalysis(analysis, task), task),
          ...discountedAfter(analysis, task),
          elementId: task.node.id,
          level: levelLabel(task),
          source: task.declaration.source,
          ref: refLabel(task),
          ...(task.camundaLevel === undefined ? {} : { camundaLevel: task.camundaLevel }),
          ...(marker === undefined ? {} : { marker }),
        },
      });
    }
  },
});
