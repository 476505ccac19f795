/**
 * Finding a plugin package's ES module entry as Node's `import` would: `node_modules` upward
 * from the config's folder, the package's `exports` under the `import`, `node` and `default`
 * conditions (in the package's order), else `main`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePackage } from "../../src/cli/package-resolve.js";
import { tempDir } from "../temp.js";

function pkg(root: string, name: string, manifest: unknown): string {
  const dir = join(root, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  return dir;
}

describe("resolvePackage", () => {
  const root = tempDir("agentflow-resolve-");
  const deep = join(root, "a", "b");
  mkdirSync(deep, { recursive: true });
  const onlyImport = pkg(root, "@acme/rules", {
    exports: {
      ".": { types: "./index.d.ts", import: "./esm/index.js", require: "./cjs/index.cjs" },
    },
  });
  const nested = pkg(root, "nested", {
    exports: { ".": { node: { import: "./node.mjs", default: "./node.cjs" }, default: "./x.js" } },
  });
  const sugar = pkg(root, "sugar", { exports: "./main.js" });
  const plain = pkg(root, "plain", { main: "lib/plugin.js" });
  const bare = pkg(root, "bare", {});
  const subpaths = pkg(root, "subpaths", { exports: { "./rules": { import: "./r.js" } } });

  it("follows the conditions in the package's order, looking upward from the folder", () => {
    expect(resolvePackage("@acme/rules", deep)).toBe(join(onlyImport, "esm/index.js"));
    expect(resolvePackage("nested", deep)).toBe(join(nested, "node.mjs"));
    expect(resolvePackage("sugar", root)).toBe(join(sugar, "main.js"));
  });

  it("falls back to main, then index.js, without exports", () => {
    expect(resolvePackage("plain", root)).toBe(join(plain, "lib/plugin.js"));
    expect(resolvePackage("bare", root)).toBe(join(bare, "index.js"));
  });

  it("resolves exported subpaths only", () => {
    expect(resolvePackage("subpaths/rules", root)).toBe(join(subpaths, "r.js"));
    expect(resolvePackage("subpaths", root)).toBeUndefined();
    expect(resolvePackage("sugar/other", root)).toBeUndefined();
  });

  it("finds nothing for a package that is not installed", () => {
    expect(resolvePackage("nowhere", deep)).toBeUndefined();
  });
});
