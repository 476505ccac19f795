import { describe, expect, it } from "vitest";
import { exportMermaid } from "../../src/interop/index.js";
import { getTemplate } from "../../src/model/index.js";
import { decision, edge, llm, tool, workflow } from "../validate/builders.js";

describe("exportMermaid", () => {
  it("draws the Research template: a tool shape, a diamond, the bounded loop back and the end", () => {
    const wf = getTemplate("research");
    expect(wf === undefined ? "" : exportMermaid(wf)).toBe(
      [
        "flowchart TD",
        '  n0["llm-1<br/>llm · gpt-4o"]',
        '  n1[/"tool-2<br/>tool:browser-search@1.2.0"/]',
        '  n2{"dec-3<br/>output.is_complete = true"}',
        '  n0 -->|"toolCall"| n1',
        '  n1 -->|"data"| n2',
        '  n2 -->|"onTrue"| endNode',
        '  n2 -->|"onFalse · max 3"| n0',
        "  endNode((end))",
        "",
      ].join("\n"),
    );
  });

  it("escapes labels, draws delegates dashed, and marks missing nodes", () => {
    const wf = workflow(
      [
        llm('say "hi" | <b>'),
        tool("t"),
        decision("d", 'output.kind = "a|b"', "ghost", "end", { conditionLanguage: "text" }),
      ],
      [edge('say "hi" | <b>', "t"), edge("t", "nowhere"), edge("t", "agnt-v@1.0.0", "delegate")],
    );
    expect(exportMermaid(wf).split("\n")).toEqual([
      "flowchart TD",
      '  n0["say #quot;hi#quot; | #lt;b#gt;<br/>llm · gpt-4o"]',
      '  n1[/"t<br/>tool:search@1.0.0"/]',
      '  n2{"d<br/>(natural language)"}',
      '  n0 -->|"data"| n1',
      '  n1 -->|"data"| missing',
      '  d2[["agnt-v@1.0.0"]]',
      '  n1 -.->|"delegate"| d2',
      '  n2 -->|"onTrue"| missing',
      '  n2 -->|"onFalse"| endNode',
      "  endNode((end))",
      '  missing["(missing node)"]',
      "",
    ]);
  });

  it("is deterministic", () => {
    const wf = getTemplate("document-review");
    if (wf === undefined) throw new Error("no template");
    expect(exportMermaid(wf)).toBe(exportMermaid(structuredClone(wf)));
  });
});
