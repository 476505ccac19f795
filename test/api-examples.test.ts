/**
 * The API reference shows how to call every public function (issue 7): each function exported
 * from a typedoc entry point has an `@example` with a ```` ```ts ```` block that imports from the
 * package's public subpaths. The examples are run here as written (imports pointed at `src`) and
 * type-checked with the repository's compiler options, so an example cannot drift from the API.
 * A value an example shows as `value; // → shown` is asserted too (see run-example.ts): what the
 * reference says a call returns is what it returns.
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  readTsconfig,
  resetGenerated,
  ROOT,
  runExample,
  typeErrors,
  writeExample,
} from "./run-example.js";

/**
 * Public functions allowed to lack an `@example` for a while (e.g. while another change edits
 * their file). Empty: every public function has one. A stale name fails the test.
 */
const PENDING_EXAMPLES: ReadonlySet<string> = new Set([]);

interface PublicFunction {
  readonly name: string;
  /** The declaring file, relative to the repository root. */
  readonly file: string;
  /** The code of each ```` ```ts ```` block of each `@example`. */
  readonly examples: readonly string[];
  readonly exampleTags: number;
  /** `@example` tags without a ```` ```ts ```` block. */
  readonly tagsWithoutCode: number;
}

/** A function declaration, or a `const` initialised with an arrow function or function expression. */
function isFunction(declaration: ts.Declaration): boolean {
  if (ts.isFunctionDeclaration(declaration)) return true;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer === undefined) return false;
  const init = declaration.initializer;
  return ts.isArrowFunction(init) || ts.isFunctionExpression(init);
}

/** The ```` ```ts ```` blocks of an `@example` tag, from its source text (` * ` prefixes removed). */
function exampleCode(tag: ts.JSDocTag): string[] {
  const text = tag
    .getSourceFile()
    .text.slice(tag.pos, tag.end)
    .split("\n")
    .map((line) => line.replace(/^\s*\*(?: |$)/, ""))
    .join("\n");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
}

/** Every function reachable from the typedoc entry points, re-exports resolved to declarations. */
function publicFunctions(): PublicFunction[] {
  const config = readTsconfig("tsconfig.build.json");
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const typedoc = JSON.parse(readFileSync(join(ROOT, "typedoc.json"), "utf8")) as {
    entryPoints: string[];
  };
  const found = new Map<ts.Declaration, PublicFunction>();
  for (const entry of typedoc.entryPoints) {
    const source = program.getSourceFile(join(ROOT, entry));
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`entry point ${entry} is not in the program`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = (symbol.declarations ?? []).filter(isFunction);
      const first = declarations[0];
      if (first === undefined || found.has(first)) continue;
      // Overloads: the tags of every signature count (typedoc shows them per signature).
      const tags = declarations.flatMap((d) => ts.getJSDocTags(d));
      const blocks = tags.filter((t) => t.tagName.text === "example").map(exampleCode);
      found.set(first, {
        name: symbol.name,
        file: relative(ROOT, first.getSourceFile().fileName).split(sep).join("/"),
        examples: blocks.flat(),
        exampleTags: blocks.length,
        tagsWithoutCode: blocks.filter((b) => b.length === 0).length,
      });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const functions = publicFunctions();

resetGenerated("api");
const examples = functions.flatMap((fn) =>
  fn.examples.map((code, i) => {
    const name = fn.examples.length === 1 ? fn.name : `${fn.name} #${i + 1}`;
    return { name, file: writeExample(`api/${fn.name}.${i + 1}`, code) };
  }),
);

describe("API examples", () => {
  it("finds the public functions", () => {
    expect(functions.length).toBeGreaterThan(100);
    expect(new Set(functions.map((f) => f.name)).size).toBe(functions.length);
  });

  it("lists only public functions without an example as pending", () => {
    const names = new Set(functions.map((f) => f.name));
    const stale = [...PENDING_EXAMPLES].filter((name) => {
      const fn = functions.find((f) => f.name === name);
      return !names.has(name) || (fn !== undefined && fn.exampleTags > 0);
    });
    expect(stale, "remove these from PENDING_EXAMPLES").toEqual([]);
  });

  it.each(functions.filter((f) => !PENDING_EXAMPLES.has(f.name)).map((f) => [f.name, f] as const))(
    "%s has an @example with a ts block",
    (_name, fn) => {
      expect(fn.exampleTags, `${fn.file}: ${fn.name} has no @example`).toBeGreaterThan(0);
      expect(fn.tagsWithoutCode, `${fn.file}: an @example of ${fn.name} has no ts block`).toBe(0);
      for (const code of fn.examples) {
        expect(code, `${fn.file}: imports from the package`).toMatch(/ from "agentflow(\/|")/);
      }
    },
  );

  it.each(examples.map((e) => [e.name, e.file] as const))(
    "the example of %s runs",
    async (_name, file) => {
      await runExample(file);
    },
  );

  it("the examples type-check", () => {
    expect(typeErrors(examples.map((e) => e.file))).toEqual([]);
  });
});
