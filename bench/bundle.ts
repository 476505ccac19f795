/**
 * Browser bundle sizes, each bundled by esbuild for the browser (ES module, minified,
 * tree-shaken, `splitting: true` as a host's bundler splits dynamic imports), with the gzipped
 * size and the largest parts: `parseWorkflow` + `createValidator`, `agentflow/bpmn`, and what
 * `agentflow/bpmn-js` adds to a bpmn-js Modeler — alone, and with its properties-panel group
 * beside bpmn-js-properties-panel, as docs/modeler.md adds them.
 *
 * Each bundle is measured in three tiers: its first load (the entry chunk and every chunk it
 * imports statically: what the page fetches before the modeller is built), what the first
 * evaluation fetches (the chunks one `import()` from the first load reaches: the module's
 * engine), and what only some inputs fetch (chunks behind a further `import()`: the YAML reader,
 * for a YAML snapshot). The budget is on all of them together. Each addition is the difference
 * between two bundles built in the same run, and its contributors are the parts that grew.
 * `node --import tsx bench/bundle.ts` prints the tables; `benchBundles()` returns the rows.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { Chunks, Part } from "./bundle-chunks.js";
import { chunks, tiers, toKiB } from "./bundle-chunks.js";

export type { Chunks, Part } from "./bundle-chunks.js";

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
  /** Of {@link lazy}: the chunks the first evaluation fetches. */
  readonly engine: ChunkSize;
  /** Of {@link lazy}: the chunks only some inputs fetch (behind a second `import()`). */
  readonly onDemand: ChunkSize;
}

/** What a module adds to a bpmn-js bundle: the difference between the bundle with and without it. */
export interface AddedRow {
  readonly added: string;
  readonly to: string;
  /** What the first load grows by. */
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The parts of the first load that grew the most, by their growth, largest first. */
  readonly largest: readonly Part[];
  /** What the lazily loaded chunks grow by, and the parts that grew the most in them. */
  readonly lazy: ChunkSize;
  /** Of {@link lazy}: what the first evaluation fetches. */
  readonly engine: ChunkSize;
  /** Of {@link lazy}: what only some inputs fetch. */
  readonly onDemand: ChunkSize;
  /** Every chunk's growth, gzipped: the number the budget is on. */
  readonly totalGzipKiB: number;
  /** The budget for the growth of every chunk together, gzipped. */
  readonly limitGzipKiB: number;
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

/** One bundle measured: its first load and its lazy chunks. */
export interface Measured {
  readonly name: string;
  readonly first: Chunks;
  /** Every chunk that is not in the first load: {@link engine} and {@link onDemand}. */
  readonly lazy: Chunks;
  /** The chunks one `import()` from the first load reaches, with what they import statically. */
  readonly engine: Chunks;
  /** The chunks only a further `import()` reaches. */
  readonly onDemand: Chunks;
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
  const { first, engine, onDemand } = tiers(result.metafile);
  return {
    name,
    first: chunks(first, files, result.metafile),
    lazy: chunks([...engine, ...onDemand], files, result.metafile),
    engine: chunks(engine, files, result.metafile),
    onDemand: chunks(onDemand, files, result.metafile),
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
  const first = size(growth(withIt.first, without.first), 8);
  const lazy = size(growth(withIt.lazy, without.lazy), 8);
  return {
    added,
    to,
    ...first,
    lazy,
    engine: size(growth(withIt.engine, without.engine), 8),
    onDemand: size(growth(withIt.onDemand, without.onDemand), 8),
    totalGzipKiB: first.gzipKiB + lazy.gzipKiB,
    limitGzipKiB: LIMIT_GZIP_KIB,
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
      engine: size(m.engine, 6),
      onDemand: size(m.onDemand, 6),
    })),
    added: ADDITIONS.map(([added, to, withIt, without]) =>
      addition(added, to, measured.get(withIt), measured.get(without)),
    ),
  };
}

const partList = (parts: readonly Part[]): string =>
  parts.map(([part, kib]) => `${part} ${kib.toFixed(0)}`).join(", ");

/** The bundles as a printable table: first load, first evaluation, on demand. */
export function bundleTable(rows: readonly BundleRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    bundle: r.bundle,
    "first load min (KiB)": r.minifiedKiB.toFixed(1),
    "first load gzip (KiB)": r.gzipKiB.toFixed(1),
    "largest parts, first load (min KiB)": partList(r.largest),
    "first evaluation gzip (KiB)": r.engine.gzipKiB.toFixed(1),
    "largest parts, first evaluation (min KiB)": partList(r.engine.largest),
    "on demand gzip (KiB)": r.onDemand.gzipKiB.toFixed(1),
    "largest parts, on demand (min KiB)": partList(r.onDemand.largest),
  }));
}

/** The additions as a printable table: each tier's growth, then all of it against the budget. */
export function addedTable(rows: readonly AddedRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    added: r.added,
    to: r.to,
    "first load gzip (KiB)": r.gzipKiB.toFixed(1),
    "first evaluation gzip (KiB)": r.engine.gzipKiB.toFixed(1),
    "on demand gzip (KiB)": r.onDemand.gzipKiB.toFixed(1),
    "total gzip (KiB)": r.totalGzipKiB.toFixed(1),
    "gzip budget (KiB)": r.limitGzipKiB.toFixed(0),
    "largest growth, first load (min KiB)": partList(r.largest),
    "largest growth, first evaluation (min KiB)": partList(r.engine.largest),
    "largest growth, on demand (min KiB)": partList(r.onDemand.largest),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await benchBundles();
  console.table(bundleTable(report.rows));
  console.table(addedTable(report.added));
}
