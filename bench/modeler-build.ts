/**
 * The two pages of the modeller bench (`modeler.ts`), built and served as a host's bundler and
 * server would: esbuild with `splitting: true` (the module's engine a chunk of its own), one
 * folder per page, over HTTP on a free local port.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { BROWSER_PAGE } from "../scripts/browser-page.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Builds both pages into `out`, one folder each, as a host's bundler splits them. */
export async function buildPages(out: string): Promise<void> {
  const page = JSON.stringify(join(ROOT, "bench/modeler-page.ts"));
  const module = JSON.stringify(join(ROOT, "src/bpmn-js/index.ts"));
  const entries = {
    plain: `import { installBench } from ${page};\ninstallBench([], undefined);\n`,
    agentflow: `import { installBench } from ${page};\nimport Agentflow, { BTV_PACKAGE } from ${module};\ninstallBench([Agentflow], BTV_PACKAGE);\n`,
  };
  for (const [name, code] of Object.entries(entries)) {
    const dir = join(out, name);
    mkdirSync(dir, { recursive: true });
    const entry = join(out, `${name}-entry.ts`);
    writeFileSync(entry, code);
    await build({
      ...BROWSER_PAGE,
      entryPoints: { page: entry },
      outdir: dir,
      absWorkingDir: ROOT,
      nodePaths: [join(ROOT, "node_modules")],
      splitting: true,
      format: "esm",
      minify: true,
    });
    writeFileSync(
      join(dir, "index.html"),
      '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="page.css"></head><body style="margin:0"><div id="canvas" style="width:1400px;height:800px"></div><script type="module" src="page.js"></script></body></html>',
    );
  }
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
};

/** Serves `out` over HTTP on a free local port. */
export async function serve(out: string): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://bench").pathname.split("/").filter(Boolean);
    const [page, file = "index.html"] = path;
    try {
      if (page === undefined || basename(file) !== file) throw new Error("not a file");
      const body = readFileSync(join(out, basename(page), file));
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "text/plain" }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}` };
}
