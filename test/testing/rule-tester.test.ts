/**
 * The shipped RuleTester on a custom workflow rule: a table that holds passes, one `it` per case
 * inside one `describe`; each way a table can be wrong fails its case, with a message that says
 * what is wrong.
 */
import { describe, expect, it } from "vitest";
import { defineRule } from "../../src/rules/index.js";
import type { RuleTests, WorkflowInvalidCase } from "../../src/testing/index.js";
import { RuleTester } from "../../src/testing/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { llm, workflow } from "../validate/builders.js";
import { failedCases, failureOf, modelRule, registered } from "./rules.js";

const options = { models: ["gpt-4o"] };
const using = (...models: string[]) =>
  workflow(
    models.map((m, i) => llm(`n${String(i)}`, { model: m })),
    [],
  );
const at = (i: number) =>
  ({
    code: "MODEL_ALLOWED",
    target: { kind: "node", nodeId: `n${String(i)}` },
    path: `/nodes/${String(i)}/config/model`,
  }) as const;

/** YAML with the model on line 10, column 22. */
const yaml = (model: string) => `kind: AgentWorkflow
id: agnt-summary
version: 1.0.0
name: Summary
autonomyLevel: 1
inputSchema: { text: text }
outputSchema: { summary: text }
nodes:
  - id: write
    config: { model: ${model}, promptRef: prm:summary@1.0.0, structuredOutput: true }
    type: llm
edges: []
`;

const holds: RuleTests = {
  valid: [
    { name: "an allowed model", workflow: using("gpt-4o"), options },
    { name: "switched off", workflow: using("o1"), options, severity: "off" },
  ],
  invalid: [
    {
      name: "two models outside the list, in node order",
      workflow: using("o1", "gpt-4o", "o3-preview"),
      options,
      errors: [
        { ...at(0), messageId: "default", data: { model: "o1" } },
        {
          ...at(2),
          messageId: "preview",
          message: 'node "n2" uses the preview model o3-preview',
          data: { nodeId: "n2", allowed: ["gpt-4o"] },
        },
      ],
    },
    {
      name: "at the configured severity",
      workflow: using("o1"),
      options,
      severity: "warning",
      errors: [{ ...at(0), severity: "warning", message: /which is not allowed$/ }],
    },
    {
      name: "text: findings carry line and column",
      workflow: yaml("o1"),
      options,
      errors: [{ path: "/nodes/0/config/model", location: { line: 10, column: 22 } }],
    },
  ],
};

describe("RuleTester, workflow rule", () => {
  it("registers one describe named for the table and one it per case", () => {
    const tests = registered(modelRule, holds);
    expect(tests.map((t) => `${t.group} > ${t.name}`)).toEqual([
      "MODEL_ALLOWED > valid: an allowed model",
      "MODEL_ALLOWED > valid: switched off",
      "MODEL_ALLOWED > invalid: two models outside the list, in node order",
      "MODEL_ALLOWED > invalid: at the configured severity",
      "MODEL_ALLOWED > invalid: text: findings carry line and column",
    ]);
  });

  it("passes a table that holds, with a framework and without one", async () => {
    for (const test of registered(modelRule, holds)) await test.body();
    expect(await failureOf(modelRule, holds)).toBeUndefined();
  });

  it("merges the tester's resolvers under each case's", async () => {
    const prompt = (ref: string) => (ref === "prm:p@1.0.0" ? true : undefined);
    const seen: string[] = [];
    const tester = new RuleTester({
      resolvers: { resolvePrompt: (ref) => (seen.push(ref), prompt(ref)) },
    });
    const table: RuleTests = {
      valid: [{ name: "ok", workflow: using("gpt-4o"), options }],
      invalid: [],
    };
    expect(await failureOf(modelRule, table, tester)).toBeUndefined();
    expect(seen).toEqual(["prm:p@1.0.0"]);
  });

  it("names each failed case, and how many failed, in the AggregateError", async () => {
    const failure = await failureOf(modelRule, {
      valid: [
        { name: "fine", workflow: using("gpt-4o"), options },
        { name: "not fine", workflow: using("o1"), options },
      ],
      invalid: [
        { name: "expects nothing found", workflow: using("gpt-4o"), options, errors: [at(0)] },
      ],
    });
    expect(failure?.message.split("\n")[0]).toBe("MODEL_ALLOWED: 2 of 3 cases failed");
    expect(failure?.message).toContain(
      "  - valid: not fine: Should have no errors of MODEL_ALLOWED but had 1:",
    );
    expect(failure?.message).toContain(
      "  - invalid: expects nothing found: Should have 1 error of MODEL_ALLOWED but had none",
    );
  });
});

/** The one failure message of a table with one invalid case. */
async function failing(c: WorkflowInvalidCase, rule = modelRule): Promise<string> {
  const messages = await failedCases(rule, { valid: [], invalid: [c] });
  expect(messages).toHaveLength(1);
  return messages[0] ?? "";
}

