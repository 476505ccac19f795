/**
 * The modeller given an approval (issue 41, item 7), in a real browser: headless Chromium opens a
 * page bundled for the browser (`browser/approval-page.ts`: bpmn-js and agentflow's module, the
 * example registry bundled in) with an approval of the example loan process made in Node.js as
 * `agentflow approve` makes one. The unchanged diagram carries no "changed since approval" mark;
 * a workflow whose content changed, and a gate taken off in the modeller, mark exactly the agent
 * tasks whose decision changed, with the fields in the title; a task that is no longer an agent
 * is reported as removed; a diagram the approval holds no entry for has every agent task marked
 * "not in the approval"; and a malformed approval fires `agentflow.error` and marks nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { BROWSER_PAGE } from "../../scripts/browser-page.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_MARKER } from "../../src/bpmn-js/index.js";
import { CHROMIUM, HAS_CHROMIUM, leaveScreenshot } from "../e2e/chromium.js";
import { launchChromium } from "../e2e/watched-page.js";
import { tempDir } from "../temp.js";
import type { PageResult } from "./browser/approval-page.js";
import { loanXml } from "./loan.js";
import { LOAN_NAME, loanApproval } from "./loan-approval.js";

const SKIP = HAS_CHROMIUM
  ? ""
  : ` (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

const approved = await loanApproval();
/** The envelope as the page receives it: JSON, as a host would fetch it. */
const envelope = JSON.parse(JSON.stringify(approved.envelope)) as unknown;

interface ApprovalWindow {
  readonly approvalPage: {
    open(xml: string, approval: unknown, workflows?: Record<string, unknown>): Promise<PageResult>;
    removeGate(id: string): Promise<PageResult>;
    marked(marker: string): string[];
  };
}

let context: BrowserContext | undefined;
let tab: Page;

function open(xml: string, approval: unknown, workflows: Record<string, unknown> = {}) {
  return tab.evaluate(
    ([x, a, w]) => (window as unknown as ApprovalWindow).approvalPage.open(x, a, w),
    [xml, approval, workflows] as const,
  );
}

const marked = (): Promise<string[]> =>
  tab.evaluate(
    (m) => (window as unknown as ApprovalWindow).approvalPage.marked(m),
    APPROVAL_MARKER,
  );

/** The approval overlays: element, change, text and title of each, by element id. */
const overlays = (): Promise<string[][]> =>
  tab
    .locator(".agentflow-approval")
    .evaluateAll((els) =>
      els
        .map((e) => [
          e.getAttribute("data-agentflow-element") ?? "",
          e.getAttribute("data-agentflow-approval") ?? "",
          e.textContent,
          e.getAttribute("title") ?? "",
        ])
        .sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? "")),
    );

