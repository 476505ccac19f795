import { describe, expect, it } from "vitest";
import { exportAgentOs } from "../../src/interop/agentos/index.js";
import type { ToolNode } from "../../src/model/index.js";
import { edge, llm, tool, workflow } from "../validate/builders.js";

type Obj = Record<string, unknown>;

/** The workflow `judge` → `act`, `act` a tool node with `params`. */
function withParams(usesTool: string, params: Obj): Parameters<typeof exportAgentOs>[0] {
  const act: ToolNode = tool("act", usesTool, { params });
  return workflow([llm("judge"), act], [edge("judge", "act")]);
}

/** The warnings about templates, as [path, data.template]. */
function templateWarnings(params: Obj, usesTool: string): [string, unknown][] {
  return exportAgentOs(withParams(usesTool, params))
    .warnings.filter((w) => w.path.includes("/config/params"))
    .map((w) => [w.path, w.data?.template]);
}

describe("exportAgentOs: templates in params, which AgentOS passes unresolved", () => {
  it.each([
    {
      name: "a flat tool arg",
      usesTool: "tool:payments-refund@1.0.0",
      params: { amount: "{{judge.output.amount}}", currency: "EUR" },
      found: [["/nodes/1/config/params/amount", "{{judge.output.amount}}"]],
    },
    {
      name: "nested and listed args, a template inside text",
      usesTool: "tool:search@1.0.0",
      params: {
        filters: { site: "site:{{input.site}}", lang: "en" },
        ids: ["{{judge.output.id}}"],
        "a/b": "{{input.q}}",
      },
      found: [
        ["/nodes/1/config/params/filters/site", "site:{{input.site}}"],
        ["/nodes/1/config/params/ids/0", "{{judge.output.id}}"],
        ["/nodes/1/config/params/a~1b", "{{input.q}}"],
      ],
    },
    {
      name: "a human node's prompt, shown to the person as written",
      usesTool: "tool:agentos.human@1.0.0",
      params: { prompt: "Approve {{judge.output.amount}}?" },
      found: [["/nodes/1/config/params/prompt", "Approve {{judge.output.amount}}?"]],
    },
    {
      name: "no template",
      usesTool: "tool:payments-refund@1.0.0",
      params: { amount: 10, note: "{ not a template }" },
      found: [],
    },
  ])("declares NOT_EXPORTABLE for $name", ({ usesTool, params, found }) => {
    expect(templateWarnings(params, usesTool)).toEqual(found);
    const { warnings } = exportAgentOs(withParams(usesTool, params));
    for (const w of warnings.filter((x) => x.path.includes("/config/params")))
      expect([w.code, w.data?.nodeId]).toEqual(["NOT_EXPORTABLE", "act"]);
  });

  it("keeps writing the template as the arg, so a reviewer sees the literal", () => {
    const { document, warnings } = exportAgentOs(
      withParams("tool:payments-refund@1.0.0", { amount: "{{judge.output.amount}}" }),
    );
    const node = (document.nodes as Obj[])[1];
    expect(node?.executorConfig).toEqual({
      type: "tool",
      toolName: "payments-refund",
      args: { amount: "{{judge.output.amount}}" },
    });
    expect(warnings.find((w) => w.path === "/nodes/1/config/params/amount")?.data).toEqual({
      nodeId: "act",
      keys: ["amount"],
      template: "{{judge.output.amount}}",
    });
  });

  it("lists 20 template strings of one node and counts the rest in one warning", () => {
    const params = Object.fromEntries(
      Array.from({ length: 23 }, (_, k) => [`a${String(k)}`, `{{input.f${String(k)}}}`]),
    );
    const found = exportAgentOs(withParams("tool:search@1.0.0", params)).warnings.filter((w) =>
      w.path.startsWith("/nodes/1/config/params"),
    );
    expect(found).toHaveLength(21);
    expect(found.slice(0, 20).map((w) => w.path)).toEqual(
      Array.from({ length: 20 }, (_, k) => `/nodes/1/config/params/a${String(k)}`),
    );
    expect(found[20]).toMatchObject({
      code: "NOT_EXPORTABLE",
      path: "/nodes/1/config/params",
      data: { nodeId: "act", unlisted: 3, limit: 20 },
    });
    expect(found[20]?.message).toContain("3 more string(s) of its params hold a template");
  });
});
