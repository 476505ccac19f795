/**
 * The root entry of Node's bundle (scripts/node-root.ts): values at import, each function loaded
 * from its declaring file's bundle at its first call.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { DeclarationLookup } from "../../scripts/declarations.js";
import { reExportedNames, rootEntrySource, rootPlan } from "../../scripts/node-root.js";
import { tempDir } from "../temp.js";

describe("reExportedNames", () => {
  it("lists each re-exported name with its module, across lines and comments", () => {
    const text = `/** The root. */
export { a, B, } from "./model/index.js";
// the next module
export {
  c,
  d
} from "./validate/index.js";`;
    expect(reExportedNames(text)).toEqual([
      { name: "a", from: "./model/index.js" },
      { name: "B", from: "./model/index.js" },
      { name: "c", from: "./validate/index.js" },
      { name: "d", from: "./validate/index.js" },
    ]);
  });

  it.each([
    ["a declaration", 'export { a } from "./m.js";\nexport const b = 1;', "more than re-exports"],
    ["an export *", 'export * from "./m.js";', "more than re-exports"],
    ["a rename", 'export { a as b } from "./m.js";', "renames an export: a as b"],
  ])("refuses %s, which it would lose", (_what, text, message) => {
    expect(() => reExportedNames(text)).toThrow(message);
  });
});

describe("rootPlan and rootEntrySource", () => {
  /** A `dist/` with a root entry re-exporting everything `m/decl.js` declares. */
  function distWith(declarations: string, names: readonly string[]): [string, string] {
    const dir = tempDir("agentflow-node-root-");
    mkdirSync(join(dir, "dist", "m"), { recursive: true });
    const declared = join(dir, "dist", "m", "decl.js");
    writeFileSync(declared, declarations);
    writeFileSync(
      join(dir, "dist", "index.js"),
      `export { ${names.join(", ")} } from "./m/decl.js";`,
    );
    return [dir, declared];
  }

  it("writes values, classes and finite numbers at load and a forwarder per function", async () => {
    // `renamedHere` reaches the root as `renamed` (a rename down the chain of re-exports).
    const names = [
      "LIST",
      "Failure",
      "run",
      "later",
      "tagged",
      "NAME",
      "LIMIT",
      "FOREVER",
      "renamed",
    ];
    const [dir, declared] = distWith(
      `export const LIST = [1];
export class Failure extends Error {}
export function run(x) { return x + 1; }
export async function later(x) { return x; }
export function tagged() {}
tagged.kind = "x";
export const NAME = "n";
export const LIMIT = 5;
export const FOREVER = Infinity;
export function renamedHere() { return "r"; }
export { renamedHere as renamed };`,
      names,
    );
    const lookup: DeclarationLookup = () =>
      new Map(
        names.map((name) => [
          name,
          { file: declared, local: name === "renamed" ? "renamedHere" : name },
        ]),
      );
    const plan = await rootPlan(join(dir, "dist", "index.js"), join(dir, "dist"), lookup);
    const from = JSON.stringify(declared);
    // Infinity is imported: JSON would write it as null.
    expect(plan.atLoad).toEqual([
      `export { LIST } from ${from};`,
      `export { Failure } from ${from};`,
      `export { tagged } from ${from};`,
      'export const NAME = "n";',
      "export const LIMIT = 5;",
      `export { FOREVER } from ${from};`,
    ]);
    const subpath = "agentflow/m/decl.js";
    expect([...plan.lazy]).toEqual([
      [
        "lazy/m/decl",
        {
          file: declared,
          functions: [
            { local: "run", name: "run", subpath, async: false },
            { local: "later", name: "later", subpath, async: true },
            { local: "renamedHere", name: "renamed", subpath, async: false },
          ],
        },
      ],
    ]);
    const source = rootEntrySource(plan);
    expect(source).toContain(
      'export function renamed(...args) { return __agentflowBundle0("renamed", "agentflow/m/decl.js").renamedHere.apply(this, args); }',
    );
    expect(source).toContain(
      `export async function later(...args) { return (await import(${from})).later.apply(this, args); }`,
    );
  });

  it("loads a function's bundle at its first call, and says why when it cannot", async () => {
    const [dir, declared] = distWith(
      "export function run(x) { return x * 10; }\nexport function gone() {}",
      ["run", "gone"],
    );
    const lookup: DeclarationLookup = () =>
      new Map(["run", "gone"].map((name) => [name, { file: declared, local: name }]));
    const plan = await rootPlan(join(dir, "dist", "index.js"), join(dir, "dist"), lookup);
    const [[entry, group]] = [...plan.lazy] as [[string, { file: string; functions: [] }]];
    const [run, gone] = group.functions as unknown as [object, object];
    // Written beside a bundle of `run` only; `gone` is moved to a bundle that is missing.
    mkdirSync(join(dir, "out", "lazy", "m"), { recursive: true });
    writeFileSync(join(dir, "out", `${entry}.js`), "export function run(x) { return x * 10; }");
    const missing = {
      atLoad: [],
      lazy: new Map([
        [entry, { file: declared, functions: [run] }],
        ["lazy/elsewhere", { file: declared, functions: [gone] }],
      ]),
    } as unknown as typeof plan;
    writeFileSync(join(dir, "out", "index.mjs"), rootEntrySource(missing));
    const root = (await import(pathToFileURL(join(dir, "out", "index.mjs")).href)) as {
      run: (x: number) => number;
      gone: () => void;
    };
    expect(root.run(2)).toBe(20);
    expect(() => {
      root.gone();
    }).toThrow(
      /^agentflow: the code of gone could not be loaded \(Cannot find module '\.\/lazy\/elsewhere\.js'[^]*or import it from agentflow\/m\/decl\.js\.$/,
    );
  });
});
