/**
 * Which class paths read as a chat model (an llm node, no effect) without a guess: only a class in
 * a `chat_models` module of LangChain's own packages. Before, any class named `Chat…` or any path
 * with a `chat_models` segment did, so a user's `ChatOpsPayout` runnable that pays out was read as
 * a model call: its effect vanished, and a gate that blocks the same class named `OpsPayout`
 * allowed it.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { importLangGraphGraph } from "../../src/interop/langgraph-graph/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { readFixture } from "./helpers.js";

/** A drawing of one runnable `step` of class path `path`, between `__start__` and `__end__`. */
function drawing(path: readonly string[]): unknown {
  return {
    nodes: [
      { id: "__start__" },
      { id: "step", type: "runnable", data: { id: path, name: "step" } },
      { id: "__end__" },
    ],
    edges: [
      { source: "__start__", target: "step" },
      { source: "step", target: "__end__" },
    ],
  };
}

const LLM = "llm: unspecified";
const FUNCTION = "tool: tool:langgraph.node.step@0.0.0";

/** A class path, and what its node reads as. */
const PATHS: [readonly string[], string][] = [
  // LangChain's own: the serialisation namespace (`lc_id()`), and the module path
  [["langchain", "chat_models", "openai", "ChatOpenAI"], LLM],
  [["langchain", "chat_models", "azure_openai", "AzureChatOpenAI"], LLM],
  [["langchain_openai", "chat_models", "base", "ChatOpenAI"], LLM],
  [["langchain_ollama", "chat_models", "ChatOllama"], LLM],
  [["langchain_community", "chat_models", "tongyi", "ChatTongyi"], LLM],
  // what the export writes for an llm node
  [["langchain_core", "language_models", "chat_models", "BaseChatModel"], LLM],
  // a name is no class path: a user's runnable, in a module of its own, may do anything
  [["__main__", "ChatOpsPayout"], FUNCTION],
  [["payments", "chat_models", "ChatPayout"], FUNCTION],
  [["langgraph", "ChatOpenAI"], FUNCTION],
  [["langchain_openai", "ChatOpenAI"], FUNCTION],
  [["langchain", "chat_models"], FUNCTION],
  [["my_langchain", "chat_models", "ChatX"], FUNCTION],
  [["langchain_core", "language_models", "chat_models", "chat_helper"], FUNCTION],
];

describe("importLangGraphGraph: a chat model is a class path of LangChain's packages", () => {
  it("reads each class path as listed", () => {
    const read = PATHS.map(([path]) => {
      const node = importLangGraphGraph(drawing(path)).workflow.nodes[0];
      const config = node?.config ?? {};
      const what = "usesTool" in config ? config.usesTool : "model" in config ? config.model : "";
      return [path, `${String(node?.type)}: ${String(what)}`];
    });
    expect(read).toEqual(PATHS);
  });

  it("a user's ChatOpsPayout runnable (langgraph 1.2.12) is a function node, declared", () => {
    const doc = readFixture("langgraph-untyped/17_chat_named_runnable.json");
    const { workflow, warnings } = importLangGraphGraph(doc);
    expect(workflow.nodes).toEqual([
      { id: "payout", type: "tool", config: { usesTool: "tool:langgraph.node.payout@0.0.0" } },
    ]);
    expect(warnings.find((w) => w.path === "/nodes/1/type")?.data).toEqual({
      nodeId: "payout",
      assumed: "tool:langgraph.node.payout@0.0.0",
      className: "ChatOpsPayout",
    });
  });

  it("the gate sees its unknown effect, as any function node's", async () => {
    const doc = readFixture("langgraph-untyped/17_chat_named_runnable.json");
    const wf: AgentWorkflow = {
      ...importLangGraphGraph(doc).workflow,
      id: "agnt-pay",
      version: "1.0.0",
    };
    const process = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="https://example.com/t">
  <bpmn:process id="P" isExecutable="true">
    <bpmn:startEvent id="S" />
    <bpmn:serviceTask id="Agent">
      <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-pay@1.0.0" autonomyLevel="1" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:endEvent id="E" />
    <bpmn:sequenceFlow id="F1" sourceRef="S" targetRef="Agent" />
    <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="E" />
  </bpmn:process>
</bpmn:definitions>`;
    const decision = await checkProcess(process, {
      resolveWorkflow: (ref) => (ref === "agnt-pay@1.0.0" ? wf : undefined),
    });
    // before, an llm step: only the level's gate was missing
    expect(decision.blocking.map((d) => [d.code, d.data.nodeId, d.data.effect])).toEqual([
      ["AGENT_GATE_UNREACHABLE", undefined, undefined],
      ["TOOL_EFFECT_NEEDS_GATE", "payout", "unknown"],
    ]);
  });
});
