/**
 * The tool of unknown identity (`UNKNOWN_TOOL`): what an agent task may call besides its known
 * tools when they could not all be read. A `tool` rule never passes it: a `when` that reads its
 * ref or id is undecided, one that reads its effect is tried at every value, one without `when`
 * finds it; its findings name it in words, never as a ref.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_TOOL } from "../../src/policy/index.js";
import { agentTask, onePack, processView, runProcess } from "./helpers.js";

const REF_REASON =
  "which is unknown: this stands for a tool the agent task may call that could not be read (its workflow, a delegate or its Camunda tool container)";

describe("a tool rule on the tool of unknown identity", () => {
  const view = processView([agentTask("Offer", { tools: null })]);
  const place = { elementId: "Offer", path: "/rootElements/0/flowElements/Offer" };
  const withTool = { ...view, tools: [{ ...UNKNOWN_TOOL, place: place }] };
  it.each([
    {
      when: 'ref = "tool:pay@1.0.0"',
      messageId: "undecided",
      message: `a tool of unknown identity: policy rule r of t cannot be decided (it reads 'ref', ${REF_REASON}), so it counts as broken`,
    },
    {
      when: 'not(id in ["lookup"])',
      messageId: "undecided",
      message: `a tool of unknown identity: policy rule r of t cannot be decided (it reads 'id', ${REF_REASON}), so it counts as broken`,
    },
    {
      when: 'effect = "write-irreversible"',
      messageId: "assumed",
      message:
        'a tool of unknown identity breaks policy rule r of t (assuming effect = "write-irreversible", since the facts are unknown)',
    },
    {
      when: undefined,
      messageId: "default",
      message: "a tool of unknown identity breaks policy rule r of t",
    },
  ])("when $when: $messageId", ({ when, messageId, message }) => {
    const rule = { for: "tool", ...(when === undefined ? {} : { when }) };
    const found = runProcess(onePack(rule), withTool);
    expect(found.map((f) => [f.messageId, f.message, f.data.tool])).toEqual([
      [messageId, message, "a tool of unknown identity"],
    ]);
  });

  it("names a known tool by its ref, as before", () => {
    const known = {
      ref: "tool:pay@1.0.0",
      id: "pay",
      version: "1.0.0",
      effect: null,
      authorization: null,
    };
    const found = runProcess(onePack({ for: "tool" }), {
      ...view,
      tools: [{ ...known, place: place }],
    });
    expect(found.map((f) => f.message)).toEqual([
      'tool "tool:pay@1.0.0" breaks policy rule r of t',
    ]);
  });
});
