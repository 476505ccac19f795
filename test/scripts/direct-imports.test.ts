/**
 * Node's bundle imports each name from the file declaring it (scripts/direct-imports.ts), found
 * by TypeScript's checker through chains of re-exports (scripts/declarations.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Declaration, DeclarationLookup } from "../../scripts/declarations.js";
import { declarationLookup } from "../../scripts/declarations.js";
import { directImports } from "../../scripts/direct-imports.js";
import { tempDir } from "../temp.js";

/** A project of `files` (paths under `src/`) with a tsconfig building them into `dist/`. */
function project(files: Readonly<Record<string, string>>): string {
  const dir = tempDir("agentflow-declarations-");
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write(
    "tsconfig.json",
    JSON.stringify({
      // No lib files: the fixtures use no global type, and reading lib.d.ts is most of the time.
      compilerOptions: {
        module: "NodeNext",
        strict: true,
        rootDir: "src",
        outDir: "dist",
        noLib: true,
        types: [],
      },
      include: ["src"],
    }),
  );
  for (const [path, text] of Object.entries(files)) write(join("src", path), text);
  return dir;
}

const lookupIn = (dir: string): DeclarationLookup =>
  declarationLookup({
    project: join(dir, "tsconfig.json"),
    rootDir: join(dir, "src"),
    outDir: join(dir, "dist"),
  });

describe("declarationLookup", () => {
  it("follows re-exports, renames and `export *` to the declaring file and its name there", () => {
    const dir = project({
      "index.ts": `export { parse, VERSION as MODEL_VERSION } from "./model/index.js";
export * from "./graph.js";
export { shown } from "./hidden.js";
export type { Shape } from "./model/shape.js";
export const ROOT = 1;`,
      "model/index.ts": `export { parse } from "./parse.js";
export { VERSION } from "./version.js";`,
      "model/parse.ts": "export function parse(): number { return 1; }",
      "model/version.ts": `export const VERSION = "1";`,
      "model/shape.ts": "export interface Shape { readonly x: number }",
      "graph.ts": "export default function walk(): void {}\nexport { walk as graphWalk };",
      "hidden.ts": "function local(): void {}\nexport { local as shown };",
    });
    const dist = (path: string): string => join(dir, "dist", path);
    const found = lookupIn(dir)(dist("index.js"));
    expect(Object.fromEntries(found ?? [])).toEqual({
      parse: { file: dist("model/parse.js"), local: "parse" },
      MODEL_VERSION: { file: dist("model/version.js"), local: "VERSION" },
      // Exported by the declaring file as `default` and as `graphWalk`: the name asked for.
      graphWalk: { file: dist("graph.js"), local: "graphWalk" },
      // Declared as `local`, which its file does not export: the name it exports it by.
      shown: { file: dist("hidden.js"), local: "shown" },
      Shape: { file: dist("model/shape.js"), local: "Shape" },
      ROOT: { file: dist("index.js"), local: "ROOT" },
    });
    expect(lookupIn(dir)(dist("missing.js"))).toBeUndefined();
  });
});

describe("directImports", () => {
  const declared =
    (entries: Record<string, Declaration>): DeclarationLookup =>
    (file) =>
      file === "/p/dist/model/index.js" ? new Map(Object.entries(entries)) : undefined;
  const lookup = declared({
    parse: { file: "/p/dist/model/parse/workflow.js", local: "parse" },
    flowGraph: { file: "/p/dist/model/graph/flow.js", local: "flowGraph" },
    escape: { file: "/p/dist/model/json/pointer.js", local: "escapePointerToken" },
  });

  it.each([
    {
      name: "splits an import by declaring file, keeping each local name",
      text: 'import { parse, flowGraph as graph } from "../model/index.js";',
      out: 'import { parse } from "../model/parse/workflow.js";\nimport { flowGraph as graph } from "../model/graph/flow.js";',
    },
    {
      name: "imports a renamed declaration by its name there",
      text: 'import {\n  escape,\n  parse\n} from "../model/index.js";',
      out: 'import { escapePointerToken as escape } from "../model/json/pointer.js";\nimport { parse } from "../model/parse/workflow.js";',
    },
    {
      name: "rewrites a re-export the same way",
      text: 'export { escape as esc } from "../model/index.js";',
      out: 'export { escapePointerToken as esc } from "../model/json/pointer.js";',
    },
    {
      name: "leaves a name the lookup does not know where it was",
      text: 'import { parse, other } from "../model/index.js";',
      out: 'import { parse } from "../model/parse/workflow.js";\nimport { other } from "../model/index.js";',
    },
    {
      name: "leaves imports of files the lookup does not know, packages and namespaces",
      text: 'import { x } from "./local.js";\nimport { y } from "yaml";\nimport * as m from "../model/index.js";',
      out: 'import { x } from "./local.js";\nimport { y } from "yaml";\nimport * as m from "../model/index.js";',
    },
  ])("$name", ({ text, out }) => {
    expect(directImports("/p/dist/simulate/options.js", text, lookup)).toBe(out);
  });
});
