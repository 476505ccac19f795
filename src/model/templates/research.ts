import type { AgentWorkflow } from "../types.js";

/**
 * Autonomy 2: a research loop that searches until the answer is complete, bounded by `maxRetries`
 * on the looping route and by a budget; memory and an error boundary decorate the model call.
 */
export const researchAgent: AgentWorkflow = {
  kind: "AgentWorkflow",
  id: "agnt-rsch",
  version: "2.1.0",
  name: "Research Agent",
  description: "Plans a query, searches the web, and repeats (at most 3 times) until complete.",
  autonomyLevel: 2,
  budget: { maxSteps: 12, maxTokens: 120000, maxWallTimeMs: 300000, maxCostUSD: 4 },
  inputSchema: { query: "text" },
  outputSchema: { answer: "text", sources: "text[]", is_complete: "bool" },
  nodes: [
    {
      id: "llm-1",
      type: "llm",
      config: {
        model: "gpt-4o",
        promptRef: "prm:research@2.0.0",
        structuredOutput: true,
        maxOutputTokens: 4096,
      },
      decorators: [
        { type: "memory", scope: "short", expiry: "6h" },
        { type: "errorBoundary", maxRetries: 3, backoff: "exponential" },
      ],
    },
    {
      id: "tool-2",
      type: "tool",
      config: {
        usesTool: "tool:browser-search@1.2.0",
        params: { query: "{{llm-1.output.query}}" },
        timeoutMs: 30000,
      },
    },
    {
      id: "dec-3",
      type: "decision",
      config: {
        condition: "output.is_complete = true",
        onTrue: { next: "end" },
        onFalse: { next: "llm-1", maxRetries: 3 },
      },
    },
  ],
  edges: [
    { from: "llm-1", to: "tool-2", edgeType: "toolCall" },
    { from: "tool-2", to: "dec-3", edgeType: "data" },
    { from: "dec-3", to: "llm-1", edgeType: "data", when: "retry" },
  ],
};
