/**
 * The HTML report's Operation section in a real browser: headless Chromium opens the page with
 * no console error and no request but the page itself, draws each worst run's path with its
 * visited nodes numbered, and a deviating node's link lands on its deviation. The page and a
 * screenshot are left in `.artifacts/` for a person to see.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { renderAuditHtml } from "../../src/report/audit/index.js";
import { reportWithRuns } from "../report/audit/operation-fixture.js";
import { ARTIFACTS, CHROMIUM, HAS_CHROMIUM, leaveScreenshot } from "./chromium.js";
import { openWatched } from "./watched-page.js";

const NAME = HAS_CHROMIUM
  ? "shows the runs' paths in headless Chromium offline, each deviating node linked"
  : `shows the runs' paths in headless Chromium (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

describe("the Operation section in a browser", () => {
  it.skipIf(!HAS_CHROMIUM)(
    NAME,
    async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const path = join(ARTIFACTS, "report-operation.html");
      writeFileSync(path, renderAuditHtml(await reportWithRuns()));
      const page = pathToFileURL(path).href;
      const { context, tab, errors, requests } = await openWatched(page, {
        width: 1280,
        height: 900,
      });
      try {
        const section = tab.locator("section#operation");
        expect(await section.isVisible()).toBe(true);
        const paths = section.locator("svg.diagram");
        expect(await paths.count()).toBe(3);
        const box = await paths.first().boundingBox();
        expect(box?.height ?? 0).toBeGreaterThan(100);
        // The worst run executed llm-1, then tool-2: both drawn, numbered 1 and 2.
        const visited = paths.first().locator("g.node.visited");
        expect(await visited.count()).toBe(2);
        for (const node of await visited.all()) expect(await node.isVisible()).toBe(true);
        expect(await visited.nth(0).locator("g.order text").textContent()).toBe("1");
        expect(await visited.nth(1).locator("g.order text").textContent()).toBe("2");

        // Its deviating node links to the deviation's row, which the browser scrolls to.
        const marked = paths.first().locator('a[href="#op-run-1-d-1"] g.has-findings');
        expect(await marked.getAttribute("data-node-id")).toBe("llm-1");
        await marked.click();
        expect(new URL(tab.url()).hash).toBe("#op-run-1-d-1");
        expect(await tab.locator("#op-run-1-d-1").isVisible()).toBe(true);

        await leaveScreenshot(tab, "report-operation.png", { fullPage: true });
        expect(errors).toEqual([]);
        expect(requests).toEqual([page]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
