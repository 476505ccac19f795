import type { AgentNode } from "../../../src/model/index.js";
import { rule } from "../../../src/validate/rules/CYCLE_WITHOUT_STOP.js";
import { decision, edge, llm, minimal, tool, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const retry = (next: string) => ({ next, maxRetries: 3 });
const text = { conditionLanguage: "text" } as const;

/** plan → search → check, check loops back to plan. */
const loop = (check: AgentNode) =>
  workflow([llm("plan"), tool("search"), check], [edge("plan", "search"), edge("search", "check")]);

const multi = (id: string, cases: { condition: string; next: string }[], otherwise: string) => ({
  id,
  type: "decision" as const,
  config: { cases, otherwise: retry(otherwise) },
});

const at = (nodeId: string, index: number) => ({
  code: "CYCLE_WITHOUT_STOP",
  target: { kind: "node", nodeId } as const,
  path: `/nodes/${index}`,
});

/** A ring of `size` llm nodes n0 → n1 → … → n0. */
const ring = (size: number) => {
  const ids = Array.from({ length: size }, (_, k) => `n${k}`);
  return workflow(
    ids.map((id) => llm(id)),
    ids.map((id, k) => edge(id, ids[(k + 1) % size] ?? "n0")),
  );
};

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    {
      name: "a structured stop whose way out names an unknown id is DECISION_ROUTE_MISSING's alone",
      workflow: loop(decision("check", "output.done = true", "ghost", retry("plan"))),
    },
    { name: "no loop", workflow: minimal() },
    { name: "no nodes at all", workflow: workflow([], []) },
    {
      name: "a structured decision with a route to end",
      workflow: loop(decision("check", "output.done = true", "end", retry("plan"))),
    },
    {
      name: "a structured decision with a route to a node outside the loop",
      workflow: workflow(
        [
          llm("plan"),
          decision("check", "output.done = true", "report", retry("plan")),
          llm("report"),
        ],
        [edge("plan", "check")],
      ),
    },
    {
      name: "a multi-way decision whose first case leaves",
      workflow: loop(multi("check", [{ condition: 'output.state = "done"', next: "end" }], "plan")),
    },
    {
      name: "the stop is the second decision of the loop; the first judges text",
      workflow: workflow(
        [
          llm("plan"),
          decision("vibe", "the plan looks fine", "check", retry("plan"), text),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "vibe")],
      ),
    },
    {
      name: "a decision retrying itself with a structured exit",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", "end", retry("d"))],
        [edge("a", "d")],
      ),
    },
    {
      name: "a structured exit read through a JS operator still counts",
      workflow: loop(decision("check", "output.done === true", "end", retry("plan"))),
    },
  ],
  invalid: [
    {
      name: "the decision judges in natural language",
      workflow: loop(decision("check", "the answer is complete", "end", retry("plan"), text)),
      errors: [
        {
          ...at("check", 2),
          data: { nodeId: "check", members: ["plan", "search", "check"], size: 3 },
        },
      ],
    },
    {
      name: "a loop of llm and tool nodes only: reported on its first member",
      workflow: workflow(
        [llm("entry"), llm("a"), tool("b")],
        [edge("entry", "a"), edge("a", "b"), edge("b", "a")],
      ),
      errors: [{ ...at("a", 1), data: { nodeId: "a", members: ["a", "b"], size: 2 } }],
    },
    {
      name: "an llm looping on itself",
      workflow: workflow([llm("a"), llm("b")], [edge("a", "b"), edge("b", "b")]),
      errors: [{ ...at("b", 1), data: { members: ["b"], size: 1 } }],
    },
    {
      name: "a structured decision whose routes all stay in the loop",
      workflow: loop(decision("check", "output.done = true", retry("plan"), retry("search"))),
      errors: [at("check", 2)],
    },
    {
      name: "with reportCascades, a route to an unknown id is not a way out",
      severity: "error",
      options: { reportCascades: true },
      workflow: loop(decision("check", "output.done = true", "ghost", retry("plan"))),
      errors: [at("check", 2)],
    },
    {
      name: "a broken route of an unstructured decision: the loop has no stop whatever it meant",
      workflow: loop(decision("check", "1 < 2", "ghost", retry("plan"))),
      errors: [at("check", 2)],
    },
    {
      name: "a condition that does not parse is not a stop",
      workflow: loop(decision("check", "output.done =", "end", retry("plan"))),
      errors: [at("check", 2)],
    },
    {
      name: "a condition that reads no field is not a stop",
      workflow: loop(decision("check", "1 < 2", "end", retry("plan"))),
      errors: [at("check", 2)],
    },
    {
      name: "a decision looping on itself with no exit",
      workflow: workflow(
        [llm("a"), decision("d", "output.done = true", retry("d"), retry("d"))],
        [edge("a", "d")],
      ),
      errors: [{ ...at("d", 1), data: { members: ["d"], size: 1 } }],
    },
    {
      name: "a duplicated id: edges reach the first node, the later structured one is outside",
      workflow: workflow(
        [
          llm("plan"),
          decision("check", "is it done?", "end", retry("plan"), text),
          decision("check", "output.done = true", "end", "end"),
        ],
        [edge("plan", "check")],
      ),
      errors: [{ ...at("check", 1), data: { members: ["plan", "check"], size: 2 } }],
    },
    {
      name: "two loops, reported in document order",
      workflow: workflow(
        [llm("a"), llm("b"), llm("c"), llm("d")],
        [edge("a", "c"), edge("c", "a"), edge("a", "b"), edge("b", "d"), edge("d", "b")],
      ),
      errors: [
        { ...at("a", 0), data: { members: ["a", "c"] } },
        { ...at("b", 1), data: { members: ["b", "d"] } },
      ],
    },
    {
      name: "a long loop lists 20 members and gives the exact size",
      workflow: ring(25),
      errors: [
        {
          ...at("n0", 0),
          data: { members: Array.from({ length: 20 }, (_, k) => `n${k}`), size: 25 },
        },
      ],
    },
  ],
});
