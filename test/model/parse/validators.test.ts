/**
 * The parsers' checks run Ajv's standalone code, generated ahead of time
 * (src/model/parse/generated/validators.ts). It must be what the script writes from today's
 * schemas, and judge documents exactly as validators Ajv compiles from them at run time.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHECK_DEFINITIONS,
  CHECK_OPTIONS,
  CHECK_SCHEMAS,
} from "../../../src/model/parse/compiled-schemas.js";
import * as generated from "../../../src/model/parse/generated/validators.js";
import { validatorsCode } from "../../../scripts/validators-code.js";

const FILE = new URL("../../../src/model/parse/generated/validators.ts", import.meta.url);

const documents: readonly unknown[] = [
  { kind: "AgentWorkflow" },
  { id: "x", type: "llm", config: { model: "", promptRef: 3 }, extra: true },
  { id: "t", type: "tool", config: { usesTool: "tool:x@1.0.0", timeoutMs: -1 } },
  { id: "d", type: "decision", config: { cases: [], otherwise: { next: "" } } },
  { id: "d", type: "decision", config: { condition: "x", onTrue: { next: "end" } } },
  { id: "𝒳", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } },
  { kind: "ToolContract", id: "tool:x", version: "1", effect: "delete" },
  null,
  [],
  "text",
];

describe("generated validators", () => {
  it("are what `npm run validators` writes from today's schemas", () => {
    expect(readFileSync(FILE, "utf8")).toBe(validatorsCode());
  });

  it("compile each schema once: the checks share the definitions' functions", () => {
    const compiled = [
      ...validatorsCode().matchAll(/sourceURL="https:\/\/agentflow\.dev\/schemas\/([^"]+)"/g),
    ];
    expect(compiled.map((match) => match[1])).toEqual([
      "agent-workflow-shell.schema.json",
      "def-llmConfig",
      "def-multiwayDecision",
      "def-binaryDecision",
      "def-decisionConfig",
      "def-decorators",
      "def-node",
      "agent-workflow-node-llm.schema.json",
      "agent-workflow-node-tool.schema.json",
      "agent-workflow-node-decision.schema.json",
      "tool-contract.schema.json",
    ]);
  });

  it.each(Object.keys(CHECK_SCHEMAS))(
    "%s gives the errors a runtime-compiled one gives",
    (name) => {
      const ajv = new Ajv2020(CHECK_OPTIONS).addSchema([...CHECK_DEFINITIONS]);
      const reference = ajv.compile(CHECK_SCHEMAS[name] ?? false);
      const validate = (generated as unknown as Record<string, typeof reference>)[name];
      if (validate === undefined) throw new Error(`no generated validator ${name}`);
      for (const doc of documents) {
        expect(validate(doc)).toBe(reference(doc));
        expect(validate.errors ?? null).toEqual(reference.errors ?? null);
      }
    },
  );

  it("node_<type> accepts exactly the nodes of that type the full node check accepts", () => {
    // Values near the schema's edges: each config key of every type, right and wrong types.
    const value = fc.oneof(
      fc.constantFrom("", "m", "prm:p@1.0.0", "tool:x@1.0.0", "x > 1", -1, 0, 1.5, 3, true),
      fc.constant(null),
      fc.record({ next: fc.constantFrom("", "a"), maxRetries: fc.constantFrom(-1, 2, "2") }),
      fc.constant([{ condition: "x", next: "a" }]),
      fc.constant([]),
    );
    const keys = fc.constantFrom(
      ...["model", "promptRef", "temperature", "structuredOutput", "usesTool", "timeoutMs"],
      ...["condition", "onTrue", "onFalse", "cases", "otherwise", "conditionLanguage", "other"],
    );
    // A config valid for one type, with up to two keys added or replaced: valid and invalid
    // nodes of every type, a config of one type under another among them.
    const config = fc
      .tuple(
        fc.constantFrom<Record<string, unknown>>(
          { model: "m", promptRef: "prm:p@1.0.0" },
          { usesTool: "tool:x@1.0.0" },
          { condition: "x", onTrue: { next: "a" }, onFalse: { next: "b" } },
          { cases: [{ condition: "x", next: "a" }], otherwise: { next: "b" } },
        ),
        fc.dictionary(keys, value, { maxKeys: 2 }),
      )
      .map(([base, added]) => ({ ...base, ...added }));
    const decorator = fc.constantFrom<Record<string, unknown>>(
      { type: "memory", scope: "short" },
      { type: "planner" },
      { type: "errorBoundary", maxRetries: 1 },
      { type: "errorBoundary", maxRetries: -1 },
      { type: "memory" },
      { type: "x" },
    );
    const node = fc.record(
      {
        id: fc.constantFrom("n", "n", ""),
        type: fc.constantFrom("llm", "tool", "decision"),
        config,
        decorators: fc.array(decorator, { maxLength: 2 }),
      },
      { requiredKeys: ["id", "type", "config"] },
    );
    const checks = generated as unknown as Record<string, (data: unknown) => boolean>;
    let accepted = 0;
    fc.assert(
      fc.property(node, (n) => {
        const typed = checks[`node_${n.type}`];
        if (typed === undefined) throw new Error(`no check node_${n.type}`);
        const valid = typed(n);
        expect(valid).toBe(checks.node?.(n));
        if (valid) accepted++;
      }),
      { numRuns: 2000 },
    );
    // Both answers were compared, not only refusals.
    expect(accepted).toBeGreaterThan(20);
  });
});
