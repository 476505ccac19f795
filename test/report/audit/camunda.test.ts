/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The audit report on a Camunda agent read from the BPMN (issue 39, item 6): a section with what
 * was read, the level with its reasons, the loop drawn (Mermaid / inline SVG) and every tool with
 * its effect and where the effect came from — the same rows in Markdown and HTML.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ToolEffectsMapping } from "../../../src/bpmn/camunda/index.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../../src/report/audit/index.js";
import { mermaidErrors } from "./mermaid-grammar.js";

const FILE = "test/fixtures/camunda/subprocess-v11-refund.bpmn";

async function report(toolEffects?: ToolEffectsMapping) {
  const text = readFileSync(FILE, "utf8");
  return auditProcessReport({
    file: "refund.bpmn",
    text,
    tools: { agentflow: "0.0.0" },
    ...(toolEffects === undefined ? {} : { gate: { toolEffects } }),
  });
}

function sectionOf(markdown: string): string {
  const start = markdown.indexOf("## Camunda agent Agent");
  return markdown.slice(start, markdown.indexOf("\n## ", start + 1));
}

describe("the audit report on a Camunda agent", () => {
  it("builds one section per derived agent from the decision, not among the workflows", async () => {
    const r = await report();
    expect(r.workflows).toEqual([]);
    const [agent] = r.process?.derivedAgents ?? [];
    expect(agent?.workflowRef).toBe("camunda.Agent@1.0.0");
    expect(agent?.level).toBe(3);
    expect(agent?.nodes.map((n) => [n.id, n.type])).toEqual([
      ["Agent", "llm"],
      ["Agent.next", "decision"],
      ["LookupOrder", "tool"],
      ["RefundPayment", "tool"],
      ["NotifyCustomer", "tool"],
      ["ApproveRefund", "tool"],
      ["CheckFraud", "tool"],
      ["ArchiveCase", "tool"],
      ["LegacyCheck", "tool"],
      ["#end", "end"],
    ]);
    // Every tool leads back to the model: the loop.
    expect(agent?.edges.filter((e) => e.to === "Agent").map((e) => e.from)).toHaveLength(7);
  });

  it("writes the facts, the reasons, the loop and the tools in Markdown", async () => {
    const md = sectionOf(renderAuditMarkdown(await report()));
    expect(md).toContain("| model | openai / gpt-4o |");
    expect(md).toContain("| max model calls | 8 |");
    expect(md).toContain(
      "- level 3: branching-decision at Agent.next, LookupOrder, RefundPayment, NotifyCustomer, ApproveRefund, CheckFraud, ArchiveCase, LegacyCheck",
    );
    const chart = /```mermaid\n([\s\S]*?)```/.exec(md)?.[1] ?? "";
    expect(mermaidErrors(chart)).toEqual([]);
    expect(chart).toContain('n1 -->|"cases/0 · max 7"| n2');
    expect(chart).toContain('n2 -->|"toolCall"| n0');
    expect(md).toContain(
      "| `RefundPayment` | bpmn:ServiceTask io.camunda.connectors.HttpJson.v2 v11 | write-irreversible | agentflow default io.camunda.connectors.HttpJson.v2 method=POST |  |",
    );
    expect(md).toContain(
      "| `ApproveRefund` | bpmn:UserTask | read | agentflow default user-task | person, not a gate |",
    );
    expect(md).toContain(
      "| `ArchiveCase` | bpmn:ServiceTask acme:archive:1 | write-reversible | btv:toolEffect attribute |  |",
    );
    expect(md).toMatch(
      /\| `CheckFraud` \| bpmn:ServiceTask acme:fraud-score:1 \| \*\*unknown\*\* \| unknown: no btv:toolEffect.*map it with "toolEffects" in agentflow\.config\.json/,
    );
  });

  it("names the organisation's mapping as the source when the gate options carry it", async () => {
    const md = sectionOf(renderAuditMarkdown(await report({ "acme:fraud-score:1": "read" })));
    expect(md).toContain(
      "| `CheckFraud` | bpmn:ServiceTask acme:fraud-score:1 | read | toolEffects mapping acme:fraud-score:1 |  |",
    );
  });

  it("shows the same rows in the HTML, with the loop drawn inline and nothing fetched", async () => {
    const html = renderAuditHtml(await report());
    const doc = new DOMParser().parseFromString(html, "text/html");
    const section = doc.querySelector("section#camunda-1");
    expect(section?.querySelector("h2")?.textContent).toBe("Camunda agent Agent");
    expect(doc.querySelector('nav a[href="#camunda-1"]')?.textContent).toBe("Camunda agent Agent");
    const facts = Array.from(section?.querySelectorAll("table.derived-facts tr") ?? []).map(
      (tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td")?.textContent],
    );
    expect(facts).toContainEqual(["max model calls", "8"]);
    expect(facts).toContainEqual(["variant", "sub-process"]);
    const rows = Array.from(
      section?.querySelectorAll("table:not(.derived-facts) tbody tr") ?? [],
    ).map((tr) => [
      tr.className,
      ...Array.from(tr.querySelectorAll("td")).map((td) => td.textContent),
    ]);
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      [
        "effect-read",
        "LookupOrder",
        "bpmn:ServiceTask io.camunda.connectors.HttpJson.v2 v11",
        "read",
      ],
      [
        "effect-write-irreversible",
        "RefundPayment",
        "bpmn:ServiceTask io.camunda.connectors.HttpJson.v2 v11",
        "write-irreversible",
      ],
      [
        "effect-notify",
        "NotifyCustomer",
        "bpmn:ServiceTask io.camunda.connectors.email.v1 v6",
        "notify",
      ],
      ["effect-read", "ApproveRefund", "bpmn:UserTask", "read"],
      ["effect-unknown", "CheckFraud", "bpmn:ServiceTask acme:fraud-score:1", "unknown"],
      [
        "effect-write-reversible",
        "ArchiveCase",
        "bpmn:ServiceTask acme:archive:1",
        "write-reversible",
      ],
      ["effect-unknown", "LegacyCheck", "bpmn:CallActivity", "unknown"],
    ]);
    expect(rows[3]?.[5]).toBe("person, not a gate");
    expect(rows[5]?.[4]).toBe("btv:toolEffect attribute");
    const svg = section?.querySelector("svg.diagram");
    expect(svg?.querySelectorAll(".node").length ?? 0).toBeGreaterThanOrEqual(9);
    expect(html).not.toMatch(/<script|<link|https?:\/\//i);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(hrefs.every((h) => h.startsWith("#"))).toBe(true);
  });
});
