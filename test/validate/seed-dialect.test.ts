/**
 * The seed's condition dialect, read fully (issue 18, item 3), on the seed's own Research
 * template: a loop guarded by `&&` or a single-quoted string is a structured stop, and the LLM
 * that feeds it without structuredOutput is flagged, as the seed flags it. One warning says what
 * was read, with the FEEL it was read as.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentWorkflow } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";

const template = JSON.parse(
  readFileSync("test/fixtures/agentflow/template-research-agent.json", "utf8"),
) as { nodes: { id: string; config: Record<string, unknown> }[] };

/** The template with dec-3 on `condition`, and llm-1 without structuredOutput. */
function withCondition(condition: string): AgentWorkflow {
  const nodes = template.nodes.map((n) => {
    if (n.id === "dec-3") return { ...n, config: { ...n.config, condition } };
    if (n.id === "llm-1") return { ...n, config: { ...n.config, structuredOutput: false } };
    return n;
  });
  const parsed = parseWorkflow({ ...template, nodes });
  if (parsed.workflow === undefined) throw new Error("does not parse");
  return parsed.workflow;
}

describe("the seed's dialect in a loop's stop", () => {
  it.each([
    ["output.a === 1 && output.b === 2", "output.a = 1 and output.b = 2", ["=== → =", "&& → and"]],
    ["output.status === 'rejected'", 'output.status = "rejected"', ["=== → =", `'…' → "…"`]],
    [
      "!output.pending || output.is_complete === true",
      "not(output.pending) or output.is_complete = true",
      ["! → not(", "|| → or", "=== → ="],
    ],
  ])("%j is a structured stop, read as %j", async (condition, rewritten, operators) => {
    const diagnostics = await createValidator().validate(withCondition(condition));
    const codes = diagnostics.map((d) => d.code);
    expect(codes).not.toContain("CONDITION_SYNTAX");
    expect(codes).not.toContain("CYCLE_WITHOUT_STOP");
    expect(codes).toContain("LLM_NOT_STRUCTURED");
    expect(diagnostics.find((d) => d.code === "CONDITION_JS_OPERATOR")?.data).toMatchObject({
      nodeId: "dec-3",
      rewritten,
      operators,
    });
  });
});
