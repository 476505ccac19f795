/**
 * The workflows the delegation tests share (test/validate/delegates.test.ts and the
 * DELEGATE_INVALID table): agents that take `{ done: bool }`, so that a delegation's contract
 * always matches, and the red team's delegates that fail their own rules.
 */
import type { AgentEdge, AgentNode, AgentWorkflow, AutonomyLevel } from "../../src/model/index.js";
import { edge, llm, tool, workflow } from "./builders.js";

/** Agent `id@1.0.0` declaring `level` (with a budget from level 2), taking `{ done: bool }`. */
export const agent = (
  id: string,
  level: AutonomyLevel,
  nodes: readonly AgentNode[] = [llm("x")],
  edges: readonly AgentEdge[] = [],
  extra: Partial<AgentWorkflow> = {},
): AgentWorkflow =>
  workflow(nodes, edges, {
    id,
    autonomyLevel: level,
    inputSchema: { done: "bool" },
    ...(level >= 2 ? { budget: { maxSteps: 5 } } : {}),
    ...extra,
  });

/** Node `x` delegating to each of `to`. */
export const delegating = (id: string, level: AutonomyLevel, ...to: string[]): AgentWorkflow =>
  agent(
    id,
    level,
    [llm("x")],
    to.map((t) => edge("x", t, "delegate")),
  );

/** A tool node on `tool:lookup@1.0.0`, which agents may call. */
export const lookup = tool("look", "tool:lookup@1.0.0", { params: { q: "x" } });
/** A delegate that loops forever while declaring level 1. */
export const loopy = agent(
  "agnt-loopy",
  1,
  [lookup, llm("think")],
  [edge("look", "think"), edge("think", "look")],
);
/** A dynamic planner (level 5) declaring level 1. */
export const sneaky = agent("agnt-sneaky", 1, [
  { ...lookup, decorators: [{ type: "planner", strategy: "dynamic" }] },
]);
/** Calls a tool whose contract forbids agents to call it. */
export const helper = agent("agnt-helper", 1, [
  tool("dump", "tool:export@1.0.0", { params: { q: "x" } }),
]);

/** A read-only tool contract that agents may call (`automatic`) or not (`forbidden`). */
export const contract = (id: string, authorization: "automatic" | "forbidden") => ({
  kind: "ToolContract",
  id,
  version: "1.0.0",
  name: id,
  inputSchema: { q: "text" },
  outputSchema: { r: "text" },
  effect: "read",
  authorization,
});
