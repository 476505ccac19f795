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

/** plan → search → inner, which retries search or goes on to summarize → outer → plan or end. */
const nested = (inner: AgentNode, outer: AgentNode) =>
  workflow(
    [llm("plan"), tool("search"), inner, llm("summarize"), outer],
    [edge("plan", "search"), edge("search", "inner"), edge("summarize", "outer")],
  );

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
      name: "the stop is the second decision; the prose one before it can only go on to it",
      workflow: workflow(
        [
          llm("plan"),
          decision("vibe", "the plan looks fine", "check", "check", text),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "vibe")],
      ),
    },
    {
      name: "nested loops, each through a structured decision that leaves it",
      workflow: nested(
        decision("inner", "output.found = true", "summarize", retry("search")),
        decision("outer", "output.done = true", "end", retry("plan")),
      ),
    },
    {
      name: "an inner loop left through a decision that goes straight to the outer stop",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("inner", "output.found = true", "outer", retry("search")),
          decision("outer", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "search"), edge("search", "inner")],
      ),
    },
    {
      name: "an llm with two edges, both on to the stop's loop",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          tool("fetch"),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [
          edge("plan", "search"),
          edge("plan", "fetch"),
          edge("search", "check"),
          edge("fetch", "check"),
        ],
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
      name: "an llm and a tool calling each other beside the stop: that cycle never passes it",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("check", "output.is_complete = true", "end", retry("plan")),
        ],
        [edge("plan", "search"), edge("search", "plan"), edge("search", "check")],
      ),
      errors: [
        { ...at("plan", 0), data: { nodeId: "plan", members: ["plan", "search"], size: 2 } },
      ],
    },
    {
      name: "a loop through two decisions where only the second is a stop; the first judges prose",
      workflow: workflow(
        [
          llm("plan"),
          decision("vibe", "the plan looks fine", "check", retry("plan"), text),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "vibe")],
      ),
      errors: [{ ...at("vibe", 1), data: { nodeId: "vibe", members: ["plan", "vibe"], size: 2 } }],
    },
    {
      name: "two structured decisions; the first routes only within its own cycle",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("retry", "output.ok = true", retry("search"), retry("plan")),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "search"), edge("search", "retry"), edge("search", "check")],
      ),
      errors: [
        {
          ...at("retry", 2),
          data: { nodeId: "retry", members: ["plan", "search", "retry"], size: 3 },
        },
      ],
    },
    {
      name: "a tool looping on itself inside a loop that has a stop",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [edge("plan", "search"), edge("search", "search"), edge("search", "check")],
      ),
      errors: [{ ...at("search", 1), data: { nodeId: "search", members: ["search"], size: 1 } }],
    },
    {
      name: "nested loops whose inner decision judges prose: the inner cycle is reported alone",
      workflow: nested(
        decision("inner", "the results look enough", "summarize", retry("search"), text),
        decision("outer", "output.done = true", "end", retry("plan")),
      ),
      errors: [{ ...at("inner", 2), data: { members: ["search", "inner"], size: 2 } }],
    },
    {
      name: "two unbounded cycles beside one stop are reported apart, in document order",
      workflow: workflow(
        [
          llm("plan"),
          tool("search"),
          llm("draft"),
          tool("lint"),
          decision("check", "output.done = true", "end", retry("plan")),
        ],
        [
          edge("plan", "search"),
          edge("search", "plan"),
          edge("search", "draft"),
          edge("draft", "lint"),
          edge("lint", "draft"),
          edge("lint", "check"),
        ],
      ),
      errors: [
        { ...at("plan", 0), data: { members: ["plan", "search"] } },
        { ...at("draft", 2), data: { members: ["draft", "lint"] } },
      ],
    },
    {
      name: "a stop that leaves into an endless loop: that loop is reported, not the one left",
      workflow: workflow(
        [llm("plan"), decision("check", "output.done = true", "wait", retry("plan")), tool("wait")],
        [edge("plan", "check"), edge("wait", "wait")],
      ),
      errors: [{ ...at("wait", 2), data: { members: ["wait"], size: 1 } }],
    },
    {
      // check's way out leads into wait's endless loop; plan ↔ fetch never passes check at all.
      name: "a cycle that passes no stop, beside a stop that leaves into an endless loop: both",
      workflow: workflow(
        [
          llm("plan"),
          tool("fetch"),
          decision("check", "output.done = true", "wait", retry("plan")),
          tool("wait"),
        ],
        [
          edge("plan", "fetch"),
          edge("fetch", "plan"),
          edge("fetch", "check"),
          edge("wait", "wait"),
        ],
      ),
      errors: [
        { ...at("plan", 0), data: { members: ["plan", "fetch"], size: 2 } },
        { ...at("wait", 3), data: { members: ["wait"], size: 1 } },
      ],
    },
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
