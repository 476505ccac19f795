/**
 * The process drawn in the audit report, in a real browser (issue 21): headless Chromium opens
 * the report of the example process with and without a registry, and of processes with a bypass
 * path with and without DI. It checks the SVG (every flow node by its BPMN id, each agent task's
 * badge, the gate tags, the bypass path exactly when its finding is there), that a 420 px wide
 * page does not scroll sideways, and that every Mermaid block of the Markdown reports parses with
 * Mermaid itself, loaded from node_modules into a blank page. Pages and screenshots are left in
 * `.artifacts/`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import type { AuditReport } from "../../src/report/audit/index.js";
import {
  auditProcessReport,
  renderAuditHtml,
  renderAuditMarkdown,
} from "../../src/report/audit/index.js";
import { tempDir } from "../temp.js";
import { ARGS, ARTIFACTS, CHROMIUM, HAS_CHROMIUM, leaveScreenshot, ROOT } from "./chromium.js";

const MERMAID = join(ROOT, "node_modules/mermaid/dist/mermaid.min.js");

const skip = HAS_CHROMIUM
  ? ""
  : ` (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

interface Case {
  readonly name: string;
  readonly file: string;
  readonly registry: boolean;
}

const CASES: readonly Case[] = [
  { name: "example", file: "examples/processes/loan-origination.bpmn", registry: true },
  {
    name: "example-no-registry",
    file: "examples/processes/loan-origination.bpmn",
    registry: false,
  },
  { name: "fast-track", file: "test/fixtures/processes/loan-fast-track.bpmn", registry: true },
  {
    name: "fast-track-no-di",
    file: "test/fixtures/processes/loan-fast-track-no-di.bpmn",
    registry: true,
  },
];

const FLOW_NODES = [
  "ApplicationReceived",
  "AssessCreditRisk",
  "RiskBand",
  "UnderwriterReview",
  "ReviewOverdue",
  "SeniorReview",
  "Approved",
  "DraftAndSendOffer",
  "OfferSent",
  "ApplicationDeclined",
];

async function report(c: Case): Promise<AuditReport> {
  const registry = await loadFolderRegistry(join(ROOT, "examples/registry"));
  return auditProcessReport({
    file: c.file,
    text: readFileSync(join(ROOT, c.file), "utf8"),
    tools: { agentflow: "e2e" },
    ...(c.registry
      ? {
          resolveWorkflow: (ref: string) => registry.resolvers.resolveDelegate?.(ref),
          resolveTool: (ref: string) => registry.resolvers.resolveTool?.(ref),
        }
      : {}),
  });
}

/** Modelled processes whose Mermaid charts must parse too. */
const MODELLED = [
  "test/fixtures/bpmn/miwg-reference/B.2.0.bpmn",
  "test/fixtures/bpmn/miwg-reference/C.1.0.bpmn",
  "test/fixtures/bpmn/bpmn-js/kitchen-sink.bpmn",
  "test/fixtures/bpmn/bpmn-js/collapsed-sub-process.bpmn",
];

/** Parses `source` with the page's Mermaid: "ok", or the error's message (run in the page). */
async function parse(source: string): Promise<string> {
  const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid;
  try {
    await m.parse(source);
    return "ok";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** How wide the page's content is, and its window (evaluated in the page, which has a DOM). */
async function pageWidths(page: Page): Promise<{ page: number; body: number; view: number }> {
  return page.evaluate<{ page: number; body: number; view: number }>(
    "({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth })",
  );
}

/** The text of every ```mermaid block of a Markdown document. */
function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? "");
}

