/**
 * Browser bundle sizes, each bundled by esbuild for the browser (ES module, minified,
 * tree-shaken, `splitting: true` as a host's bundler splits dynamic imports), with the gzipped
 * size and the largest parts: `parseWorkflow` + `createValidator`, `agentflow/bpmn`, and what
 * `agentflow/bpmn-js` adds to a bpmn-js Modeler — alone, and with its properties-panel group
 * beside bpmn-js-properties-panel, as docs/modeler.md adds them.
 *
 * Each bundle is measured twice: its first load (the entry chunk and every chunk it imports
 * statically: what the page fetches before the modeller is built) and its lazy chunks (reached
 * only through `import()`: the module's engine, fetched at the first evaluation). The budget is
 * on the first load. Each addition is the difference between two bundles built in the same run,
 * and its contributors are the parts that grew. `node --import tsx bench/bundle.ts` prints the
 * tables; `benchBundles()` returns the rows.
 */
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import type { Metafile, OutputFile } from "esbuild";
import { build } from "esbuild";

/** A part of a bundle (a package, or a folder of src/) and its minified KiB. */
export type Part = readonly [part: string, kib: number];

/** The size of some chunks: minified, and gzipped chunk by chunk (each is fetched alone). */
export interface ChunkSize {
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The largest parts, largest first. */
  readonly largest: readonly Part[];
}

/** One bundle's size: its first load, and its lazily loaded chunks. */
export interface BundleRow extends ChunkSize {
  readonly bundle: string;
  /** The chunks only `import()` reaches; all zero when there are none. */
  readonly lazy: ChunkSize;
}

/** What a module adds to a bpmn-js bundle: the difference between the bundle with and without it. */
export interface AddedRow {
  readonly added: string;
  readonly to: string;
  /** What the first load grows by: the number the budget is on. */
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The budget for the first load's growth, gzipped. */
  readonly limitGzipKiB: number;
  /** The parts of the first load that grew the most, by their growth, largest first. */
  readonly largest: readonly Part[];
  /** What the lazily loaded chunks grow by, and the parts that grew the most in them. */
  readonly lazy: ChunkSize;
}

/** Every measured bundle and the additions derived from them. */
export interface BundleReport {
  readonly rows: readonly BundleRow[];
  readonly added: readonly AddedRow[];
}

const MODELER = 'import Modeler from "bpmn-js/lib/Modeler";\nexport { Modeler };';
const PANEL =
  'export { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule } from "bpmn-js-properties-panel";';
/** As docs/modeler.md imports it: the module and `BTV_PACKAGE`, both from agentflow/bpmn-js. */
const AGENTFLOW = 'export { default as Agentflow, BTV_PACKAGE } from "./src/bpmn-js/index.js";';
/** `BTV_PACKAGE` taken from agentflow/bpmn instead: esbuild then puts that entry's files first. */
const AGENTFLOW_BPMN_BTV =
  'export { BTV_PACKAGE } from "./src/bpmn/index.js";\nexport { default as Agentflow } from "./src/bpmn-js/index.js";';
const AGENTFLOW_PANEL =
  'export { default as AgentflowPanel } from "./src/bpmn-js/properties-panel/index.js";';

const BUNDLES: readonly (readonly [name: string, code: string])[] = [
  [
    "parseWorkflow + createValidator",
    'export { parseWorkflow } from "./src/model/index.js";\nexport { createValidator } from "./src/validate/index.js";',
  ],
  ["agentflow/bpmn", 'export * from "./src/bpmn/index.js";'],
  ["bpmn-js Modeler", MODELER],
  ["Modeler + agentflow/bpmn-js", `${MODELER}\n${AGENTFLOW}`],
  [
    "Modeler + agentflow/bpmn-js, BTV_PACKAGE from agentflow/bpmn",
    `${MODELER}\n${AGENTFLOW_BPMN_BTV}`,
  ],
  ["Modeler + properties panel", `${MODELER}\n${PANEL}`],
  [
    "Modeler + properties panel + agentflow/bpmn-js + its group",
    `${MODELER}\n${PANEL}\n${AGENTFLOW}\n${AGENTFLOW_PANEL}`,
  ],
];

