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

/**
 * The layers of `src/`, lowest first: a module imports only from its own layer's folders or from
 * lower layers (CONTRIBUTING.md). `bpmn/lint/` is the bpmnlint plugin, an adapter over `bpmn/`
 * and `report/` like the CLI, so it sits with the CLI.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["model"],
  ["autonomy"],
  ["validate", "simulate", "interop"],
  ["bpmn"],
  ["report"],
  ["bpmn/lint", "cli", "bpmn-js"],
  ["index.ts"],
];

/** The folder (or root file) of `src/` a source file belongs to, as named in {@link LAYERS}. */
function moduleOf(path: string): string {
  const rel = path.slice(join(root, "src/").length);
  return rel.startsWith("bpmn/lint/") ? "bpmn/lint" : (rel.split("/")[0] ?? rel);
}

const layerOf = (module: string): number => LAYERS.findIndex((layer) => layer.includes(module));

describe("layers", () => {
  const sources = files(join(root, "src"));
  it("places every folder of src/ in a layer", () => {
    expect(sources.map(moduleOf).filter((m) => layerOf(m) < 0)).toEqual([]);
  });

  it.each(sources.map((f) => [f.slice(root.length), f]))(
    "%s imports nothing from a layer above it",
    (_name, file) => {
      const from = moduleOf(file);
      const text = readFileSync(file, "utf8");
      const upward = [...text.matchAll(/\bfrom "(\.{1,2}\/[^"]+)"/g)]
        .map((m) => moduleOf(join(file, "..", m[1] ?? "")))
        .filter((to) => to !== from && layerOf(to) >= layerOf(from));
      expect(upward).toEqual([]);
    },
  );

  /** `graph` for `src/model/graph/scc.ts`, `""` for a file at the top of `model/`. */
  const roomOf = (path: string): string => {
    const rel = path.slice(join(root, "src/model/").length).split("/");
    return rel.length > 1 ? (rel[0] ?? "") : "";
  };

  it.each(sources.map((f) => [f.slice(root.length), f]))(
    "%s reaches model/ and its rooms only through their faces",
    (_name, file) => {
      const inModel = moduleOf(file) === "model";
      const text = readFileSync(file, "utf8");
      const wrong = [...text.matchAll(/\bfrom "(\.{1,2}\/[^"]+)"/g)]
        .map((m) => join(file, "..", m[1] ?? ""))
        .filter((target) => moduleOf(target) === "model")
        .filter((target) => {
          const name = target.slice(target.lastIndexOf("/") + 1);
          if (!inModel)
            return !["model/index.js", "model/internal.js"].some((f) => target.endsWith(f));
          const room = roomOf(target);
          return room !== "" && room !== roomOf(file) && name !== "index.js";
        })
        .map((target) => target.slice(root.length));
      expect(wrong).toEqual([]);
    },
  );
});
