/**
 * The chunks of one esbuild build with `splitting: true`, read from its metafile: their sizes
 * (minified, gzipped one by one as a browser fetches them), the parts they hold (a package or a
 * folder of `src/`), and their tiers: the first load, what one `import()` from it reaches (the
 * first evaluation), and what only a further `import()` reaches (on demand). Used by bundle.ts.
 */
import { gzipSync } from "node:zlib";
import type { Metafile, OutputFile } from "esbuild";

/** A part of a bundle (a package, or a folder of src/) and its minified KiB. */
export type Part = readonly [part: string, kib: number];

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

/** The largest `count` parts, in KiB, largest first. */
export const toKiB = (entries: Iterable<readonly [string, number]>, count: number): Part[] =>
  [...entries]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part, bytes]) => [part, bytes / 1024] as const);

/** The chunks named, summed: each is gzipped alone, as a browser fetches it. */
export function chunks(
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

/** `from` and, transitively, every chunk they import with an import statement. */
function withStaticImports(meta: Metafile, from: Iterable<string>): Set<string> {
  const seen = new Set<string>(from);
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

/** The chunks `chunks` reach with an `import()`. */
function dynamicImports(meta: Metafile, chunks: Iterable<string>): string[] {
  const out: string[] = [];
  for (const name of chunks) {
    for (const imported of meta.outputs[name]?.imports ?? []) {
      if (imported.kind === "dynamic-import") out.push(imported.path);
    }
  }
  return out;
}

/**
 * The tiers of a bundle's chunks: the first load (the entry chunk and what it imports
 * statically), the engine (what one `import()` from the first load reaches, with its static
 * imports), and the rest, which only a further `import()` reaches.
 */
export function tiers(meta: Metafile): {
  first: Set<string>;
  engine: Set<string>;
  onDemand: string[];
} {
  const entry = Object.keys(meta.outputs).find((name) => meta.outputs[name]?.entryPoint);
  const first = withStaticImports(meta, entry === undefined ? [] : [entry]);
  const engine = withStaticImports(meta, dynamicImports(meta, first));
  for (const name of first) engine.delete(name);
  const onDemand = Object.keys(meta.outputs).filter(
    (name) => name.endsWith(".js") && !first.has(name) && !engine.has(name),
  );
  return { first, engine, onDemand };
}
