/**
 * Where each exported name of tsc's output is declared, read with TypeScript's checker: the file a
 * chain of re-exports (`index.ts` → `parse/index.ts` → `parse/workflow.ts`) ends in, and the name
 * it has there. Node's bundle (bundle-lib.ts) imports each name from there (direct-imports.ts,
 * node-root.ts).
 */
import { relative, resolve } from "node:path";
import ts from "typescript";

/** Where tsc reads and writes: `src/x.ts` is built to `dist/x.js`. */
export interface TscLayout {
  /** tsc's project file (`tsconfig.build.json`): its files are the program's. */
  readonly project: string;
  /** Where the sources are (`src`). */
  readonly rootDir: string;
  /** Where tsc writes them (`dist`). */
  readonly outDir: string;
}

/** A name's declaration: the built file, and the name it has there (`default`, or another). */
export interface Declaration {
  readonly file: string;
  readonly local: string;
}

/** The declarations of each built file's exports, by export name; `undefined` for a file tsc did not build. */
export type DeclarationLookup = (builtFile: string) => ReadonlyMap<string, Declaration> | undefined;

/** One TypeScript program over the project; each file's exports resolved at its first lookup. */
export function declarationLookup(layout: TscLayout): DeclarationLookup {
  const config = ts.getParsedCommandLineOfConfigFile(
    layout.project,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error(`TypeScript cannot read ${layout.project}`);
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const rootDir = resolve(layout.rootDir);
  const outDir = resolve(layout.outDir);
  const built = (source: string): string =>
    resolve(outDir, relative(rootDir, source)).replace(/\.ts$/, ".js");
  /**
   * The name `source` exports `symbol` by: `name` when it does, else another (a declaration
   * exported as `default` or under a second name). `undefined` if it exports it by none.
   */
  const exportedAs = (
    source: ts.SourceFile,
    symbol: ts.Symbol,
    name: string,
  ): string | undefined => {
    const module = checker.getSymbolAtLocation(source);
    if (module === undefined) return undefined;
    const names = checker
      .getExportsOfModule(module)
      .filter((e) => (e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e) === symbol)
      .map((e) => e.name);
    return names.includes(name) ? name : names[0];
  };
  const cache = new Map<string, ReadonlyMap<string, Declaration> | undefined>();
  return (builtFile) => {
    const file = resolve(builtFile);
    if (cache.has(file)) return cache.get(file);
    const source = program.getSourceFile(
      resolve(rootDir, relative(outDir, file)).replace(/\.js$/, ".ts"),
    );
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    let found: Map<string, Declaration> | undefined;
    if (module !== undefined) {
      found = new Map();
      for (const exported of checker.getExportsOfModule(module)) {
        const symbol =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const declaration = symbol.declarations?.[0];
        // A namespace re-export (`export * as x`) or a declaration outside the project: as written.
        if (declaration === undefined || ts.isSourceFile(declaration)) continue;
        const declaredIn = declaration.getSourceFile().fileName;
        const outside = relative(rootDir, declaredIn).startsWith("..");
        if (outside || !declaredIn.endsWith(".ts") || declaredIn.endsWith(".d.ts")) continue;
        const local = exportedAs(declaration.getSourceFile(), symbol, exported.name);
        if (local !== undefined) found.set(exported.name, { file: built(declaredIn), local });
      }
    }
    cache.set(file, found);
    return found;
  };
}
