/**
 * Counts the names each public entry of the package exports (values and types, a name that is
 * both counted once), with the TypeScript checker, so that `export *` chains are resolved the way
 * a user's editor sees them. test/exports.test.ts holds the root entry to its budget with it;
 * `npx tsx scripts/count-exports.ts` prints every entry's count.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The program of the build's source files, read with the build's compiler options. */
function buildProgram(): ts.Program {
  const path = join(ROOT, "tsconfig.build.json");
  const read = ts.readConfigFile(path, (p) => ts.sys.readFile(p));
  const config = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, path);
  return ts.createProgram(config.fileNames, config.options);
}

/**
 * The sorted export names of each source entry (paths relative to the repository root, e.g.
 * `src/index.ts`).
 */
export function exportNames(entries: readonly string[]): Map<string, string[]> {
  const program = buildProgram();
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const entry of entries) {
    const source = program.getSourceFile(join(ROOT, entry));
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entry} is not in the build's program`);
    const names = checker.getExportsOfModule(module).map((s) => s.name);
    out.set(entry, [...new Set(names)].sort());
  }
  return out;
}

/** The source module of each subpath export of package.json that is a module. */
export function packageEntries(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.values(pkg.exports).flatMap((target) =>
    typeof target === "string"
      ? []
      : [target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")],
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const counts = exportNames(packageEntries());
  console.table([...counts].map(([entry, names]) => ({ entry, names: names.length })));
  if (process.argv.includes("--list")) console.log((counts.get("src/index.ts") ?? []).join("\n"));
}
