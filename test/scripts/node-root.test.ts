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
  it("lists the names of every re-export, across lines and comments", () => {
    const text = `/** The root. */
export { a, B, } from "./model/index.js";
// the next module
export {
  c,
  d
} from "./validate/index.js";`;
    expect(reExportedNames(text)).toEqual(["a", "B", "c", "d"]);
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
  it("writes values, classes and numbers at load and a forwarder per function", async () => {
    const dir = tempDir("agentflow-node-root-");
    mkdirSync(join(dir, "dist", "m"), { recursive: true });
    const declared = join(dir, "dist", "m", "decl.js");
    // `renamedHere` reaches the root as `renamed` (a rename down the chain of re-exports).
    writeFileSync(
      declared,
      `export const LIST = [1];
export class Failure extends Error {}
export function run(x) { return x + 1; }
export function tagged() {}
tagged.kind = "x";
export const NAME = "n";
export const LIMIT = 5;
export function renamedHere() { return "r"; }
export { renamedHere as renamed };`,
    );
    const entry = join(dir, "dist", "index.js");
    writeFileSync(
      entry,
      'export { LIST, Failure, run, tagged, NAME, LIMIT, renamed } from "./m/decl.js";',
    );
    const lookup: DeclarationLookup = () =>
      new Map(
        ["LIST", "Failure", "run", "tagged", "NAME", "LIMIT", "renamed"].map((name) => [
          name,
          { file: declared, local: name === "renamed" ? "renamedHere" : name },
        ]),
      );
    const plan = await rootPlan(entry, join(dir, "dist"), lookup);
    expect(plan.atLoad).toEqual([
      `export { LIST } from ${JSON.stringify(declared)};`,
      `export { Failure } from ${JSON.stringify(declared)};`,
      `export { tagged } from ${JSON.stringify(declared)};`,
      'export const NAME = "n";',
      "export const LIMIT = 5;",
    ]);
    expect([...plan.lazy]).toEqual([
      [
        "lazy/m/decl",
        {
          file: declared,
          names: [
            ["run", "run"],
            ["renamedHere", "renamed"],
          ],
        },
      ],
    ]);
    const source = rootEntrySource(plan);
    expect(source).toContain(
      'const __agentflowBundle0 = () => (__agentflowBundle0Loaded ??= __agentflowLoad("./lazy/m/decl.js"));',
    );
    expect(source).toContain(
      "export function renamed(...args) { return __agentflowBundle0().renamedHere.apply(this, args); }",
    );
    // The source runs: written beside a `lazy/m/decl.js`, the forwarder loads it at its call.
    mkdirSync(join(dir, "out", "lazy", "m"), { recursive: true });
    writeFileSync(
      join(dir, "out", "lazy", "m", "decl.js"),
      "export function run(x) { return x * 10; }\nexport function renamedHere() { return 'loaded'; }",
    );
    writeFileSync(join(dir, "out", "index.mjs"), source);
    const root = (await import(pathToFileURL(join(dir, "out", "index.mjs")).href)) as {
      run: (x: number) => number;
      renamed: () => string;
      NAME: string;
    };
    expect([root.run(2), root.renamed(), root.NAME]).toEqual([20, "loaded", "n"]);
  });
});
