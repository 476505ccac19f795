import { pointer } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * An edge names a node that does not exist. The flow graph drops such an edge, so the step the
 * author drew never happens (and a typo in an id silently disconnects part of the workflow).
 * A delegate edge's `to` is an agent reference, not a node: only its `from` is checked here.
 */
const FROM = ["from"] as const;
const BOTH = ["from", "to"] as const;

export const rule: Rule = defineRule({
  meta: {
    code: "EDGE_ENDPOINT_MISSING",
    defaultSeverity: "error",
    description: "An edge's from or to is not a node id",
    docs: "docs/rules/EDGE_ENDPOINT_MISSING.md",
    messages: {
      default: 'edge {{index}} ({{from}} → {{to}}): its {{endpoint}} "{{id}}" is not a node id',
    },
    remediation: "point the edge at an existing node id, or remove it",
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { workflow, graph } = context;
    workflow.edges.forEach((edge, index) => {
      const ends = edge.edgeType === "delegate" ? FROM : BOTH;
      for (const endpoint of ends) {
        const id = edge[endpoint];
        const found = endpoint === "from" ? graph.edgeSource[index] : graph.edgeTarget[index];
        if (found !== undefined && found >= 0) continue;
        context.report({
          target: { kind: "edge", index, from: edge.from, to: edge.to },
          path: pointer("edges", index, endpoint),
          data: { index, endpoint, id, from: edge.from, to: edge.to },
        });
      }
    });
  },
});
