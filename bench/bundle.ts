/**
 * Browser bundle sizes: `parseWorkflow` + `createValidator`, and `agentflow/bpmn`, each bundled by
 * esbuild for the browser (ES module, minified, tree-shaken), with the gzipped size and the
 * largest parts. `node --import tsx bench/bundle.ts` prints the table; `benchBundles()` returns
 * the rows.
 */
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** One bundle's size. */
export interface BundleRow {
  readonly bundle: string;
  readonly minifiedKiB: number;
  readonly gzipKiB: number;
  /** The largest parts (a package, or a folder of src/), minified KiB each, largest first. */
  readonly largest: readonly (readonly [part: string, kib: number])[];
}

const BUNDLES: readonly (readonly [name: string, code: string])[] = [
  [
    "parseWorkflow + createValidator",
    'export { parseWorkflow } from "./src/model/index.js";\nexport { createValidator } from "./src/validate/index.js";',
  ],
  ["agentflow/bpmn", 'export * from "./src/bpmn/index.js";'],
];

/** `node_modules/a/...` → `a`, `node_modules/@s/a/...` → `@s/a`, `src/x/y/...` → `src/x/y`. */
function partOf(path: string): string {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return path.split("/").slice(0, 3).join("/");
  const rest = path.slice(at + "node_modules/".length).split("/");
  return rest.slice(0, rest[0]?.startsWith("@") === true ? 2 : 1).join("/");
}

/** Bundles each entry and measures it. */
export async function benchBundles(): Promise<BundleRow[]> {
  const rows: BundleRow[] = [];
  for (const [name, contents] of BUNDLES) {
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
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    const parts = new Map<string, number>();
    for (const output of Object.values(result.metafile.outputs)) {
      for (const [path, input] of Object.entries(output.inputs)) {
        const part = partOf(path);
        parts.set(part, (parts.get(part) ?? 0) + input.bytesInOutput);
      }
    }
    rows.push({
      bundle: name,
      minifiedKiB: code.length / 1024,
      gzipKiB: gzipSync(code, { level: 9 }).length / 1024,
      largest: [...parts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([part, bytes]) => [part, bytes / 1024] as const),
    });
  }
  return rows;
}

/** The rows as a printable table. */
export function bundleTable(rows: readonly BundleRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    bundle: r.bundle,
    "minified (KiB)": r.minifiedKiB.toFixed(1),
    "gzip (KiB)": r.gzipKiB.toFixed(1),
    "largest parts (minified KiB)": r.largest
      .map(([part, kib]) => `${part} ${kib.toFixed(0)}`)
      .join(", "),
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(bundleTable(await benchBundles()));
}
