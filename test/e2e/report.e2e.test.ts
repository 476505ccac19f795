/**
 * The HTML report of examples/ in a real browser (issue 7): headless Chromium opens the file with
 * no console error and no request but the page itself, and shows the diagrams and the blocked
 * agent task. The page and a full-page screenshot are left in `.artifacts/` for a person to see.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import type { AuditReport } from "../../src/report/audit/index.js";
import { auditProcessReport, renderAuditHtml } from "../../src/report/audit/index.js";
import { ARTIFACTS, CHROMIUM, HAS_CHROMIUM, leaveScreenshot, ROOT } from "./chromium.js";
import { openWatched } from "./watched-page.js";

const NAME = HAS_CHROMIUM
  ? "opens in headless Chromium offline, showing the diagrams and the blocked agent task"
  : `opens in headless Chromium (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

async function writeReport(): Promise<{ path: string; report: AuditReport }> {
  const registry = await loadFolderRegistry(join(ROOT, "examples/registry"));
  const file = "examples/processes/loan-origination.bpmn";
  const report = await auditProcessReport({
    file,
    text: readFileSync(join(ROOT, file), "utf8"),
    tools: { agentflow: "e2e" },
    resolveWorkflow: (ref) => registry.resolvers.resolveDelegate?.(ref),
    resolveTool: (ref) => registry.resolvers.resolveTool?.(ref),
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, "report.html");
  writeFileSync(path, renderAuditHtml(report));
  return { path, report };
}

describe("HTML audit report in a browser", () => {
  it.skipIf(!HAS_CHROMIUM)(
    NAME,
    async () => {
      const { path, report } = await writeReport();
      const page = pathToFileURL(path).href;
      const { context, tab, errors, requests } = await openWatched(page, {
        width: 1280,
        height: 900,
      });
      try {
        // The workflows' diagrams; the process's is test/e2e/process-diagram.e2e.test.ts's.
        const diagrams = tab.locator("svg.diagram:not(.legend):not(.process)");
        expect(await diagrams.count()).toBe(2);
        expect(await diagrams.first().isVisible()).toBe(true);
        const box = await diagrams.first().boundingBox();
        expect(box?.width ?? 0).toBeGreaterThan(100);
        expect(box?.height ?? 0).toBeGreaterThan(100);
        // Every node of both workflows is drawn and visible, the end nodes included.
        const drawn = report.workflows.flatMap((w, i) =>
          w.nodes.map((n) => diagrams.nth(i).locator(`g.node[data-node-id="${n.id}"]`)),
        );
        expect(drawn.length).toBe(8);
        for (const node of drawn) expect(await node.isVisible()).toBe(true);
        expect(await diagrams.locator("g.node").count()).toBe(drawn.length);

        // The offer's tool call, named by a process finding, is marked and links to it.
        const marked = tab.locator('svg.diagram a[href^="#finding-"] g.has-findings');
        expect(await marked.getAttribute("data-node-id")).toBe("send-offer");
        expect(await marked.isVisible()).toBe(true);

        const verdict = tab.locator(".verdict.blocked");
        expect(await verdict.isVisible()).toBe(true);
        expect(await verdict.innerText()).toContain("BLOCKED");
        const task = tab.locator("tr.blocked", { hasText: "DraftAndSendOffer" });
        expect(await task.isVisible()).toBe(true);
        expect(await task.innerText()).toContain("BLOCKED");
        expect(await tab.locator("tr.blocked").count()).toBe(1);

        await leaveScreenshot(tab, "report.png", { fullPage: true });
        expect(errors).toEqual([]);
        expect(requests).toEqual([page]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