describe("RuleTester, tables that must fail", () => {
  const base = { name: "c", workflow: using("o1"), options };

  it("a finding in a valid case, listed with its messageId and path", async () => {
    const [message] = await failedCases(modelRule, { valid: [base], invalid: [] });
    expect(message).toBe(
      "valid: c: Should have no errors of MODEL_ALLOWED but had 1:\n  1. error MODEL_ALLOWED (messageId 'default') at /nodes/0/config/model: node \"n0\" uses o1, which is not allowed",
    );
  });

  it("the wrong count", async () => {
    const message = await failing({ ...base, workflow: using("o1", "o2"), errors: [at(0)] });
    expect(message).toMatch(
      /^invalid: c: Should have 1 error of MODEL_ALLOWED but had 2:\n {2}1\. .*\n {2}2\. error MODEL_ALLOWED .* at \/nodes\/1\/config\/model/,
    );
  });

  it("the wrong messageId", async () => {
    const message = await failing({ ...base, errors: [{ ...at(0), messageId: "preview" }] });
    expect(message).toBe(
      `invalid: c: error 1: expected messageId 'preview' but the finding's is 'default' ("node "n0" uses o1, which is not allowed")`,
    );
  });

  it("an expected messageId the rule does not define", async () => {
    const message = await failing({ ...base, errors: [{ ...at(0), messageId: "forbidden" }] });
    expect(message).toBe(
      'invalid: c: invalid invalid case: errors[0] expects messageId "forbidden", which MODEL_ALLOWED\'s meta.messages does not define (defined: default, preview)',
    );
  });

  it("a rule that reports a messageId it does not define: RULE_CRASHED", async () => {
    const ghost = defineRule<RuleContext>({
      meta: { ...modelRule.meta, code: "GHOST" },
      check: ({ report }) => {
        report({ target: { kind: "workflow" }, path: "", messageId: "ghost", data: {} });
      },
    });
    const message = await failing({ ...base, errors: [{ path: "" }] }, ghost);
    expect(message).toBe(
      "invalid: c: RULE_CRASHED: rule GHOST failed on this workflow (it reported messageId 'ghost', which its meta.messages does not define (defined: default, preview)); its check did not run",
    );
  });

  it("an invalid case that expects no error", async () => {
    expect(await failing({ ...base, errors: [] })).toBe(
      "invalid: c: invalid invalid case: an invalid case must expect at least one error",
    );
  });

  it("a path, a severity or a data value that differs, with the difference", async () => {
    const path = await failing({ ...base, errors: [{ ...at(0), path: "/nodes/0" }] });
    expect(path).toMatch(/^invalid: c: error 1: Expected values to be strictly deep-equal:/);
    expect(path).toContain("/nodes/0/config/model");
    const severity = await failing({ ...base, errors: [{ ...at(0), severity: "warning" }] });
    expect(severity).toMatch(/severity: 'error'/);
    const data = await failing({ ...base, errors: [{ ...at(0), data: { model: "o2" } }] });
    expect(data).toMatch(/model: 'o1'/);
    const nested = await failing({ ...base, errors: [{ ...at(0), data: { allowed: [] } }] });
    expect(nested).toMatch(/strictly deep-equal/);
    const pattern = await failing({ ...base, errors: [{ ...at(0), data: { model: /^gpt/ } }] });
    expect(pattern).toMatch(/strictly deep-equal/);
  });

  it("options the rule's schema refuses", async () => {
    expect(await failing({ ...base, options: { models: "gpt-4o" }, errors: [at(0)] })).toBe(
      "invalid: c: invalid invalid case: the case's options do not fit MODEL_ALLOWED's schema: options/models must be array",
    );
  });

  it("a misspelt key, in a case or in an expected error", async () => {
    const typo = { ...base, erros: [at(0)] } as unknown as WorkflowInvalidCase;
    expect(await failing(typo)).toMatch(/^invalid: c: invalid invalid case: unknown keys 'erros'/);
    const inError = { ...base, errors: [{ ...at(0), elementId: "n0" }] };
    expect(await failing(inError)).toMatch(/errors\[0\] has unknown keys 'elementId'/);
  });

  it("a message whose placeholder has no data", async () => {
    const loose = defineRule<RuleContext>({
      meta: { ...modelRule.meta, code: "LOOSE" },
      check: ({ report }) => {
        report({ target: { kind: "workflow" }, path: "", data: { nodeId: "n0" } });
      },
    });
    expect(await failing({ ...base, errors: [{ path: "" }] }, loose)).toBe(
      'invalid: c: error 1: "node "n0" uses {{model}}, which is not allowed": its data has no value for {{model}}, {{allowed}} (remediation)',
    );
  });

  it("workflow text that does not parse", async () => {
    expect(
      await failing({ ...base, workflow: "kind: AgentWorkflow\nid: [", errors: [at(0)] }),
    ).toMatch(/^invalid: c: the workflow text does not parse: /);
  });
});
