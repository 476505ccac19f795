/**
 * Package-level promises: every subpath export points at a module that exists, and the core
 * (everything but the CLI) imports nothing from `node:`, so it runs in a browser.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("package", () => {
  const modules = Object.entries(pkg.exports).filter(([, v]) => typeof v !== "string");
  it.each(modules)("export %s maps to a source module", (_key, target) => {
    const js = typeof target === "string" ? target : target.default;
    const source = js.replace("./dist/", "src/").replace(/\.js$/, ".ts");
    expect(existsSync(join(root, source))).toBe(true);
    expect(typeof target === "string" ? "" : target.types).toBe(js.replace(/\.js$/, ".d.ts"));
  });

  it("has the agentflow bin", () => {
    expect(pkg.bin.agentflow).toBe("./bin/agentflow.js");
  });

  const core = files(join(root, "src")).filter((f) => !f.includes("/src/cli/"));
  it.each(core.map((f) => [f.slice(root.length), f]))(
    "%s imports nothing from node:",
    (_name, file) => {
      expect(readFileSync(file, "utf8")).not.toMatch(/from "node:|require\("node:|import\("node:/);
    },
  );
});
