import { declarationPath, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/**
 * An agent the registry does not know cannot be reviewed from its source of truth. The embedded
 * snapshot lets the check go on (a degraded read: it may be stale or edited), so this is a
 * warning either way; the gate rules still apply with what is known.
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_UNRESOLVED",
    scope: "process",
    defaultSeverity: "warning",
    description:
      "The workflow registry does not know an agent task's ref (snapshot used, or nothing)",
    docs: "docs/rules/AGENT_UNRESOLVED.md",
    messages: {
      default:
        'the registry does not know {{ref}} (agent task "{{elementId}}"); the agent itself could not be reviewed, only the process around it',
      "no-registry":
        'no registry was given to resolve {{ref}} (agent task "{{elementId}}"); the agent itself could not be reviewed, only the process around it',
      snapshot:
        '{{ref}} (agent task "{{elementId}}") was not found in a registry; its embedded snapshot was checked instead, a degraded read',
      failed:
        '{{ref}} (agent task "{{elementId}}") could not be resolved: {{registryProblem}}; the agent itself could not be reviewed',
      refused:
        '{{ref}} (agent task "{{elementId}}") was not found in a registry, and its snapshot cannot be used: {{snapshotProblem}}',
    },
    remediation: "publish the workflow to the registry (or fix the ref)",
  },
  check(context) {
    const registry = context.analysis?.registry ?? false;
    for (const task of context.analysis?.tasks ?? []) {
      if (task.ref?.ok !== true || task.resolution.resolution === "registry") continue;
      // A ref with two documents is AGENT_REF_CONFLICT's (an error), said once, not twice.
      const ref = task.ref.canonical;
      if (task.resolution.conflicts.some((c) => c.ref === ref)) continue;
      // Another or an invalid document for the ref is AGENT_LOOKUP_INVALID's, an error.
      const own = task.resolution.registryFailure;
      if ((own === "mismatch" || own === "invalid") && task.resolution.resolution === "unresolved")
        continue;
      const problem = task.resolution.snapshotProblem;
      const failed = task.resolution.registryProblem;
      const usedSnapshot = task.resolution.resolution === "snapshot";
      context.report({
        elementId: task.node.id,
        path: declarationPath(task, "agentWorkflowRef"),
        messageId: usedSnapshot
          ? "snapshot"
          : failed !== undefined
            ? "failed"
            : problem !== undefined
              ? "refused"
              : registry
                ? "default"
                : "no-registry",
        data: {
          elementId: task.node.id,
          ref: refLabel(task),
          registry,
          fallback: usedSnapshot ? "snapshot" : "none",
          ...(problem === undefined ? {} : { snapshotProblem: problem }),
          ...(failed === undefined ? {} : { registryProblem: failed }),
        },
      });
    }
  },
});
