/**
 * The gate verdict on a LangGraph app, as LangGraph.js draws it (`getGraphAsync().toJSON()`):
 * a function node is code the graph does not show, so a payment made inside one needs the same
 * gate as a payment made by a `ToolNode`. Reading it as a model step (no effect) left the
 * payment without a finding of its own, so only the level's gate rule stood between an ungated
 * process and an agent that wires money.
 */
import { tool } from "@langchain/core/tools";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";
import { readFixture } from "./helpers.js";
import { GATED, payVerdict, UNGATED } from "./pay-verdict.js";

const State = Annotation.Root({
  amount: Annotation<number>({ reducer: (_a: number, b: number) => b, default: () => 0 }),
});
const draft = (): Record<string, never> => ({});
// What the graph cannot show: the function node calls the bank itself.
const wireMoney = (): Record<string, never> => ({});
const payTool = tool(() => "sent", { name: "wire_money", description: "wire money" });

/** The drawable graph of `draft_invoice → wire_money`, the payment as a function or a ToolNode. */
async function app(payment: "function" | "ToolNode"): Promise<unknown> {
  const g = new StateGraph(State)
    .addNode("draft_invoice", draft)
    .addNode("wire_money", payment === "function" ? wireMoney : new ToolNode([payTool]))
    .addEdge(START, "draft_invoice")
    .addEdge("draft_invoice", "wire_money")
    .addEdge("wire_money", END)
    .compile();
  return JSON.parse(JSON.stringify((await g.getGraphAsync()).toJSON())) as unknown;
}

/** The verdict on `xml` (no gate, by default) with the imported graph as `agnt-pay@1.0.0`. */
function verdict(doc: unknown, xml = UNGATED) {
  return payVerdict(importLangGraphGraph(doc).workflow, xml);
}

describe("the gate verdict on a LangGraph app with no gate after the agent", () => {
  // Before, a function node was a model step of no effect: the first and third were blocked by
  // the level's gate rule alone, with no finding on the payment (a rule set that turns that rule
  // off let them through, and a policy pack on tool effects or models saw none), and the second
  // for `wire_money` alone.
  // A function node is bound to `tool:langgraph.node.<id>`, a ToolNode to `tool:<id>`.
  it.each<[string, () => Promise<unknown>, [string, string][]]>([
    [
      "the payment inside a function node",
      () => app("function"),
      [
        ["draft_invoice", "tool:langgraph.node.draft_invoice@0.0.0"],
        ["wire_money", "tool:langgraph.node.wire_money@0.0.0"],
      ],
    ],
    [
      "the payment run by a ToolNode",
      () => app("ToolNode"),
      [
        ["draft_invoice", "tool:langgraph.node.draft_invoice@0.0.0"],
        ["wire_money", "tool:wire_money@0.0.0"],
      ],
    ],
    [
      "the Platform's one-node agent (a fixture)",
      () =>
        Promise.resolve(
          readFixture("langgraph-graph/platform-get_graph-sdk-docstring-example.json"),
        ),
      [["agent", "tool:langgraph.node.agent@0.0.0"]],
    ],
  ])("%s: each step's effect is unknown, so it is blocked", async (_name, doc, steps) => {
    expect(await verdict(await doc())).toEqual({
      allowed: false,
      blocking: [
        // a tool of unknown effect needs a gate, whatever the level says
        ["AGENT_GATE_UNREACHABLE", "PayAgent"],
        ...steps.map(([id, ref]) => ["TOOL_EFFECT_NEEDS_GATE", id, ref, "unknown"]),
      ],
      unresolved: steps.map(([, ref]) => ref),
    });
  });

  it("a function node and a ToolNode doing the same payment get the same verdict", async () => {
    // the same findings on the same steps; only the placeholder refs differ
    const codes = async (payment: "function" | "ToolNode") => {
      const v = await verdict(await app(payment));
      return { allowed: v.allowed, blocking: v.blocking.map((b) => [b[0], b[1]]) };
    };
    expect(await codes("function")).toEqual(await codes("ToolNode"));
  });

  it("behind an approval gate, the same app is allowed (its unknown tools stay warnings)", async () => {
    expect(await verdict(await app("function"), GATED)).toEqual({
      allowed: true,
      blocking: [],
      unresolved: [
        "tool:langgraph.node.draft_invoice@0.0.0",
        "tool:langgraph.node.wire_money@0.0.0",
      ],
    });
  });
});
