/// <reference lib="dom" />
/**
 * The overlays' DOM: a badge per agent task, whose findings list shows on hover (and on keyboard
 * focus), and a marker per gate. Built with DOM calls, not HTML strings, so that no id, role or
 * message of the diagram is ever read as markup.
 */
import type { ApprovalMark } from "./approval-marks.js";
import type { GateMark, TaskBadge, ToolMark } from "./badges.js";
// The leaf module, not model/index.js: the first load draws, and carries nothing else of model/.
import { visibleText } from "../model/text/visible.js";

/**
 * The badge of an agent task: `data-agentflow-level`, `data-agentflow-gate` and
 * `data-agentflow-element` carry its data for hosts and tests.
 */
export function taskBadgeElement(doc: Document, badge: TaskBadge): HTMLElement {
  const root = doc.createElement("div");
  root.className = `agentflow-badge agentflow-gate-${badge.gate}`;
  root.setAttribute("data-agentflow-element", badge.elementId);
  root.setAttribute("data-agentflow-level", badge.level);
  root.setAttribute("data-agentflow-gate", badge.gate);
  root.tabIndex = 0;
  const count = badge.findings.length;
  root.setAttribute(
    "aria-label",
    `${badge.text}; ${count === 0 ? "no findings" : `${count} finding${count === 1 ? "" : "s"}`}`,
  );

  const text = doc.createElement("span");
  text.className = "agentflow-badge-text";
  text.textContent = badge.text;
  root.append(text);

  const list = doc.createElement("ul");
  list.className = "agentflow-findings";
  for (const finding of badge.findings) {
    const item = doc.createElement("li");
    item.className = `agentflow-finding agentflow-finding-${finding.severity}`;
    const code = doc.createElement("code");
    code.textContent = visibleText(finding.code);
    item.append(code, ` ${visibleText(finding.message)}`);
    if (finding.waived !== undefined) {
      // A waived finding stays in the list, marked, with who waived it, until when and why.
      const { grantedBy, expires, reason } = finding.waived;
      item.classList.add("agentflow-finding-waived");
      item.setAttribute("data-agentflow-waived", expires);
      const note = doc.createElement("span");
      note.className = "agentflow-waiver";
      // The config's words, escaped as every surface shows them: a newline or a bidi override in
      // a reason must not read as another finding or another approver.
      note.textContent = visibleText(` (waived by ${grantedBy} until ${expires}: ${reason})`);
      item.append(note);
    }
    list.append(item);
  }
  if (count === 0) {
    const item = doc.createElement("li");
    item.className = "agentflow-finding";
    item.textContent = "No findings on this task.";
    list.append(item);
  }
  root.append(list);
  return root;
}

/** The marker of an approval gate: `data-agentflow-gate-marker` holds the approver role. */
export function gateMarkElement(doc: Document, mark: GateMark): HTMLElement {
  const root = doc.createElement("div");
  root.className = "agentflow-gate-marker";
  root.setAttribute("data-agentflow-element", mark.elementId);
  root.setAttribute("data-agentflow-gate-marker", mark.approverRole ?? "");
  root.textContent = mark.text;
  return root;
}

/**
 * The effect marker of a Camunda agent's tool: `data-agentflow-effect` (the effect or `unknown`)
 * and `data-agentflow-effect-source` carry its data; the class `agentflow-effect-<effect>` its
 * colour.
 */
export function toolMarkElement(doc: Document, mark: ToolMark): HTMLElement {
  const root = doc.createElement("div");
  root.className = `agentflow-effect agentflow-effect-${mark.effect}`;
  root.setAttribute("data-agentflow-element", mark.elementId);
  root.setAttribute("data-agentflow-agent", mark.agentId);
  root.setAttribute("data-agentflow-effect", mark.effect);
  root.setAttribute("data-agentflow-effect-source", mark.source);
  root.title = `effect from ${mark.source}`;
  root.textContent = mark.text;
  return root;
}

/**
 * The mark of an agent task no longer as approved: `data-agentflow-approval` holds `changed` or
 * `added`, the title what changed.
 */
export function approvalMarkElement(doc: Document, mark: ApprovalMark): HTMLElement {
  const root = doc.createElement("div");
  root.className = `agentflow-approval agentflow-approval-${mark.change}`;
  root.setAttribute("data-agentflow-element", mark.elementId);
  root.setAttribute("data-agentflow-approval", mark.change);
  root.title = mark.title;
  root.textContent = mark.text;
  return root;
}
