/**
 * What the identity facts hold, through a whole evaluation: a Camunda tool's `ref` is its job type
 * as written (any text, `mail@2`, even `tool:pay@1`), so no `ref` literal is refused; a tool's
 * `id` starting with `tool:` (a contract's id copied where the fact's was meant) is refused, since
 * for every tool a workflow can run it never matches, and the odd tool whose `id` could hold one
 * (a ref that cannot be parsed, an element id written `tool:…`) is matched by its `ref`.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { createValidator } from "../../src/validate/index.js";
import { modelerAgent, templatedTask } from "../bpmn/camunda/fixtures.js";
import { edge, llm, tool, workflow } from "../validate/builders.js";

/** A pack of one `tool` rule. */
const pack = (when: string) => ({
  kind: "PolicyPack",
  name: "lit",
  version: "1.0.0",
  rules: [{ id: "r", severity: "error", for: "tool", when }],
});

/** A Camunda agent calling `tool:send` (job type `tool:pay@1`) and `Mail` (job type `mail@2`). */
const CAMUNDA = modelerAgent(
  templatedTask("tool:send", undefined, "tool:pay@1") + templatedTask("Mail", undefined, "mail@2"),
  { gate: true },
);

describe("a Camunda tool's identity facts", () => {
  it.each([
    ['ref = "tool:pay@1"', ['tool "tool:pay@1" breaks policy rule r of lit']],
    ['ref = "mail@2"', ['tool "mail@2" breaks policy rule r of lit']],
    ['id in ["Mail", "other"]', ['tool "mail@2" breaks policy rule r of lit']],
  ])("%s compiles and matches the tool that holds it", async (when, messages) => {
    const decision = await checkProcess(CAMUNDA, { policies: [pack(when)] });
    const found = decision.blocking.filter((d) => d.code === "lit/r");
    expect(found.map((d) => d.message)).toEqual(messages);
  });

  it("refuses an id written as a contract's, with what to write", async () => {
    await expect(checkProcess(CAMUNDA, { policies: [pack('id = "tool:send"')] })).rejects.toThrow(
      `never "tool:send": a tool's id is its ref's id without 'tool:', so this comparison never holds as meant (write "send", or compare 'ref')`,
    );
  });
});

describe("the identity facts of a btv ref that cannot be parsed", () => {
  const written = workflow([llm("a"), tool("t", "tool:x")], [edge("a", "t")]);
  it.each([
    ['ref = "tool:x"', ["/nodes/1/config/usesTool"]],
    ['id = "x"', []],
  ])("%s compiles and matches as the text is written", async (when, paths) => {
    const found = await createValidator({ policies: [pack(when)] }).validate(written);
    expect(found.filter((d) => d.code === "lit/r").map((d) => d.path)).toEqual(paths);
  });
});
