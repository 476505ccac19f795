import { describeDefinitions } from "../registry-conflict.js";
import { declarationPath, preview, refLabel } from "../report-data.js";
import type { BpmnRule } from "../rule.js";
import { defineRule } from "../../rules/index.js";

/** An attribute as written, for a message: quoted and cut short, or `none`. */
const quoted = (value: string | undefined): string =>
  value === undefined ? "none" : JSON.stringify(preview(value));

/**
 * A registry that holds two different documents for one `id@version` cannot say which one was
 * reviewed: an impostor may stand in for the agent, a tool or a delegate. Every task that
 * resolves through such a reference is blocked, once per reference, naming every definition.
 * So is an element that declares its agent twice (two `btv:agentTask`s): which one runs cannot
 * be known either, and the task is never resolved (resolve-tasks.ts).
 */
export const rule: BpmnRule = defineRule({
  meta: {
    code: "AGENT_REF_CONFLICT",
    scope: "process",
    defaultSeverity: "error",
    description:
      "An agent task's workflow, or a tool or delegate it uses, has two different documents in the registry",
    docs: "docs/rules/AGENT_REF_CONFLICT.md",
    messages: {
      default:
        '{{ref}} (agent task "{{elementId}}") is defined with different content in {{definitions}}; which one would run cannot be known, so the agent cannot be reviewed',
      used: '{{ref}}, which {{agent}} (agent task "{{elementId}}") uses, is defined with different content in {{definitions}}; which one would run cannot be known',
      declarations:
        'agent task "{{elementId}}" declares its agent {{count}} times ({{declared}}); which one runs cannot be known, so none is resolved and the task is judged as an agent nothing is known of',
    },
    remediation:
      "remove or re-version the document that is not the reviewed one, so that each id@version has one content",
  },
  check(context) {
    for (const task of context.analysis?.tasks ?? []) {
      const declared = task.declaration.declarations;
      if (declared !== undefined) {
        // Its only conflict is its declarations' (the task is never resolved): said once here.
        context.report({
          elementId: task.node.id,
          path: task.node.path,
          messageId: "declarations",
          data: {
            elementId: task.node.id,
            count: declared.length,
            declared: declared
              .map((d) =>
                d.path === ""
                  ? `the element's btv:agentWorkflowRef ${quoted(d.ref)}`
                  : `${d.path}: agentWorkflowRef ${quoted(d.ref)}, autonomyLevel ${quoted(d.levelText)}`,
              )
              .join("; "),
            refs: declared.map((d) => d.ref ?? null),
            levels: declared.map((d) => d.levelText ?? null),
            paths: declared.map((d) => d.path),
          },
        });
        continue;
      }
      if (task.ref?.ok !== true) continue;
      const agent = refLabel(task);
      const said = new Set<string>();
      for (const conflict of task.resolution.conflicts) {
        if (said.has(conflict.ref)) continue;
        said.add(conflict.ref);
        const own = conflict.ref === task.ref.canonical;
        context.report({
          elementId: task.node.id,
          path: own ? declarationPath(task, "agentWorkflowRef") : task.node.path,
          messageId: own ? "default" : "used",
          data: {
            elementId: task.node.id,
            ref: conflict.ref,
            agent,
            definitions: describeDefinitions(conflict.definitions),
            sources: conflict.definitions.map((d) => d.source),
            contentHashes: conflict.definitions.map((d) => d.contentHash),
          },
        });
      }
    }
  },
});
