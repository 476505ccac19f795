/**
 * The gate verdict on a langgraph-gen spec: each spec node is a function stub the developer fills
 * with any code, so a payment made inside one needs a gate. Read as llm nodes (model steps, no
 * effect), an ungated process promoted an agent whose stubs may wire money.
 */
import { describe, expect, it } from "vitest";
import { importLangGraphGen } from "../../src/interop/langgraph-gen/index.js";
import type { RuleSettings } from "../../src/rules/index.js";
import { readFixture } from "./helpers.js";
import { GATED, payVerdict, UNGATED } from "./pay-verdict.js";

/** `draft_invoice → wire_money`, as a developer writes the spec langgraph-gen turns into stubs. */
const BILLING = {
  name: "Billing",
  entrypoint: "draft_invoice",
  nodes: [{ name: "draft_invoice" }, { name: "wire_money" }],
  edges: [
    { from: "draft_invoice", to: "wire_money" },
    { from: "wire_money", to: "__end__" },
  ],
};

/** The verdict on `xml` (no gate, by default) with the imported spec as `agnt-pay@1.0.0`. */
function verdict(doc: unknown, xml = UNGATED, rules: RuleSettings = {}) {
  return payVerdict(importLangGraphGen(doc).workflow, xml, rules);
}

const ref = (id: string): string => `tool:langgraph.node.${id}@0.0.0`;

describe("the gate verdict on a langgraph-gen spec with no gate after the agent", () => {
  // Before, every spec node was an llm node (no effect): only the level's own gate rule blocked.
  it.each<[string, unknown, string[]]>([
    ["a spec whose second stub wires money", BILLING, ["draft_invoice", "wire_money"]],
    [
      // langgraph-gen's own test spec: a stub, then a router to one of two more
      "langgraph-gen's sample_01 spec (a fixture)",
      readFixture("langgraph-gen/sample_01.yml"),
      ["Node-1", "Node-2", "Node-3"],
    ],
  ])("%s: each stub's effect is unknown, so it is blocked", async (_name, doc, steps) => {
    expect(await verdict(doc)).toEqual({
      allowed: false,
      blocking: [
        // a tool of unknown effect needs a gate, whatever the level says
        ["AGENT_GATE_UNREACHABLE", "PayAgent"],
        ...steps.map((id) => ["TOOL_EFFECT_NEEDS_GATE", id, ref(id), "unknown"]),
      ],
      unresolved: steps.map(ref),
    });
  });

  it("a team that waives the level's gate rule still needs one for the stubs (before: ALLOWED)", async () => {
    // AGENT_GATE_UNREACHABLE off: an ungated level-1 agent is accepted, an unknown effect is not
    expect(await verdict(BILLING, UNGATED, { AGENT_GATE_UNREACHABLE: "off" })).toEqual({
      allowed: false,
      blocking: ["draft_invoice", "wire_money"].map((id) => [
        "TOOL_EFFECT_NEEDS_GATE",
        id,
        ref(id),
        "unknown",
      ]),
      unresolved: [ref("draft_invoice"), ref("wire_money")],
    });
  });

  it("behind an approval gate, the same spec is allowed (its unknown tools stay warnings)", async () => {
    expect(await verdict(BILLING, GATED)).toEqual({
      allowed: true,
      blocking: [],
      unresolved: [ref("draft_invoice"), ref("wire_money")],
    });
  });
});
