/**
 * The public functions of the typedoc entry points and the code of their `@example` blocks, for
 * the API-examples test (each runs) and the examples type-check (all at once); and the examples
 * of a class's own TSDoc (RuleTester's, run by its framework test, type-checked with the rest).
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { readTsconfig, ROOT, writeExample } from "../run-example.js";

/** A public function and its examples. */
export interface PublicFunction {
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
export function publicFunctions(): PublicFunction[] {
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

/** A written example: the test's name for it and the module's path. */
export interface WrittenExample {
  readonly name: string;
  readonly file: string;
}

/** Writes every example of `functions` under `test/.generated/<folder>/` and lists them. */
export function writeApiExamples(
  functions: readonly PublicFunction[],
  folder: string,
): WrittenExample[] {
  return functions.flatMap((fn) =>
    fn.examples.map((code, i) => {
      const name = fn.examples.length === 1 ? fn.name : `${fn.name} #${String(i + 1)}`;
      return { name, file: writeExample(`${folder}/${fn.name}.${String(i + 1)}`, code) };
    }),
  );
}

/** The code of the ```` ```ts ```` blocks of the `@example` tags of class `name` in `file`. */
export function classExamples(file: string, name: string): string[] {
  const path = join(ROOT, file);
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.ES2022,
    true,
  );
  const declaration = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name,
  );
  if (declaration === undefined) throw new Error(`no class ${name} in ${file}`);
  return ts
    .getJSDocTags(declaration)
    .filter((tag) => tag.tagName.text === "example")
    .flatMap(exampleCode);
}

/** Where RuleTester is declared: its reference example is the one class example checked. */
export const RULE_TESTER_FILE = "src/testing/rule-tester.ts";
