/**
 * Builds the modeller demo (`npm run demo:modeler`): bundles `examples/modeler/main.ts` with
 * esbuild, the example process and registry included, into `examples/modeler/dist/` with its
 * page, so the folder opens from disk with no server and no network.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DEMO = join(ROOT, "examples/modeler");

/** Builds the demo into `outdir` (by default `examples/modeler/dist`) and returns the page's path. */
export async function buildModelerDemo(outdir: string = join(DEMO, "dist")): Promise<string> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(DEMO, "main.ts")],
    outdir,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: false,
    logLevel: "warning",
    // The JSX runtime of the panel is preact's; fonts and icons go into the CSS as data URLs.
    loader: {
      ".bpmn": "text",
      ".woff": "dataurl",
      ".woff2": "dataurl",
      ".ttf": "dataurl",
      ".eot": "dataurl",
      ".svg": "dataurl",
    },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  copyFileSync(join(DEMO, "index.html"), join(outdir, "index.html"));
  return join(outdir, "index.html");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = await buildModelerDemo();
  console.log(`built ${page}`);
}
