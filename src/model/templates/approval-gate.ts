import type { AgentWorkflow } from "../types.js";

/**
 * The default template, autonomy 1: one structured model call whose verdict a human confirms
 * downstream. No loop and no branching, so the graph justifies exactly level 1.
 */
export const approvalGateAgent: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "agnt-approval-gate",
  version: "1.0.0",
  name: "Approval Gate Agent",
  description:
    "Reviews a request and proposes approve or reject with a rationale; a person decides downstream.",
  autonomyLevel: 1,
  inputSchema: { request: "text" },
  outputSchema: { approved: "bool", rationale: "text" },
  nodes: [
    {
      id: "llm-review",
      type: "llm",
      config: {
        model: "gpt-4o",
        promptRef: "prm:approval-review@1.0.0",
        structuredOutput: true,
        outputSchema: { approved: "bool", rationale: "text" },
      },
    },
    {
      id: "dec-approve",
      type: "decision",
      config: {
        condition: "output.approved = true",
        onTrue: { next: "end" },
        onFalse: { next: "end" },
      },
    },
  ],
  edges: [{ from: "llm-review", to: "dec-approve", edgeType: "data" }],
};
