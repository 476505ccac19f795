import { describe, expect, it } from "vitest";
import { getTemplate } from "../../src/model/index.js";
import { explore, sampleFixtures, sampleInput } from "../../src/simulate/index.js";
import { llm, workflow } from "../validate/builders.js";

describe("sampleInput / sampleFixtures", () => {
  it("fills every required input field with a fixed placeholder of its type", () => {
    const wf = {
      ...workflow([llm("a")], []),
      types: { Clause: { title: "text", "risk?": "number" } },
      inputSchema: {
        q: "text",
        n: "number",
        ok: "bool",
        tags: "text[2..5]",
        clause: "Clause",
        "note?": "text",
        ["__proto__"]: "text",
      },
    };
    const input = sampleInput(wf);
    expect(input).toEqual({
      q: "example",
      n: 0,
      ok: false,
      tags: ["example", "example"],
      clause: { title: "example" },
    });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
  });

  it("gives a structured llm an output of the workflow schema, enough for explore to cover every route", () => {
    const wf = getTemplate("research");
    if (wf === undefined) throw new Error("no template");
    const fixtures = sampleFixtures(wf);
    expect(fixtures).toEqual({
      "llm-1": {
        outputs: [{ answer: "example", sources: [], is_complete: false, query: "example" }],
      },
    });
    const report = explore(wf, { input: sampleInput(wf), fixtures });
    expect(report.coverage.map((c) => [c.route, c.status])).toEqual([
      ["onTrue", "taken"],
      ["onFalse", "taken"],
    ]);
  });
});
