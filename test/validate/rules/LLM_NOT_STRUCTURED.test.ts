import type { LlmNode } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/LLM_NOT_STRUCTURED.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

/** An llm that answers in free text, `structuredOutput` written as false. */
const prose = (id: string): LlmNode => llm(id, { structuredOutput: false });
/** An llm whose config does not mention structuredOutput at all. */
const bare = (id: string): LlmNode => ({
  id,
  type: "llm",
  config: { model: "gpt-4o", promptRef: "prm:p@1.0.0" },
});
const text = { conditionLanguage: "text" } as const;

const at = (nodeId: string, path: string) => ({
  code: "LLM_NOT_STRUCTURED",
  target: { kind: "node", nodeId } as const,
  path,
});

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "a structured llm", workflow: minimal() },
    { name: "no nodes", workflow: workflow([], []) },
    {
      name: "the decision judges text",
      workflow: workflow(
        [prose("a"), decision("d", "is it done?", "end", "end", text)],
        [edge("a", "d")],
      ),
    },
    {
      name: "the decision reads no field",
      workflow: workflow([prose("a"), decision("d", "1 < 2", "end", "end")], [edge("a", "d")]),
    },
    {
      name: "the decision's condition does not parse",
      workflow: workflow(
        [prose("a"), decision("d", "output.done =", "end", "end")],
        [edge("a", "d")],
      ),
    },
    {
      name: "a free-text llm after the decision",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "b", "end"), prose("b")],
        [edge("a", "d")],
      ),
    },
    {
      name: "a free-text llm looping on itself, reaching no decision",
      workflow: workflow([prose("a")], [edge("a", "a")]),
    },
    {
      name: "a free-text llm on a branch that never meets the decision",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", "end"), prose("b")],
        [edge("a", "d"), edge("d", "b")],
      ),
    },
  ],
  invalid: [
    {
      name: "structuredOutput: false feeding the decision",
      workflow: workflow(
        [prose("a"), decision("d", "output.done = true", "end", "end")],
        [edge("a", "d")],
      ),
      errors: [
        { ...at("a", "/nodes/0/config/structuredOutput"), data: { nodeId: "a", decisionId: "d" } },
      ],
    },
    {
      name: "structuredOutput absent: reported on the config",
      workflow: workflow(
        [bare("a"), decision("d", "output.done = true", "end", "end")],
        [edge("a", "d")],
      ),
      errors: [{ ...at("a", "/nodes/0/config"), data: { decisionId: "d" } }],
    },
    {
      name: "through a tool",
      workflow: workflow(
        [prose("a"), tool("t"), decision("d", "output.done = true", "end", "end")],
        [edge("a", "t"), edge("t", "d")],
      ),
      errors: [at("a", "/nodes/0/config/structuredOutput")],
    },
    {
      name: "inside a loop, after the decision: its route back counts",
      workflow: workflow(
        [
          llm("a"),
          decision("d", "output.done = true", "end", { next: "b", maxRetries: 2 }),
          prose("b"),
        ],
        [edge("a", "d"), edge("b", "d")],
      ),
      errors: [{ ...at("b", "/nodes/2/config/structuredOutput"), data: { decisionId: "d" } }],
    },
    {
      name: "a multi-way decision with one structured case among unstructured ones",
      workflow: workflow(
        [
          prose("a"),
          {
            id: "d",
            type: "decision",
            config: {
              cases: [
                { condition: "1 < 2", next: "end" },
                { condition: 'output.kind = "x"', next: "end" },
              ],
              otherwise: { next: "end" },
            },
          },
        ],
        [edge("a", "d")],
      ),
      errors: [at("a", "/nodes/0/config/structuredOutput")],
    },
    {
      name: "several llm nodes, in document order, each naming a decision it reaches",
      workflow: workflow(
        [
          prose("a"),
          decision("d1", "output.x = 1", "b", "end"),
          bare("b"),
          decision("d2", "output.y = 1", "end", "end"),
          prose("c"),
        ],
        [edge("a", "d1"), edge("b", "d2"), edge("c", "d2")],
      ),
      errors: [
        { ...at("a", "/nodes/0/config/structuredOutput"), data: { decisionId: "d1" } },
        { ...at("b", "/nodes/2/config"), data: { decisionId: "d2" } },
        { ...at("c", "/nodes/4/config/structuredOutput"), data: { decisionId: "d2" } },
      ],
    },
  ],
});
