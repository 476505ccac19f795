/**
 * The seed engine's model leaves a planner's `strategy` (default `static`) and an error
 * boundary's `backoff` (default `fixed`) optional (issue 18, item 1): such documents parse,
 * carry the default written out, and read the same everywhere as with it spelled.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { minCoherentLevel } from "../../../src/autonomy/index.js";
import type { AgentWorkflow } from "../../../src/model/index.js";
import { contentHash, parseWorkflow, parseWorkflowText } from "../../../src/model/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { createValidator } from "../../../src/validate/index.js";

/** The seed's own Research Agent template, with its decorators as the test needs them. */
const seed = JSON.parse(
  readFileSync("test/fixtures/agentflow/template-research-agent.json", "utf8"),
) as AgentWorkflow & { nodes: { decorators?: Record<string, unknown>[] }[] };

function withDecorators(...decorators: Record<string, unknown>[]): unknown {
  return {
    ...seed,
    nodes: seed.nodes.map((n, i) => (i === 0 ? { ...n, decorators } : n)),
  };
}

describe("decorator defaults", () => {
  it.each([
    [{ type: "planner" }, { type: "planner", strategy: "static" }],
    [
      { type: "errorBoundary", maxRetries: 2 },
      { type: "errorBoundary", maxRetries: 2, backoff: "fixed" },
    ],
  ])("%j parses, and reads as %j", (written, read) => {
    const left = parseWorkflow(withDecorators(written));
    expect(left.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(left.workflow?.nodes[0]?.decorators).toEqual([read]);
    // Written out or left out: one canonical form, one content hash.
    const spelled = parseWorkflow(withDecorators(read));
    expect(left.workflow && contentHash(left.workflow)).toBe(
      spelled.workflow && contentHash(spelled.workflow),
    );
  });

  it("does not change the input value, and returns it as it is when nothing is missing", () => {
    const input = withDecorators({ type: "planner" }) as { nodes: { decorators: unknown[] }[] };
    parseWorkflow(input);
    expect(input.nodes[0]?.decorators).toEqual([{ type: "planner" }]);
    const full = withDecorators({ type: "planner", strategy: "dynamic" });
    expect(parseWorkflow(full).workflow).toBe(full);
  });

  it("from YAML too, with the same rules and level as the spelled form", async () => {
    const yaml = JSON.stringify(
      withDecorators({ type: "planner" }, { type: "errorBoundary", maxRetries: 1 }),
    );
    const left = parseWorkflowText(yaml).workflow;
    const spelled = parseWorkflowText(
      JSON.stringify(
        withDecorators(
          { type: "planner", strategy: "static" },
          { type: "errorBoundary", maxRetries: 1, backoff: "fixed" },
        ),
      ),
    ).workflow;
    if (left === undefined || spelled === undefined) throw new Error("does not parse");
    const validator = createValidator();
    expect(await validator.validate(left)).toEqual(await validator.validate(spelled));
    // A static planner is no dynamic one: the level the graph justifies does not rise to 5.
    expect(minCoherentLevel(left)).toBe(minCoherentLevel(spelled));
    expect(minCoherentLevel(left)).toBeLessThan(5);
    expect(simulate(left).trail).toEqual(simulate(spelled).trail);
  });

  it("still refuses a value outside the enum", () => {
    const wrong = parseWorkflow(withDecorators({ type: "planner", strategy: "linear" }));
    expect(wrong.workflow).toBeUndefined();
    expect(wrong.diagnostics[0]).toMatchObject({
      code: "STRUCTURE_INVALID",
      path: "/nodes/0/decorators/0/strategy",
    });
  });
});

describe("only what the seed requires is required", () => {
  it("a document with exactly the seed types' required fields parses without an error", () => {
    // Each field here is required by the seed's own types.ts; every optional one is left out:
    // description, budget, structuredOutput, params, timeoutMs, maxRetries, when, expiry,
    // strategy, backoff.
    const minimal = {
      kind: "AgentWorkflow",
      id: "agnt-min",
      version: "1.0.0",
      name: "Minimal",
      autonomyLevel: 1,
      inputSchema: { q: "string" },
      outputSchema: { done: "boolean" },
      nodes: [
        {
          id: "think",
          type: "llm",
          config: { model: "gpt-4o", promptRef: "prm:think@1.0.0" },
          decorators: [
            { type: "memory", scope: "short" },
            { type: "planner" },
            { type: "errorBoundary", maxRetries: 1 },
          ],
        },
        { id: "search", type: "tool", config: { usesTool: "tool:search@1.0.0" } },
        {
          id: "done",
          type: "decision",
          config: {
            condition: "output.done = true",
            onTrue: { next: "end" },
            onFalse: { next: "end" },
          },
        },
      ],
      edges: [
        { from: "think", to: "search", edgeType: "toolCall" },
        { from: "search", to: "done", edgeType: "data" },
      ],
    };
    const parsed = parseWorkflow(minimal);
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(parsed.workflow?.nodes[0]?.decorators).toEqual([
      { type: "memory", scope: "short" },
      { type: "planner", strategy: "static" },
      { type: "errorBoundary", maxRetries: 1, backoff: "fixed" },
    ]);
  });
});
