/**
 * Bundles the library's entry points for Node: every `exports` entry of package.json that has a
 * `node` condition is built from its `default` file (tsc's output in `dist/`) into the `node`
 * path, all in one esbuild run with shared chunks, so that the root entry and the subpaths hold
 * one copy of each module (a class imported from `agentflow` is the one `agentflow/interop`
 * throws). Node's loader spent most of an import resolving, reading and compiling some 500
 * module files; a bundle is a handful (docs/performance.md, "Start-up"). Hosts' bundlers read
 * the `module` condition (and browsers' the `default` one), tsc's files, and bundle those with
 * their own tools.
 * Two things differ from tsc's files: the root entry is written by node-root.ts (its functions
 * loaded at their first call, from bundles of their declaring files under `lazy/`), and each
 * name is imported from the file declaring it (direct-imports.ts), so that an entry's chunks hold
 * what it uses.
 *
 * Dependencies are bundled except those whose objects cross the API (xstate's machines and
 * actors, bpmn-moddle's definitions) and the peer dependencies, which stay imports so that a
 * caller's copy and agentflow's are one. Node-only (node-build.ts): yaml, Ajv, semver, lezer-feel
 * and feelin evaluated at their first use, not at import.
 * Run by `npm run build`, after tsc.
 */
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";
import { deferredDependencies } from "./node-build.js";
import { declarationLookup } from "./declarations.js";
import { directImportsPlugin } from "./direct-imports.js";
import { NODE_ROOT_ENTRY, nodeRoot, rootPlan } from "./node-root.js";

interface Manifest {
  readonly exports: Record<string, string | Record<string, string>>;
  readonly peerDependencies?: Record<string, string>;
}

/** Dependencies whose objects a caller passes in or gets back: never a second copy. */
const SHARED = ["xstate", "bpmn-moddle"];
const OUT = "dist/node";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as Manifest;
const entryPoints: Record<string, string> = {};
let rootEntry: string | undefined;
for (const [key, target] of Object.entries(manifest.exports)) {
  if (typeof target === "string" || target.node === undefined) continue;
  const from = target.default;
  if (from === undefined || !target.node.startsWith(`./${OUT}/`) || !from.startsWith("./dist/")) {
    throw new Error(
      `exports["${key}"]: a node condition needs a default in dist/ and a path in ${OUT}/`,
    );
  }
  const bundle = target.node.slice(`./${OUT}/`.length);
  // The root is written by node-root.ts: its functions are loaded at their first call.
  entryPoints[bundle.replace(/\.js$/, "")] = key === "." ? NODE_ROOT_ENTRY : from;
  if (key === ".") rootEntry = from;
}
if (rootEntry === undefined) throw new Error('exports["."] has no node condition');

const lookup = declarationLookup({
  project: "tsconfig.build.json",
  rootDir: "src",
  outDir: "dist",
});
const plan = await rootPlan(rootEntry, "dist", lookup);
for (const [entry, { file }] of plan.lazy) entryPoints[entry] = file;

// Chunk names carry content hashes: a rebuild must not leave the last build's chunks beside it.
rmSync(OUT, { recursive: true, force: true });

await build({
  entryPoints,
  outdir: OUT,
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  external: [...SHARED, ...Object.keys(manifest.peerDependencies ?? {})],
  // Scope hoisting renames clashing identifiers; keepNames keeps each class's and function's
  // `name` what the source says (error classes are told apart by it).
  keepNames: true,
  // Dependencies written as CommonJS call `require` for Node's built-in modules.
  banner: {
    js: 'import { createRequire as __agentflowRequire } from "node:module";\nconst require = __agentflowRequire(import.meta.url);',
  },
  logLevel: "warning",
  legalComments: "eof",
  plugins: [
    nodeRoot(plan, process.cwd()),
    directImportsPlugin("dist", OUT, lookup),
    deferredDependencies(),
  ],
});