describe(`the process drawn in the HTML report, in headless Chromium${skip}`, () => {
  let context: BrowserContext | undefined;
  let profile = "";
  const reports = new Map<string, { report: AuditReport; html: string; markdown: string }>();

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const c of CASES) {
      const r = await report(c);
      const html = join(ARTIFACTS, `report-${c.name}.html`);
      const markdown = join(ARTIFACTS, `report-${c.name}.md`);
      writeFileSync(html, renderAuditHtml(r));
      writeFileSync(markdown, renderAuditMarkdown(r));
      reports.set(c.name, { report: r, html, markdown: readFileSync(markdown, "utf8") });
    }
    if (!HAS_CHROMIUM) return;
    profile = tempDir("agentflow-e2e-process-");
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile !== "") rmSync(profile, { recursive: true, force: true });
  });

  async function open(name: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const entry = reports.get(name);
    if (context === undefined || entry === undefined) throw new Error("no browser");
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathToFileURL(entry.html).href, { waitUntil: "load" });
    return { page, errors, requests };
  }

  async function badges(page: Page): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    const all = page.locator("svg.process g.agent-badge");
    for (let i = 0; i < (await all.count()); i++) {
      const b = all.nth(i);
      const id = (await b.getAttribute("data-for")) ?? "";
      out[id] =
        `${(await b.getAttribute("data-status")) ?? ""}: ${await b.locator("text").textContent()}`;
    }
    return out;
  }

  async function noSideScroll(page: Page, shot: string): Promise<void> {
    await page.setViewportSize({ width: 420, height: 900 });
    const widths = await pageWidths(page);
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    expect(widths.body).toBeLessThanOrEqual(widths.view);
    await leaveScreenshot(page, shot, { fullPage: true });
  }

  it.skipIf(!HAS_CHROMIUM)(
    "draws the example from its DI: every flow node, both agent badges, both gates, no bypass",
    async () => {
      const { page, errors, requests } = await open("example");
      try {
        const svg = page.locator("svg.process:not(.legend)");
        expect(await svg.count()).toBe(1);
        expect(await svg.getAttribute("data-layout")).toBe("di");
        expect(await page.locator('nav.toc a[href="#process-diagram"]').count()).toBe(1);
        expect(await svg.isVisible()).toBe(true);
        for (const id of FLOW_NODES) {
          const el = svg.locator(`g.el[data-element-id="${id}"]`);
          expect(await el.count(), id).toBe(1);
          expect(await el.isVisible(), id).toBe(true);
          // The id names the element's own shape only; its marks say data-for.
          expect(await svg.locator(`[data-element-id="${id}"]`).count(), id).toBe(1);
        }
        expect(await svg.locator("g.flow").count()).toBe(10);
        expect(await badges(page)).toEqual({
          AssessCreditRisk: "reached: L2 · ✔ gate reached",
          DraftAndSendOffer: "missing: L3 · ✖ gate missing",
        });
        // The task whose gate is missing links to its finding.
        const link = svg.locator('a:has(g.agent-badge[data-for="DraftAndSendOffer"])');
        const href = (await link.getAttribute("href")) ?? "";
        expect(href).toMatch(/^#finding-\d+$/);
        expect(await page.locator(href).innerText()).toContain("AGENT_GATE_UNREACHABLE");
        const gates = svg.locator("g.gate-mark");
        const gated: (string | null)[] = [];
        for (let i = 0; i < (await gates.count()); i++) {
          gated.push(await gates.nth(i).getAttribute("data-for"));
        }
        expect(gated).toEqual(["UnderwriterReview", "SeniorReview"]);
        // No bypass finding, so no bypass path.
        expect(await page.locator("li.finding", { hasText: "AGENT_GATE_BYPASS" }).count()).toBe(0);
        expect(await svg.locator("g.bypass").count()).toBe(0);
        await leaveScreenshot(page.locator("figure.process-box"), "report-process-example.png");
        await noSideScroll(page, "report-example-420.png");
        expect(errors).toEqual([]);
        expect(requests).toEqual([pathToFileURL(reports.get("example")?.html ?? "").href]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.skipIf(!HAS_CHROMIUM)(
    "draws the example without a registry: the badges say what the declared levels need",
    async () => {
      const { page, errors } = await open("example-no-registry");
      try {
        const svg = page.locator("svg.process:not(.legend)");
        expect(await svg.count()).toBe(1);
        for (const id of FLOW_NODES) {
          expect(await svg.locator(`g.el[data-element-id="${id}"]`).count(), id).toBe(1);
        }
        // No workflow diagrams: the process is the only picture.
        expect(await page.locator("svg.diagram:not(.process):not(.legend)").count()).toBe(0);
        expect(await badges(page)).toEqual({
          AssessCreditRisk: "reached: L2 · ✔ gate reached",
          DraftAndSendOffer: "missing: L3 · ✖ gate missing",
        });
        expect(await page.locator("li.finding", { hasText: "AGENT_GATE_BYPASS" }).count()).toBe(0);
        expect(await svg.locator("g.bypass").count()).toBe(0);
        await noSideScroll(page, "report-example-no-registry-420.png");
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  for (const name of ["fast-track", "fast-track-no-di"]) {
    it.skipIf(!HAS_CHROMIUM)(
      `draws the bypass path of ${name} over the diagram, linked to its finding`,
      async () => {
        const { page, errors } = await open(name);
        try {
          const svg = page.locator("svg.process:not(.legend)");
          expect(await svg.getAttribute("data-layout")).toBe(
            name.endsWith("no-di") ? "dagre" : "di",
          );
          for (const id of FLOW_NODES) {
            const el = svg.locator(`g.el[data-element-id="${id}"]`);
            expect(await el.count(), id).toBe(1);
            expect(await el.isVisible(), id).toBe(true);
          }
          // The flow named with < and > is there, its name as text.
          const fast = svg.locator('g.flow[data-element-id="Flow_FastTrack"]');
          expect(await fast.locator("title").textContent()).toContain(
            "existing customer <fast track>",
          );
          expect(await badges(page)).toEqual({
            AssessCreditRisk: "bypassed: L2 · ✖ gate bypassed",
            DraftAndSendOffer: "missing: L3 · ✖ gate missing",
          });
          const findings = await page
            .locator("li.finding", { hasText: "AGENT_GATE_BYPASS" })
            .count();
          expect(findings).toBe(1);
          const bypass = svg.locator("g.bypass");
          expect(await bypass.count()).toBe(1);
          expect(await bypass.getAttribute("data-findings")).toBe("1");
          const line = bypass.locator("path.bypass-line");
          const box = await line.boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(100);
          const finding = svg.locator("g.bypass-finding");
          expect(await finding.count()).toBe(1);
          expect(await finding.getAttribute("data-for")).toBe("AssessCreditRisk");
          expect(await finding.locator("title").textContent()).toContain(
            "AssessCreditRisk → RiskBand → Approved → ApplicationDeclined",
          );
          const href = await svg.locator("a:has(g.bypass-finding)").getAttribute("href");
          expect(await page.locator(href ?? "#none").innerText()).toContain("AGENT_GATE_BYPASS");
          await leaveScreenshot(page.locator("figure.process-box"), `report-process-${name}.png`);
          await noSideScroll(page, `report-${name}-420.png`);
          expect(errors).toEqual([]);
        } finally {
          await page.close();
        }
      },
      60_000,
    );
  }

  it.skipIf(!HAS_CHROMIUM)(
    "prints without the page growing sideways",
    async () => {
      const { page } = await open("fast-track");
      try {
        await page.emulateMedia({ media: "print" });
        await page.setViewportSize({ width: 700, height: 900 });
        const widths = await pageWidths(page);
        expect(widths.page).toBeLessThanOrEqual(widths.view);
        expect(await page.locator("nav.toc").isVisible()).toBe(false);
        const pdf = await page.pdf({ format: "A4" });
        expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.skipIf(!HAS_CHROMIUM)(
    "writes Mermaid blocks that Mermaid itself parses, process and workflows alike",
    async () => {
      if (context === undefined) throw new Error("no browser");
      const page = await context.newPage();
      try {
        await page.goto("about:blank");
        await page.addScriptTag({ path: MERMAID });
        let processBlocks = 0;
        let total = 0;
        for (const [name, { markdown }] of reports) {
          const blocks = mermaidBlocks(markdown);
          processBlocks += blocks.filter((b) => b.startsWith("flowchart LR")).length;
          for (const text of blocks) {
            total += 1;
            const result = await page.evaluate(parse, text);
            expect(result, `${name}:\n${text}`).toBe("ok");
          }
        }
        expect(processBlocks).toBe(CASES.length);
        expect(total).toBe(CASES.length + 2 * 3);
        // Real BPMN with pools, lanes, sub-processes (nested, collapsed, event, ad-hoc), boundary
        // events and message flows: each process chart parses too.
        for (const file of MODELLED) {
          const r = await auditProcessReport({
            file,
            text: readFileSync(join(ROOT, file), "utf8"),
            tools: { agentflow: "e2e" },
          });
          const charts = mermaidBlocks(renderAuditMarkdown(r));
          expect(charts.length, file).toBe(r.process?.diagrams.length);
          for (const text of charts) {
            const result = await page.evaluate(parse, text);
            expect(result, `${file}:\n${text}`).toBe("ok");
          }
        }
        // A broken block is refused: the parser does check.
        const broken = await page.evaluate(async () => {
          const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown> } })
            .mermaid;
          try {
            await m.parse('flowchart LR\n  n0("a) --> n1');
            return "ok";
          } catch {
            return "refused";
          }
        });
        expect(broken).toBe("refused");
      } finally {
        await page.close();
      }
    },
    60_000,
  );
});