describe("the bpmn-js module given an approval, in Chromium", () => {
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    const out = tempDir("agentflow-approval-page-");
    await build({
      ...BROWSER_PAGE,
      entryPoints: [new URL("browser/approval-page.ts", import.meta.url).pathname],
      outdir: out,
      format: "iife",
    });
    writeFileSync(
      join(out, "index.html"),
      '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="approval-page.css"></head><body><div id="canvas" style="width:1400px;height:700px"></div><script src="approval-page.js"></script></body></html>',
    );
    context = await launchChromium({ width: 1400, height: 800 });
    tab = context.pages()[0] ?? (await context.newPage());
    tab.on("pageerror", (e) => pageErrors.push(e.message));
    tab.on("console", (m) => {
      if (m.type() === "error") pageErrors.push(m.text());
    });
    await tab.goto(pathToFileURL(join(out, "index.html")).href, { waitUntil: "load" });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it.skipIf(!HAS_CHROMIUM)(`marks nothing on the diagram as approved${SKIP}`, async () => {
    const result = await open(loanXml, envelope);
    expect(result.errors).toEqual([]);
    expect(result.changed.approval).toEqual({ process: LOAN_NAME, changed: [], removed: [] });
    expect(await marked()).toEqual([]);
    expect(await overlays()).toEqual([]);
    // The module's own badges are drawn as ever.
    expect(await tab.locator(".agentflow-badge").count()).toBe(2);
    expect(pageErrors).toEqual([]);
  });

  it.skipIf(!HAS_CHROMIUM)(
    `marks the task whose workflow's content changed, with the field in its title${SKIP}`,
    async () => {
      const offer = JSON.parse(
        readFileSync("examples/registry/offer-sender.agent.json", "utf8"),
      ) as { name: string };
      const edited = { ...offer, name: `${offer.name}, edited` };
      const result = await open(loanXml, envelope, { "agnt-offer-sender@1.0.0": edited });
      expect(result.errors).toEqual([]);
      expect(result.changed.approval).toEqual({
        process: LOAN_NAME,
        changed: [{ elementId: "DraftAndSendOffer", change: "changed", fields: ["contentHash"] }],
        removed: [],
      });
      expect(await marked()).toEqual(["DraftAndSendOffer"]);
      expect(await overlays()).toEqual([
        [
          "DraftAndSendOffer",
          "changed",
          "changed since approval",
          "changed since approval: contentHash",
        ],
      ]);
      // The outline takes the marker's colour (style.css), over the agent's.
      const stroke = await tab
        .locator(`g.djs-element[data-element-id="DraftAndSendOffer"] > .djs-visual > :first-child`)
        .evaluate((e) => getComputedStyle(e).strokeDasharray);
      expect(stroke).toBe("6px, 3px");
      await leaveScreenshot(tab, "modeler-approval.png");
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `marks the task behind a gate taken off in the modeller, after the edit's evaluation${SKIP}`,
    async () => {
      await open(loanXml, envelope);
      expect(await marked()).toEqual([]);
      const result = await tab.evaluate(() =>
        (window as unknown as ApprovalWindow).approvalPage.removeGate("SeniorReview"),
      );
      expect(result.errors).toEqual([]);
      expect(result.changed.approval?.changed).toEqual([
        { elementId: "AssessCreditRisk", change: "changed", fields: ["gate"] },
      ]);
      expect(await marked()).toEqual(["AssessCreditRisk"]);
      expect(await overlays()).toEqual([
        ["AssessCreditRisk", "changed", "changed since approval", "changed since approval: gate"],
      ]);
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `reports an approved agent task that is no longer one as removed, unmarked${SKIP}`,
    async () => {
      const xml = loanXml.replace(
        /<btv:agentTask agentWorkflowRef="agnt-offer-sender@1\.0\.0"[^>]*\/>/,
        "",
      );
      expect(xml).not.toBe(loanXml);
      const result = await open(xml, envelope);
      expect(result.changed.approval).toEqual({
        process: LOAN_NAME,
        changed: [],
        removed: [{ elementId: "DraftAndSendOffer", change: "removed", fields: [] }],
      });
      expect(await marked()).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `marks every agent task "not in the approval" when no entry has the diagram's process ids${SKIP}`,
    async () => {
      const xml = loanXml.replaceAll('"LoanOrigination"', '"LoanOrigination2"');
      // The statement alone works as well as the envelope.
      const result = await open(xml, JSON.parse(JSON.stringify(approved.statement)));
      expect(result.errors).toEqual([]);
      expect(result.changed.approval?.process).toBeNull();
      expect(await marked()).toEqual(["AssessCreditRisk", "DraftAndSendOffer"]);
      const titles = "not in the approval: it holds no decision for this process's ids";
      expect(await overlays()).toEqual([
        ["AssessCreditRisk", "added", "not in the approval", titles],
        ["DraftAndSendOffer", "added", "not in the approval", titles],
      ]);
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `says a malformed approval with agentflow.error, marks nothing, and still draws the gates${SKIP}`,
    async () => {
      const broken = { ...(envelope as object), payload: "not base64!" };
      const result = await open(loanXml, broken);
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatch(/^ApprovalFormatError: .*payload/);
      expect(result.changed.approval).toBeUndefined();
      expect(await marked()).toEqual([]);
      expect(await tab.locator(".agentflow-badge").count()).toBe(2);

      const path = await open(loanXml, "approval.json");
      expect(path.errors).toHaveLength(1);
      expect(path.errors[0]).toMatch(/^ApprovalFormatError: /);
      expect(await marked()).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
  );
});