/** [added, to, bundle with it, bundle without it]. */
const ADDITIONS: readonly (readonly [string, string, string, string])[] = [
  [
    "agentflow/bpmn-js (+ BTV_PACKAGE)",
    "bpmn-js Modeler",
    "Modeler + agentflow/bpmn-js",
    "bpmn-js Modeler",
  ],
  [
    "agentflow/bpmn-js, BTV_PACKAGE from agentflow/bpmn",
    "bpmn-js Modeler",
    "Modeler + agentflow/bpmn-js, BTV_PACKAGE from agentflow/bpmn",
    "bpmn-js Modeler",
  ],
  [
    "agentflow/bpmn-js + properties-panel group",
    "Modeler + bpmn-js-properties-panel",
    "Modeler + properties panel + agentflow/bpmn-js + its group",
    "Modeler + properties panel",
  ],
];

const LIMIT_GZIP_KIB = 60;

/** `node_modules/a/...` → `a`, `node_modules/@s/a/...` → `@s/a`, `src/x/y/f.ts` → `src/x/y`. */
function partOf(path: string): string {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return path.split("/").slice(0, -1).slice(0, 3).join("/");
  const rest = path.slice(at + "node_modules/".length).split("/");
  return rest.slice(0, rest[0]?.startsWith("@") === true ? 2 : 1).join("/");
}

/** Some chunks' bytes, gzipped bytes, every part's minified bytes, and the files they hold. */
export interface Chunks {
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly parts: ReadonlyMap<string, number>;
  /** The input files with code in the chunks, as the metafile names them (`src/bpmn/read.ts`). */
  readonly inputs: ReadonlySet<string>;
}

/** One bundle measured: its first load and its lazy chunks. */
export interface Measured {
  readonly name: string;
  readonly first: Chunks;
  readonly lazy: Chunks;
}

const toKiB = (entries: Iterable<readonly [string, number]>, count: number): Part[] =>
  [...entries]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part, bytes]) => [part, bytes / 1024] as const);

/** The chunks named, summed: each is gzipped alone, as a browser fetches it. */
function chunks(
  names: Iterable<string>,
  files: ReadonlyMap<string, OutputFile>,
  meta: Metafile,
): Chunks {
  let bytes = 0;
  let gzipBytes = 0;
  const parts = new Map<string, number>();
  const inputs = new Set<string>();
  for (const name of names) {
    const code = files.get(name)?.contents ?? new Uint8Array();
    bytes += code.length;
    gzipBytes += gzipSync(code, { level: 9 }).length;
    for (const [path, input] of Object.entries(meta.outputs[name]?.inputs ?? {})) {
      if (input.bytesInOutput > 0) inputs.add(path);
      const part = partOf(path);
      parts.set(part, (parts.get(part) ?? 0) + input.bytesInOutput);
    }
  }
  return { bytes, gzipBytes, parts, inputs };
}

/**
 * The first load: the entry chunk and, transitively, every chunk it imports with an import
 * statement. What only an `import()` reaches is lazy.
 */
