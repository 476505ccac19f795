/**
 * The three shipped templates (SPEC 2.9), as data. Each validates with zero errors and declares
 * exactly the autonomy level its graph justifies.
 */
import type { AgentWorkflow } from "../types.js";
import { approvalGateAgent } from "./approval-gate.js";
import { documentReviewAgent } from "./document-review.js";
import { researchAgent } from "./research.js";

/** A template's catalogue entry. */
export interface TemplateInfo {
  /** The name used by `getTemplate` and `agentflow templates <id>`. */
  readonly id: string;
  readonly title: string;
  readonly autonomyLevel: number;
  readonly summary: string;
  /** True for the template offered first. */
  readonly isDefault: boolean;
}

interface Entry {
  readonly info: TemplateInfo;
  readonly workflow: AgentWorkflow;
}

const ENTRIES: readonly Entry[] = [
  {
    info: {
      id: "approval-gate",
      title: "Approval Gate Agent",
      autonomyLevel: 1,
      summary: "One structured review; a person approves downstream.",
      isDefault: true,
    },
    workflow: approvalGateAgent,
  },
  {
    info: {
      id: "research",
      title: "Research Agent",
      autonomyLevel: 2,
      summary: "A bounded search loop with a budget, memory and an error boundary.",
      isDefault: false,
    },
    workflow: researchAgent,
  },
  {
    info: {
      id: "document-review",
      title: "Document Review Agent",
      autonomyLevel: 3,
      summary: "Extract, check, and classify valid documents: a branching decision.",
      isDefault: false,
    },
    workflow: documentReviewAgent,
  },
];

/**
 * The templates, default first.
 *
 * @example
 * ```ts
 * import { listTemplates } from "agentflow/model";
 *
 * listTemplates().map((t) => `${t.id} (autonomy ${t.autonomyLevel})`);
 * // → ["approval-gate (autonomy 1)", "research (autonomy 2)", "document-review (autonomy 3)"]
 * ```
 */
export function listTemplates(): readonly TemplateInfo[] {
  return ENTRIES.map((e) => e.info);
}

/**
 * A fresh copy of the template named `id` (or its workflow id), or `undefined` when there is no
 * such template. Copies, so that a caller editing its workflow cannot change the catalogue.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 *
 * const research = getTemplate("research");
 * research?.id; // → "agnt-rsch"
 * research?.nodes.map((n) => n.type); // → ["llm", "tool", "decision"]
 * getTemplate("no-such-template"); // → undefined
 * ```
 */
export function getTemplate(id: string): AgentWorkflow | undefined {
  const entry = ENTRIES.find((e) => e.info.id === id || e.workflow.id === id);
  return entry === undefined ? undefined : structuredClone(entry.workflow);
}
