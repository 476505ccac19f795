/**
 * A LangGraph run checked against the workflow imported from the same app's drawable graph. The
 * graph does not say what a function node does, so the importer reads `agent` as a tool on
 * `tool:langgraph.node.agent@0.0.0` whose effect is unknown (docs/interop/langgraph-graph.md): a run of it is
 * never passed as conforming until the approval says what the node is.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApprovedModel, RunEvent } from "../../src/conform/index.js";
import { createConformanceChecker } from "../../src/conform/index.js";
import { langGraphReader } from "../../src/conform/read/langgraph.js";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";
import type { AgentWorkflow, ToolContract } from "../../src/model/index.js";

const RUN = join(import.meta.dirname, "../fixtures/conform/langgraph/messages-updates.jsonl");
const REF = "agnt-react@1.0.0";

/** The app of the fixture's run (`generate.ts`), drawn as LangGraph.js draws it, imported. */
async function approvedWorkflow(): Promise<AgentWorkflow> {
  const search = tool(({ q }: { q: string }) => `found ${q}`, {
    name: "web_search",
    description: "search",
    schema: z.object({ q: z.string() }),
  });
  const app = new StateGraph(MessagesAnnotation)
    .addNode("agent", () => ({ messages: [] }))
    .addNode("tools", new ToolNode([search]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", () => END, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  const doc = JSON.parse(JSON.stringify((await app.getGraphAsync()).toJSON())) as unknown;
  return { ...importLangGraphGraph(doc).workflow, id: "agnt-react", version: "1.0.0" };
}

/** The fixture's run (it names no workflow: it is given the approved one's ref). */
function events(): RunEvent[] {
  const reader = langGraphReader.create();
  const out: RunEvent[] = [];
  readFileSync(RUN, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .forEach((line, index) => {
      const value = JSON.parse(line) as unknown;
      out.push(...reader.push({ value, index, line: index + 1, file: "run.jsonl" }));
    });
  out.push(...reader.end());
  return out.map((e) => (e.kind === "run-start" ? { ...e, workflow: REF } : e));
}

const contract: ToolContract = {
  kind: "ToolContract",
  id: "tool:langgraph.node.agent",
  version: "0.0.0",
  name: "agent",
  inputSchema: {},
  outputSchema: {},
  effect: "read",
  authorization: "automatic",
};

describe("a LangGraph run against its imported drawable graph", () => {
  it.each<[string, [string, ToolContract][], string]>([
    ["no contract states the function node", [], "CONTRACT_UNRESOLVED"],
    [
      "a contract states it, the run records no arguments",
      [["tool:langgraph.node.agent@0.0.0", contract]],
      "ARGUMENTS_UNRECORDED",
    ],
  ])("%s: its model-calling steps are unverified, never passed", async (_name, tools, reason) => {
    const wf = await approvedWorkflow();
    expect(wf.nodes[0]).toEqual({
      id: "agent",
      type: "tool",
      config: { usesTool: "tool:langgraph.node.agent@0.0.0" },
    });
    const approved: ApprovedModel = {
      workflows: [{ ref: REF, workflow: wf, tools: new Map(tools) }],
      processes: [],
    };
    const checker = createConformanceChecker(approved);
    for (const e of events()) checker.push(e);
    const run = checker.end().runs[0];
    expect(run?.verdict).not.toBe("conforming");
    // both `agent` steps (each recorded a gpt-4o call) are matched to the tool node, and held
    // open: its contract, and the model its ref's family says it may call, which none approved
    expect(
      run?.unverified
        .filter((u) => u.data.node === "agent")
        .map((u) => [u.reason, u.reason === "MODEL_UNSTATED" ? u.data.recorded : undefined]),
    ).toEqual([
      ["MODEL_UNSTATED", "gpt-4o"],
      [reason, undefined],
      ["MODEL_UNSTATED", "gpt-4o"],
      [reason, undefined],
    ]);
  });
});