function firstLoad(meta: Metafile): Set<string> {
  const entry = Object.keys(meta.outputs).find((name) => meta.outputs[name]?.entryPoint);
  const seen = new Set<string>(entry === undefined ? [] : [entry]);
  const queue = [...seen];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const imported of meta.outputs[name]?.imports ?? []) {
      if (imported.kind !== "import-statement" || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return seen;
}

/** Bundles `contents` (an entry module's text, resolved from the working directory) and measures it. */
export async function measureBundle(name: string, contents: string): Promise<Measured> {
  const outdir = resolve("bundle-out");
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    splitting: true,
    outdir,
    platform: "browser",
    treeShaking: true,
    write: false,
    metafile: true,
    logLevel: "error",
    // bpmn-js-properties-panel's editors import their style sheets; the page loads them itself.
    loader: { ".css": "empty" },
  });
  // The metafile names outputs relative to the working directory; the files carry full paths.
  const files = new Map(
    result.outputFiles.map((file) => [file.path.slice(process.cwd().length + 1), file]),
  );
  const first = firstLoad(result.metafile);
  const lazy = Object.keys(result.metafile.outputs).filter(
    (output) => !first.has(output) && output.endsWith(".js"),
  );
  return {
    name,
    first: chunks(first, files, result.metafile),
    lazy: chunks(lazy, files, result.metafile),
  };
}

const size = (c: Chunks, largest: number): ChunkSize => ({
  minifiedKiB: c.bytes / 1024,
  gzipKiB: c.gzipBytes / 1024,
  largest: toKiB(c.parts, largest),
});

/** What `withIt` adds to `without`, part by part. */
function growth(withIt: Chunks, without: Chunks): Chunks {
  const parts = new Map<string, number>();
  for (const [part, bytes] of withIt.parts) parts.set(part, bytes - (without.parts.get(part) ?? 0));
  return {
    bytes: withIt.bytes - without.bytes,
    gzipBytes: withIt.gzipBytes - without.gzipBytes,
    parts,
    inputs: new Set([...withIt.inputs].filter((input) => !without.inputs.has(input))),
  };
}

function addition(
  added: string,
  to: string,
  withIt: Measured | undefined,
  without: Measured | undefined,
): AddedRow {
  if (withIt === undefined || without === undefined) throw new Error(`no bundles for ${added}`);
  return {
    added,
    to,
    ...size(growth(withIt.first, without.first), 8),
    limitGzipKiB: LIMIT_GZIP_KIB,
    lazy: size(growth(withIt.lazy, without.lazy), 8),
  };
}

/** Bundles each entry, measures it, and derives what agentflow adds to a bpmn-js Modeler. */
export async function benchBundles(): Promise<BundleReport> {
  const measured = new Map<string, Measured>();
  for (const [name, contents] of BUNDLES) measured.set(name, await measureBundle(name, contents));
  return {
    rows: [...measured.values()].map((m) => ({
      bundle: m.name,
      ...size(m.first, 6),
      lazy: size(m.lazy, 6),
    })),
    added: ADDITIONS.map(([added, to, withIt, without]) =>
      addition(added, to, measured.get(withIt), measured.get(without)),
    ),
  };
}

const partList = (parts: readonly Part[]): string =>
  parts.map(([part, kib]) => `${part} ${kib.toFixed(0)}`).join(", ");

/** The bundles as a printable table: first load, then the lazy chunks. */
export function bundleTable(rows: readonly BundleRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    bundle: r.bundle,
    "first load min (KiB)": r.minifiedKiB.toFixed(1),
    "first load gzip (KiB)": r.gzipKiB.toFixed(1),
    "largest parts, first load (min KiB)": partList(r.largest),
    "lazy gzip (KiB)": r.lazy.gzipKiB.toFixed(1),
    "largest parts, lazy (min KiB)": partList(r.lazy.largest),
  }));
}

/** The additions as a printable table: the first load's growth (budgeted), then the lazy chunks'. */
export function addedTable(rows: readonly AddedRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    added: r.added,
    to: r.to,
    "first load min (KiB)": r.minifiedKiB.toFixed(1),
    "first load gzip (KiB)": r.gzipKiB.toFixed(1),
    "gzip budget (KiB)": r.limitGzipKiB.toFixed(0),
    "largest growth, first load (min KiB)": partList(r.largest),
    "lazy gzip (KiB)": r.lazy.gzipKiB.toFixed(1),
    "largest growth, lazy (min KiB)": partList(r.lazy.largest),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await benchBundles();
  console.table(bundleTable(report.rows));
  console.table(addedTable(report.added));
}
