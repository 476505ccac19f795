/**
 * Generators of large, valid-looking workflows for benchmarks and scale tests. Deterministic:
 * the same size gives the same document.
 */
import type { AgentEdge, AgentNode, AgentWorkflow } from "../src/model/index.js";

/** The graph shapes the benchmarks cover. */
export type GraphShape = "chain" | "loops" | "wide" | "wide-findings";

function llm(id: string): AgentNode {
  return {
    id,
    type: "llm",
    config: { model: "m", promptRef: "prm:step@1.0.0", structuredOutput: true },
  };
}

function tool(id: string, query = "{{n0.output.q}}"): AgentNode {
  return {
    id,
    type: "tool",
    config: { usesTool: "tool:search@1.0.0", params: { q: query } },
  };
}

/**
 * A workflow of `size` nodes. `chain`: llm → tool → llm …; `loops`: every tenth node is a decision
 * that retries the previous nine (bounded); `wide`: one decision fans out to every other node.
 * The tools of `chain` and `loops` read the first llm's output; those of `wide` read the workflow
 * input, as the decision before them has no output. `wide-findings` is `wide` with its tools
 * reading the decision's output all the same: every second node gets a TEMPLATE_UNRESOLVABLE
 * finding, the load of a document whose findings are most of the result.
 */
export function generateWorkflow(size: number, shape: GraphShape = "loops"): AgentWorkflow {
  const nodes: AgentNode[] = [];
  const edges: AgentEdge[] = [];
  if (shape === "wide" || shape === "wide-findings") {
    const query = shape === "wide" ? "{{input.q}}" : "{{n0.output.q}}";
    const cases = [];
    for (let i = 1; i < size; i += 1) {
      nodes.push(i % 2 === 0 ? llm(`n${i}`) : tool(`n${i}`, query));
      cases.push({ condition: `output.route = ${i}`, next: `n${i}` });
    }
    nodes.unshift({ id: "n0", type: "decision", config: { cases, otherwise: { next: "end" } } });
  } else {
    for (let i = 0; i < size; i += 1) {
      const id = `n${i}`;
      const next = i + 1 < size ? `n${i + 1}` : "end";
      if (shape === "loops" && i % 10 === 9) {
        nodes.push({
          id,
          type: "decision",
          config: {
            condition: "output.done = true",
            onTrue: { next },
            onFalse: { next: `n${i - 9}`, maxRetries: 2 },
          },
        });
        continue;
      }
      nodes.push(i % 2 === 0 ? llm(id) : tool(id));
      if (i + 1 < size) edges.push({ from: id, to: next, edgeType: "data" });
    }
  }
  return {
    kind: "AgentWorkflow",
    id: `agnt-generated-${shape}-${size}`,
    version: "1.0.0",
    name: `Generated ${shape} of ${size} nodes`,
    // A decision with several forward routes justifies level 3 (SPEC 4).
    autonomyLevel: shape === "wide" || shape === "wide-findings" ? 3 : 2,
    budget: { maxSteps: size * 3 },
    inputSchema: { q: "text" },
    outputSchema: { done: "bool" },
    nodes,
    edges,
  };
}
