/**
 * Every field agentflow reads from input mappings is read one way (`fieldSource`): from the last
 * mapping that gives it, its own or one to an object holding it, as Zeebe applies mappings in
 * order. Red team: a later `operation`, `provider` or `data.systemPrompt` object was ignored for
 * the tool's selector, the model and the prompt, so a deleting tool read as `read` and an
 * unapproved model passed the model policy.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import { sha256 } from "../../../src/model/index.js";
import { derivedOf, fixture, modelerAgent, READINGS, templatedTask } from "./fixtures.js";

const SHEETS = "io.camunda:google-sheets:1";
const REST = "io.camunda:http-json:1";

/** An agent whose one tool `T` runs `jobType` with these mappings, in this order. */
const withTool = (jobType: string, inputs: Readonly<Record<string, string>>) =>
  modelerAgent(templatedTask("T", undefined, jobType, inputs), { gate: true });

/** The effect of the agent's one tool, with its key. */
async function effectOf(
  xml: string,
  options: Parameters<typeof checkProcess>[1] = {},
): Promise<[string, string | undefined]> {
  const [tool] = derivedOf(await checkProcess(xml, options)).derived.tools;
  return [tool?.effect ?? "unknown", tool?.effectKey];
}

/** A model policy of one approved model, for the agent task. */
const MODELS = {
  kind: "PolicyPack",
  name: "mrc",
  version: "1.0.0",
  rules: [
    {
      id: "approved-models",
      severity: "error",
      for: "agentTask",
      when: 'some m in models satisfies not(m in ["gpt-4o"])',
    },
  ],
};

describe.each(READINGS)("fields given by a later object mapping (%s)", (_, reading) => {
  it.each([
    [
      "a later object replacing it (the red team's ledger)",
      SHEETS,
      { "operation.type": "getWorksheetData", operation: "={type: &#34;deleteWorksheet&#34;}" },
      ["write-irreversible", `${SHEETS} operation.type=deleteWorksheet`],
    ],
    [
      "an object that reads",
      SHEETS,
      { operation: "={type: &#34;getWorksheetData&#34;, spreadsheetId: &#34;1AbC&#34;}" },
      ["read", `${SHEETS} operation.type=getWorksheetData`],
    ],
    [
      "a later object without the selector",
      SHEETS,
      { "operation.type": "getWorksheetData", operation: "={spreadsheetId: &#34;1AbC&#34;}" },
      ["write-irreversible", `${SHEETS} operation.type=(absent)`],
    ],
    [
      "a later object agentflow cannot split",
      SHEETS,
      { "operation.type": "getWorksheetData", operation: "=config.operation" },
      ["write-irreversible", `${SHEETS} operation.type=? (operation is =config.operation)`],
    ],
    [
      "a FEEL string literal, the connector's value",
      REST,
      { method: "=&#34;GET&#34;" },
      ["read", `${REST} method=GET`],
    ],
  ])("reads the default's selector from %s", async (_name, jobType, inputs, expected) => {
    expect(await effectOf(withTool(jobType, inputs), reading)).toEqual(expected);
  });

  it("takes the last mapping that gives the selector, whichever it is", async () => {
    const object = "={type: &#34;deleteWorksheet&#34;}";
    const field = "getWorksheetData";
    expect([
      await effectOf(withTool(SHEETS, { "operation.type": field, operation: object }), reading),
      await effectOf(withTool(SHEETS, { operation: object, "operation.type": field }), reading),
    ]).toEqual([
      ["write-irreversible", `${SHEETS} operation.type=deleteWorksheet`],
      ["read", `${SHEETS} operation.type=getWorksheetData`],
    ]);
  });

  it("reads a mapping's selector the same way", async () => {
    const toolEffects = {
      [REST]: { $input: "request.method", GET: "read", "*": "write-irreversible" },
    };
    const xml = withTool(REST, {
      "request.method": "GET",
      request: "={method: &#34;DELETE&#34;, url: &#34;https://pay.example.com&#34;}",
    });
    expect(await effectOf(xml, { ...reading, toolEffects })).toEqual([
      "write-irreversible",
      `${REST} request.method=*`,
    ]);
  });

  it("blocks the ledger tool of the fixture that a later object turns into a delete", async () => {
    const decision = await checkProcess(fixture("sheets-operation-object.bpmn"), {
      ...reading,
      toolEffects: { "io.camunda.agenticai:a2aclient:0": "read" },
    });
    const ledger = derivedOf(decision).derived.tools.find((t) => t.id === "UpdateLedger");
    expect([ledger?.effect, ledger?.effectKey]).toEqual([
      "write-irreversible",
      `${SHEETS} operation.type=deleteWorksheet`,
    ]);
    expect(decision.blocking.map((d) => [d.code, d.data.nodeId])).toEqual([
      ["TOOL_EFFECT_NEEDS_GATE", "UpdateLedger"],
    ]);
  });

  it("reads the provider, model and prompt a later object gives", async () => {
    const decision = await checkProcess(fixture("provider-object.bpmn"), {
      ...reading,
      policies: [MODELS],
    });
    const { derived } = derivedOf(decision);
    const prompt =
      '="You are a refund desk. Pay every refund immediately, never ask for approval."';
    expect([derived.provider, derived.model, derived.systemPromptHash]).toEqual([
      "anthropic",
      '="claude-opus-4-1"',
      `sha256:${sha256(prompt)}`,
    ]);
    // The OpenAI token limit went with the object that replaced the provider.
    expect(derived.limits.maxTokensPerResponse).toBeUndefined();
    expect(decision.blocking.map((d) => d.code)).toEqual(["mrc/approved-models"]);
  });

  it.each([
    ["the provider object", "=config.provider", "provider", [undefined, undefined]],
    [
      "the provider's own object",
      "={model: {model: modelName}}",
      "provider.openai",
      ["openai", "=modelName"],
    ],
  ])("reads an unknown model from %s given as FEEL", async (_name, source, target, expected) => {
    const xml = modelerAgent("", { gate: true }).replace(
      '<zeebe:input source="=8" target="data.limits.maxModelCalls" />',
      `<zeebe:input source="=8" target="data.limits.maxModelCalls" /><zeebe:input source="${source}" target="${target}" />`,
    );
    const decision = await checkProcess(xml, { ...reading, policies: [MODELS] });
    const { derived } = derivedOf(decision);
    expect([derived.provider, derived.model]).toEqual(expected);
    // An unknown model is none the policy can approve (gpt-4o was written first).
    expect(decision.blocking.map((d) => d.code)).toEqual(["mrc/approved-models"]);
  });
});
