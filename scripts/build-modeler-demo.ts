/**
 * Builds the modeller demo (`npm run demo:modeler`): bundles `examples/modeler/main.ts` with
 * esbuild, the example process and registry included, into `examples/modeler/dist/` with its
 * page, so the folder opens from disk with no server and no network.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { build } from "esbuild";
import { BROWSER_PAGE } from "./browser-page.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DEMO = join(ROOT, "examples/modeler");

/** The package's exports map: `./bpmn-js/style.css` → `./dist/bpmn-js/style.css`. */
const EXPORTS = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    readonly exports: Readonly<Record<string, string | { readonly default: string }>>;
  }
).exports;

/**
 * Lets the demo import `agentflow/...` as docs/modeler.md tells users to: the specifier goes
 * through the package's exports map, to the source file the `dist/` target is built from, so
 * the demo needs no `npm run build` first and never shows a stale `dist/`.
 */
const agentflowPackage: Plugin = {
  name: "agentflow-package",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^agentflow\// }, ({ path }) => {
      const target = EXPORTS[`./${path.slice("agentflow/".length)}`];
      if (target === undefined)
        return { errors: [{ text: `agentflow does not export '${path}'` }] };
      const built = typeof target === "string" ? target : target.default;
      return { path: join(ROOT, built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")) };
    });
  },
};

/** Builds the demo into `outdir` (by default `examples/modeler/dist`) and returns the page's path. */
export async function buildModelerDemo(outdir: string = join(DEMO, "dist")): Promise<string> {
  mkdirSync(outdir, { recursive: true });
  await build({
    ...BROWSER_PAGE,
    entryPoints: [join(DEMO, "main.ts")],
    outdir,
    format: "iife",
    minify: true,
    sourcemap: false,
    plugins: [agentflowPackage],
  });
  copyFileSync(join(DEMO, "index.html"), join(outdir, "index.html"));
  return join(outdir, "index.html");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = await buildModelerDemo();
  console.log(`built ${page}`);
}
