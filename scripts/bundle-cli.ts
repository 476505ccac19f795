/**
 * Bundles the CLI (`dist/cli/main.js` and what it imports, dependencies included) into
 * `dist/cli-bundle/`, one chunk per lazily loaded subcommand, and the worker threads' entry. Node's loader spent most of a small
 * `agentflow check` resolving, reading and compiling some 400 module files (Ajv alone is a
 * hundred); one bundle is read and compiled as a handful of files. The library's own entry points
 * (`dist/index.js`, `dist/model/...`) stay unbundled: a host bundles those with its own tools.
 * Run by `npm run build`, after tsc.
 */
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { deferredDependencies } from "./node-build.js";

const OUT = "dist/cli-bundle";
// Chunk names carry content hashes: a rebuild must not leave the last build's chunks beside it.
rmSync(OUT, { recursive: true, force: true });

await build({
  // The worker threads of `--concurrency` start from `worker.js` beside the CLI (batch.ts).
  entryPoints: { main: "dist/cli/main.js", worker: "dist/cli/worker.js" },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Dependencies written as CommonJS call `require` for Node's built-in modules.
  banner: {
    js: 'import { createRequire as __agentflowRequire } from "node:module";\nconst require = __agentflowRequire(import.meta.url);',
  },
  logLevel: "warning",
  legalComments: "eof",
  plugins: [deferredDependencies()],
});
