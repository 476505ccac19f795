/**
 * Where a specifier in a plugin's code leads (src/cli/plugin-resolve.ts): every file some Node
 * >= 20 could load for it — both sides of `module-sync`, the `import` or the `require` targets
 * as the load is one or the other — so the graph does not depend on the Node that computed it.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSpecifier, UnresolvedSpecifier } from "../../src/cli/plugin-resolve.js";
import { tempDir } from "../temp.js";

function tree(files: Record<string, string>): string {
  const dir = realpathSync(tempDir("agentflow-resolve-graph-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const pkg = (manifest: unknown): string =>
  JSON.stringify({ name: "dual", ...(manifest as object) });

describe("resolveSpecifier", () => {
  it("gives both targets of a module-sync split, and the import or require side by the load", () => {
    const dir = tree({
      "p.mjs": "",
      "node_modules/dual/package.json": pkg({
        exports: { "module-sync": "./sync.mjs", import: "./i.mjs", require: "./r.cjs" },
      }),
      "node_modules/dual/sync.mjs": "",
      "node_modules/dual/i.mjs": "",
      "node_modules/dual/r.cjs": "",
    });
    const from = join(dir, "p.mjs");
    const at = (f: string) => join(dir, "node_modules/dual", f);
    expect(resolveSpecifier("dual", from, "import").sort()).toEqual([at("i.mjs"), at("sync.mjs")]);
    expect(resolveSpecifier("dual", from, "require").sort()).toEqual([at("r.cjs"), at("sync.mjs")]);
  });

  it("lets the next condition try when a nested one matches nothing; null exports nothing", () => {
    const dir = tree({
      "p.mjs": "",
      "node_modules/dual/package.json": pkg({
        exports: {
          ".": { node: { browser: "./b.js" }, default: "./d.js" },
          "./hidden": null,
          "./x/*.js": "./long/*.js",
          "./*": "./short/*",
        },
      }),
      "node_modules/dual/d.js": "",
      "node_modules/dual/long/a.js": "",
      "node_modules/dual/short/x/a.js": "",
    });
    const from = join(dir, "p.mjs");
    expect(resolveSpecifier("dual", from, "import")).toEqual([join(dir, "node_modules/dual/d.js")]);
    // The pattern with the longer prefix wins, as in Node.
    expect(resolveSpecifier("dual/x/a.js", from, "import")).toEqual([
      join(dir, "node_modules/dual/long/a.js"),
    ]);
    expect(() => resolveSpecifier("dual/hidden", from, "import")).toThrow(UnresolvedSpecifier);
  });

  it("skips built-ins, and refuses a URL that is not a file and a package that is not there", () => {
    const from = join(tree({ "p.mjs": "" }), "p.mjs");
    expect(resolveSpecifier("node:fs", from, "import")).toEqual([]);
    expect(resolveSpecifier("path", from, "require")).toEqual([]);
    expect(() => resolveSpecifier("data:text/javascript,1", from, "import")).toThrow(
      "a module loaded from a URL is not a file agentflow can pin",
    );
    expect(() => resolveSpecifier("nowhere-to-be-found", from, "import")).toThrow(
      UnresolvedSpecifier,
    );
  });
});
