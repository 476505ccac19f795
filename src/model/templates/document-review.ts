import type { AgentWorkflow } from "../types.js";

/**
 * Autonomy 3: extraction followed by a branching decision — valid documents are classified,
 * invalid ones end the run — so the graph holds a decision tree but no loop.
 */
export const documentReviewAgent: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "agnt-doc-review",
  version: "1.0.0",
  name: "Document Review Agent",
  description: "Extracts a document's content, checks it, and classifies the valid ones.",
  autonomyLevel: 3,
  budget: { maxSteps: 10, maxTokens: 80000, maxWallTimeMs: 240000, maxCostUSD: 3 },
  inputSchema: { document: "text" },
  outputSchema: { "category?": "text", extracted: "text", is_valid: "bool" },
  nodes: [
    {
      id: "llm-extract",
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:doc-extract@1.0.0", structuredOutput: true },
    },
    {
      id: "dec-validate",
      type: "decision",
      config: {
        condition: "output.is_valid = true",
        onTrue: { next: "llm-classify" },
        onFalse: { next: "end" },
      },
    },
    {
      id: "llm-classify",
      type: "llm",
      config: { model: "gpt-4o", promptRef: "prm:doc-classify@1.0.0", structuredOutput: true },
    },
  ],
  edges: [
    { from: "llm-extract", to: "dec-validate", edgeType: "data" },
    { from: "dec-validate", to: "llm-classify", edgeType: "data", when: "valid" },
  ],
};
