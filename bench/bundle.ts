/**
 * Browser bundle sizes, each bundled by esbuild for the browser (ES module, minified,
 * tree-shaken), with the gzipped size and the largest parts: `parseWorkflow` + `createValidator`,
 * `agentflow/bpmn`, and what `agentflow/bpmn-js` adds to a bpmn-js Modeler — alone, and with its
 * properties-panel group beside bpmn-js-properties-panel, as docs/modeler.md adds them. Each
 * addition is the difference between two bundles built in the same run, and its contributors are
 * the parts that grew. `node --import tsx bench/bundle.ts` prints the tables; `benchBundles()`
 * returns the rows.
 */
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** A part of a bundle (a package, or a folder of src/) and its minified KiB. */
export type Part = readonly [part: string, kib: number];

/** One bundle's size. */
export interface BundleRow {
  readonly bundle: string;
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The largest parts, largest first. */
  readonly largest: readonly Part[];
}

/** What a module adds to a bpmn-js bundle: the difference between the bundle with and without it. */
export interface AddedRow {
  readonly added: string;
  readonly to: string;
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The budget for the addition, gzipped. */
  readonly limitGzipKiB: number;
  /** The parts that grew the most, by their growth, largest first. */
  readonly largest: readonly Part[];
}

/** Every measured bundle and the additions derived from them. */
export interface BundleReport {
  readonly rows: readonly BundleRow[];
  readonly added: readonly AddedRow[];
}

const MODELER = 'import Modeler from "bpmn-js/lib/Modeler";\nexport { Modeler };';
const PANEL =
  'export { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule } from "bpmn-js-properties-panel";';
const AGENTFLOW =
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

interface Measured extends BundleRow {
  readonly code: Uint8Array;
  /** Every part's minified bytes. */
  readonly parts: ReadonlyMap<string, number>;
}

const toKiB = (entries: Iterable<readonly [string, number]>, count: number): Part[] =>
  [...entries]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part, bytes]) => [part, bytes / 1024] as const);

async function measure(name: string, contents: string): Promise<Measured> {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    treeShaking: true,
    write: false,
    metafile: true,
    logLevel: "error",
    // bpmn-js-properties-panel's editors import their style sheets; the page loads them itself.
    loader: { ".css": "empty" },
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const parts = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const part = partOf(path);
      parts.set(part, (parts.get(part) ?? 0) + input.bytesInOutput);
    }
  }
  return {
    bundle: name,
    code,
    parts,
    minifiedKiB: code.length / 1024,
    gzipKiB: gzipSync(code, { level: 9 }).length / 1024,
    largest: toKiB(parts, 6),
  };
}

function addition(
  added: string,
  to: string,
  withIt: Measured | undefined,
  without: Measured | undefined,
): AddedRow {
  if (withIt === undefined || without === undefined) throw new Error(`no bundles for ${added}`);
  const growth = [...withIt.parts].map(
    ([part, bytes]) => [part, bytes - (without.parts.get(part) ?? 0)] as const,
  );
  return {
    added,
    to,
    minifiedKiB: withIt.minifiedKiB - without.minifiedKiB,
    gzipKiB: withIt.gzipKiB - without.gzipKiB,
    limitGzipKiB: LIMIT_GZIP_KIB,
    largest: toKiB(growth, 8),
  };
}

/** Bundles each entry, measures it, and derives what agentflow adds to a bpmn-js Modeler. */
export async function benchBundles(): Promise<BundleReport> {
  const measured = new Map<string, Measured>();
  for (const [name, contents] of BUNDLES) measured.set(name, await measure(name, contents));
  return {
    rows: [...measured.values()].map(({ bundle, minifiedKiB, gzipKiB, largest }) => ({
      bundle,
      minifiedKiB,
      gzipKiB,
      largest,
    })),
    added: ADDITIONS.map(([added, to, withIt, without]) =>
      addition(added, to, measured.get(withIt), measured.get(without)),
    ),
  };
}

const partList = (parts: readonly Part[]): string =>
  parts.map(([part, kib]) => `${part} ${kib.toFixed(0)}`).join(", ");

/** The bundles as a printable table. */
export function bundleTable(rows: readonly BundleRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    bundle: r.bundle,
    "minified (KiB)": r.minifiedKiB.toFixed(1),
    "gzip (KiB)": r.gzipKiB.toFixed(1),
    "largest parts (minified KiB)": partList(r.largest),
  }));
}

/** The additions as a printable table. */
export function addedTable(rows: readonly AddedRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    added: r.added,
    to: r.to,
    "minified (KiB)": r.minifiedKiB.toFixed(1),
    "gzip (KiB)": r.gzipKiB.toFixed(1),
    "gzip budget (KiB)": r.limitGzipKiB.toFixed(0),
    "largest growth (minified KiB)": partList(r.largest),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await benchBundles();
  console.table(bundleTable(report.rows));
  console.table(addedTable(report.added));
}
