/**
 * The module as a host's bundler splits it, in a real browser: esbuild builds a page with
 * `splitting: true` (as docs/modeler.md says any splitting bundler does), the chunk files are
 * served over HTTP from a temporary folder, and headless Chromium opens the page. The engine's
 * chunk is not fetched while the page loads nor when the modeller is built; it is fetched at the
 * first evaluation (after the import), and then the badges are drawn. The pack compiler's chunk
 * is fetched only for a page with packs: a pack that does not compile is said at the first
 * evaluation, with `agentflow.error`, and nothing is drawn.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join } from "node:path";
import type { Metafile } from "esbuild";
import { build } from "esbuild";
import { BROWSER_PAGE } from "../../scripts/browser-page.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { taskBadges } from "../../src/bpmn-js/index.js";
import { CHROMIUM, HAS_CHROMIUM } from "../e2e/chromium.js";
import { launchChromium } from "../e2e/watched-page.js";
import { tempDir } from "../temp.js";
import type { SplitOutcome } from "./browser/split-page.js";
import { loanXml, registry } from "./loan.js";

const SKIP = HAS_CHROMIUM
  ? ""
  : ` (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
};

/** A pack whose one rule names a fact that does not exist: it does not compile. */
const BAD = {
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules: [{ id: "high", severity: "error", for: "agentTask", when: "levl >= 4" }],
};

interface SplitWindow {
  readonly splitPage: { build(agentflow: object): void; open(): Promise<SplitOutcome> };
}

/** The chunks of the page: those only an `import()` reaches, the engine's and the pack compiler's. */
interface PageChunks {
  readonly lazy: Set<string>;
  readonly engine: string;
  readonly packCompiler: string;
}

/** The chunk files only an `import()` reaches (from the metafile), the engine's and the compiler's. */
function lazyChunks(meta: Metafile): PageChunks {
  const outputs = Object.entries(meta.outputs).filter(([name]) => name.endsWith(".js"));
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith("split-page.ts") === true);
  const engine = outputs.find(([, o]) => o.entryPoint === "src/bpmn-js/engine.ts");
  const compiler = outputs.find(([, o]) => o.entryPoint === "src/bpmn-js/pack-compile.ts");
  if (entry === undefined || engine === undefined || compiler === undefined) {
    throw new Error("no entry, engine or pack compiler chunk");
  }
  const first = new Set([entry[0]]);
  const queue = [entry[0]];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const imported of meta.outputs[name]?.imports ?? []) {
      if (imported.kind !== "import-statement" || first.has(imported.path)) continue;
      first.add(imported.path);
      queue.push(imported.path);
    }
  }
  const lazy = outputs.filter(([name]) => !first.has(name)).map(([name]) => basename(name));
  return { lazy: new Set(lazy), engine: basename(engine[0]), packCompiler: basename(compiler[0]) };
}

let server: Server | undefined;
let context: BrowserContext | undefined;
let tab: Page;
let chunks: PageChunks;
const fetched: string[] = [];
const errors: string[] = [];

const fetchedLazy = () => fetched.filter((name) => chunks.lazy.has(name));

describe("the module split into chunks, served over HTTP, in Chromium", () => {
  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    const out = tempDir("agentflow-split-page-");
    const result = await build({
      ...BROWSER_PAGE,
      entryPoints: [new URL("browser/split-page.ts", import.meta.url).pathname],
      outdir: out,
      splitting: true,
      format: "esm",
      metafile: true,
    });
    chunks = lazyChunks(result.metafile);
    const html =
      '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="split-page.css"></head><body><div id="canvas" style="width:1400px;height:700px"></div><script type="module" src="split-page.js"></script></body></html>';
    server = createServer((request, response) => {
      const name = basename(new URL(request.url ?? "/", "http://page").pathname) || "index.html";
      if (name === "index.html") {
        response.writeHead(200, { "content-type": TYPES[".html"] }).end(html);
        return;
      }
      try {
        const body = readFileSync(join(out, name));
        response.writeHead(200, { "content-type": TYPES[extname(name)] ?? "text/plain" }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    context = await launchChromium({ width: 1400, height: 800 });
    tab = context.pages()[0] ?? (await context.newPage());
    tab.on("request", (r) => fetched.push(basename(new URL(r.url()).pathname)));
    tab.on("pageerror", (e) => errors.push(e.message));
    tab.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await tab.goto(`http://127.0.0.1:${port}/index.html`, { waitUntil: "load" });
    await tab.waitForFunction(() => "splitPage" in window);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it.skipIf(!HAS_CHROMIUM)(
    `fetches the engine's chunk at the first evaluation, then draws the badges${SKIP}`,
    async () => {
      expect(chunks.lazy.has(chunks.engine)).toBe(true);
      expect(fetched).toContain("split-page.js");
      await tab.evaluate(() => {
        (window as unknown as SplitWindow).splitPage.build({});
      });
      // The page is loaded and the modeller built: nothing lazily loaded is fetched yet.
      expect(fetchedLazy()).toEqual([]);
      expect(await tab.locator(".agentflow-badge").count()).toBe(0);

      const outcome = await tab.evaluate(() => (window as unknown as SplitWindow).splitPage.open());
      // The decision Node.js reaches on the same process and registry.
      const expected = await checkProcess(loanXml, registry);
      expect(outcome).toEqual({
        allowed: expected.allowed,
        blocking: expected.blocking.map((d) => d.code),
      });
      expect(fetchedLazy()).toContain(chunks.engine);
      // A page without packs never fetches their compiler.
      expect(chunks.lazy.has(chunks.packCompiler)).toBe(true);
      expect(fetchedLazy()).not.toContain(chunks.packCompiler);
      const badges = await tab
        .locator(".agentflow-badge")
        .evaluateAll((els) =>
          els.map((e) => [
            e.getAttribute("data-agentflow-element"),
            e.getAttribute("data-agentflow-gate"),
          ]),
        );
      const drawn = taskBadges(expected).map((b) => [b.elementId, b.gate]);
      expect(drawn).toHaveLength(2);
      expect(badges.sort()).toEqual(drawn.sort());
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `says a pack that does not compile with agentflow.error, and draws nothing${SKIP}`,
    async () => {
      await tab.evaluate((pack) => {
        (window as unknown as SplitWindow).splitPage.build({ policies: [pack] });
      }, BAD);
      const outcome = await tab.evaluate(() => (window as unknown as SplitWindow).splitPage.open());
      expect(outcome).toEqual({
        error: expect.stringMatching(
          /^agentflow\.policies\[0\]: rule high: when: unknown fact 'levl' \(facts of agentTask: /,
        ) as unknown,
      });
      // The compiler was fetched for the pack, and refused it.
      expect(fetchedLazy()).toContain(chunks.packCompiler);
      expect(await tab.locator(".agentflow-badge").count()).toBe(0);
      expect(await tab.locator(".agentflow-gate-marker").count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );
});
