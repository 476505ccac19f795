/**
 * Runs documentation code as a user would write it. An example imports from the package's public
 * subpaths (`agentflow`, `agentflow/model`, `agentflow/bpmnlint`, ...); the import specifiers are
 * rewritten to the source modules those subpaths are built from (read from package.json's
 * `exports`), the code is written to a module under `test/.generated/` (git-ignored), and that
 * module is imported, so vite transpiles it and top-level `await` works as in any module.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { expect } from "vitest";
import { RuleTester } from "../src/testing/index.js";

/** The repository root, with a trailing separator. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Where examples are written; one subfolder per test file, so that parallel files never collide. */
export const GENERATED = join(ROOT, "test", ".generated");

interface PackageJson {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | { readonly default: string }>>;
}

/** Public module specifier (`agentflow/model`) → absolute path of its source module. */
export function sourceModules(): ReadonlyMap<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  const modules = new Map<string, string>();
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue; // data files and the CommonJS plugin, not modules
    const specifier = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    const source = target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
    modules.set(specifier, join(ROOT, source));
  }
  return modules;
}

const MODULES = sourceModules();
/** `from "agentflow/x"`, `import "agentflow/x"` and `import("agentflow/x")`, either quote. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(agentflow(?:\/[^"'\n]*)?)\2/g;

/**
 * Rewrites the public specifiers in `code` to relative imports of the source modules, as seen
 * from `file`. Written with `.js`, as the sources import each other under NodeNext; vite maps
 * them to the `.ts` files. A subpath the package does not export is an error in the example.
 */
export function rewriteImports(code: string, file: string): string {
  return code.replace(SPECIFIER, (_match, lead: string, quote: string, specifier: string) => {
    const source = MODULES.get(specifier);
    if (source === undefined) throw new Error(`"${specifier}" is not a public module`);
    let path = relative(dirname(file), source).split(sep).join("/");
    if (!path.startsWith(".")) path = `./${path}`;
    return `${lead}${quote}${path.replace(/\.ts$/, ".js")}${quote}`;
  });
}

/** Empties `test/.generated/<folder>`, so that no example from an earlier run lingers. */
export function resetGenerated(folder: string): void {
  rmSync(join(GENERATED, folder), { recursive: true, force: true });
}

/** `value; // → shown` or `const name = value; // → shown`, on one line. */
const SHOWN = /^(\s*)(?:(?:const|let) ([A-Za-z_$][\w$]*) = )?(.+?);\s*\/\/ → (.+)$/;
/** The ids of the shown-value lines that ran. */
const reached = new Set<string>();

/** Called by a written example: asserts one shown value and records that its line ran. */
export function shownValue(id: string, actual: unknown, expected: unknown): void {
  expect(actual, id).toEqual(expected);
  reached.add(id);
}

/**
 * Makes the values an example shows true by construction: a line `value; // → shown` (or
 * `const name = value; // → shown`, or `// → shown` alone on the line after the statement, going
 * on over `//   indented` lines) also asserts that the value deep-equals `shown`, which must
 * therefore be a JavaScript expression, and the line must run (not sit in a branch not taken).
 * Comments in any other form are prose and are not checked. Returns the code and the line ids.
 */
export function checkShownValues(
  code: string,
  file: string,
): { readonly code: string; readonly ids: readonly string[] } {
  const ids: string[] = [];
  const where = relative(ROOT, file).split(sep).join("/");
  // A value too long for its line may be shown alone on the next one (`// → shown`) and go on
  // over lines indented inside the comment (`//   more`), as a formatter would break it.
  const merged: string[] = [];
  let last = -1; // the line a `// →` or `//   ` line adds to
  for (const line of code.split("\n")) {
    const previous = merged[last] ?? "";
    const shown = /^\s*\/\/ → /.test(line) && previous.endsWith(";");
    const continued = /^\s*\/\/ {2,}\S/.test(line) && previous.includes("// → ");
    if (shown || continued) {
      const text = shown ? line.trim() : line.replace(/^\s*\/\/\s+/, "");
      merged[last] = `${previous} ${text}`;
      merged.push(""); // keeps the line numbers of the example
    } else {
      last = merged.length;
      merged.push(line);
    }
  }
  const lines = merged.map((line, i) => {
    const m = SHOWN.exec(line);
    if (m === null) return line;
    const [, indent = "", name, value = "", shown = ""] = m;
    const id = `${where}:${i + 2}`; // the import of shownValue comes first
    ids.push(id);
    if (name === undefined) return `${indent}shownValue("${id}", ${value}, ${shown});`;
    return `${line} shownValue("${id}", ${name}, ${shown});`;
  });
  if (ids.length === 0) return { code, ids };
  const helper = relative(dirname(file), fileURLToPath(import.meta.url))
    .split(sep)
    .join("/");
  const load = `import { shownValue } from "${helper.replace(/\.ts$/, ".js")}";`;
  return { code: `${load}\n${lines.join("\n")}`, ids };
}

/**
 * Writes an example as `test/.generated/<name>.ts`, its imports rewritten and its shown values
 * checked, and returns the path. The module exports the ids of its shown-value lines, or nothing:
 * `export {}` keeps a file without imports a module, where top-level `await` is allowed.
 */
export function writeExample(name: string, code: string): string {
  const file = join(GENERATED, `${name}.ts`);
  mkdirSync(dirname(file), { recursive: true });
  const checked = checkShownValues(rewriteImports(code, file), file);
  const exported =
    checked.ids.length === 0
      ? "export {};"
      : `export const shownLines = ${JSON.stringify(checked.ids)};`;
  writeFileSync(file, `${checked.code}\n${exported}\n`);
  return file;
}

/**
 * Runs a written example: importing the module runs it, top-level `await` included. Then every
 * shown-value line must have run. An example may set the rule tester's framework (a plain script
 * sets none); it is unset after, so that the files after it in the worker register their cases
 * with their own `describe` and `it` (setup.ts).
 */
export async function runExample(file: string): Promise<void> {
  let module: { readonly shownLines?: readonly string[] };
  try {
    module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof module;
  } finally {
    RuleTester.describe = RuleTester.it = RuleTester.itOnly = undefined;
  }
  const missed = (module.shownLines ?? []).filter((id) => !reached.has(id));
  expect(missed, "shown values on lines that did not run").toEqual([]);
}

/** The parsed compiler options and files of a tsconfig in the repository. */
export function readTsconfig(name: string): ts.ParsedCommandLine {
  const path = join(ROOT, name);
  const read = ts.readConfigFile(path, (p) => ts.sys.readFile(p));
  if (read.error !== undefined) throw new Error(flatten(read.error));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, path);
}

/**
 * Type-checks written examples with the repository's compiler options (tsconfig.json: strict,
 * NodeNext) and returns the problems found in them, one line each with file, line and column.
 * Only the examples are checked (and what they use, as far as the checker needs it): `src` is
 * type-checked whole by `npm run typecheck`, and checking it again here was most of the time.
 */
export function typeErrors(files: readonly string[]): string[] {
  const { options } = readTsconfig("tsconfig.json");
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const name of files) {
    // Asked without a file, the program would check every file it holds.
    const file = program.getSourceFile(name);
    if (file === undefined) throw new Error(`${name} is not in the program`);
    diagnostics.push(
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    );
  }
  return diagnostics.map((d) => {
    if (d.file === undefined || d.start === undefined) return flatten(d);
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const where = relative(ROOT, d.file.fileName).split(sep).join("/");
    return `${where}:${line + 1}:${character + 1}: ${flatten(d)}`;
  });
}

function flatten(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
}
