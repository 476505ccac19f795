import { describe, expect, it } from "vitest";
import type { ToolContract } from "../../src/model/index.js";
import { validateToolContract } from "../../src/validate/index.js";

const contract = (extra: Partial<ToolContract>): ToolContract => ({
  kind: "ToolContract",
  id: "tool:refund",
  version: "1.0.0",
  name: "Refund",
  inputSchema: { amount: "number" },
  outputSchema: { refundId: "text" },
  effect: "write-irreversible",
  authorization: "gate",
  ...extra,
});

describe("validateToolContract", () => {
  it("accepts a gated irreversible tool and a tool with no input", () => {
    expect(validateToolContract(contract({}))).toEqual([]);
    expect(
      validateToolContract(
        contract({ inputSchema: {}, effect: "read", authorization: "automatic" }),
      ),
    ).toEqual([]);
  });

  it.each([
    ["write-irreversible", "automatic"],
    ["external-commitment", "forbidden"],
  ] as const)("effect %s with authorization %s needs a gate", (effect, authorization) => {
    expect(validateToolContract(contract({ effect, authorization }))).toMatchObject([
      {
        code: "TOOL_EFFECT_UNGATED",
        severity: "error",
        path: "/authorization",
        data: { tool: "tool:refund", effect, authorization },
      },
    ]);
  });

  it("reports unusable field types with their pointer", () => {
    const found = validateToolContract(
      contract({ inputSchema: { amount: "numbr", "ids?": "text[" } }),
    );
    expect(found.map((d) => [d.code, d.path, d.data.reason])).toEqual([
      ["SCHEMA_TYPE_INVALID", "/inputSchema/amount", "unknown-type"],
      ["SCHEMA_TYPE_INVALID", "/inputSchema/ids?", "syntax"],
    ]);
  });
});
