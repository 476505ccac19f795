/**
 * Package-level promises: every subpath export points at a module that exists, and the core
 * (everything but the CLI, the rule tester and the key files) imports nothing from `node:`, so it
 * runs in a browser.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import MiniCssExtractPlugin from "mini-css-extract-plugin";
import type { Stats } from "webpack";
import webpack from "webpack";
import { describe, expect, it } from "vitest";
import { tempDir } from "./temp.js";

const root = new URL("../", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  main: string;
  types: string;
  exports: Record<string, string | { types: string; default: string }>;
  typesVersions: Record<string, Record<string, string[]>>;
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

  // TypeScript's `node10` resolution (moduleResolution "node") reads no `exports`: the root
  // resolves through `main`/`types` and each other module or JSON file through `typesVersions`
  // (a stylesheet has no types; the wildcards are the CommonJS bpmnlint plugin and data).
  it("resolves every module and JSON export without reading `exports`", () => {
    const dot = pkg.exports["."];
    expect(typeof dot === "object" ? [dot.default, dot.types] : []).toEqual([pkg.main, pkg.types]);
    const typed = (target: string | { types: string }): string[] =>
      typeof target !== "string" ? [target.types] : target.endsWith(".json") ? [target] : [];
    const expected = Object.fromEntries(
      Object.entries(pkg.exports).flatMap(([key, target]) =>
        key === "." || key.includes("*") || key === "./package.json" || typed(target).length === 0
          ? []
          : [[key.slice(2), typed(target)]],
      ),
    );
    expect(pkg.typesVersions).toEqual({ "*": expected });
  });

  /**
   * A project with agentflow installed as a user installs it (its package.json, and the
   * stylesheet where `npm run build` puts it) and a one-line entry, the import docs/modeler.md
   * tells users to write.
   */
  function cssProject(): string {
    const project = tempDir("agentflow-css-");
    const installed = join(project, "node_modules/agentflow");
    const css = (pkg.exports["./bpmn-js/style.css"] as string).replace("./", "");
    mkdirSync(dirname(join(installed, css)), { recursive: true });
    copyFileSync(join(root, "package.json"), join(installed, "package.json"));
    copyFileSync(join(root, "src/bpmn-js/style.css"), join(installed, css));
    writeFileSync(join(project, "entry.js"), 'import "agentflow/bpmn-js/style.css";\n');
    return project;
  }

  it("keeps agentflow/bpmn-js/style.css when esbuild bundles the documented import", async () => {
    const result = await build({
      absWorkingDir: cssProject(),
      entryPoints: ["entry.js"],
      outdir: "out",
      bundle: true,
      write: false,
      logLevel: "silent",
    });
    const output = result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? "";
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    expect(output).toContain(".agentflow-badge");
    expect(output).toContain(".djs-connection.agentflow-bypass");
  });

  it("keeps agentflow/bpmn-js/style.css when webpack bundles the documented import", async () => {
    // webpack, unlike esbuild, prunes a side-effect-free CSS import in production mode.
    const project = cssProject();
    const stats = await new Promise<Stats | undefined>((done, fail) => {
      webpack(
        {
          mode: "production",
          context: project,
          entry: "./entry.js",
          output: { path: join(project, "out") },
          module: { rules: [{ test: /\.css$/, use: [MiniCssExtractPlugin.loader, "css-loader"] }] },
          plugins: [new MiniCssExtractPlugin()],
          resolveLoader: { modules: [join(root, "node_modules")] },
        },
        (error, result) => {
          if (error) fail(error);
          else done(result);
        },
      );
    });
    expect(stats?.hasErrors()).toBe(false);
    const css = join(project, "out/main.css");
    expect(existsSync(css) ? readFileSync(css, "utf8") : "").toContain(".agentflow-badge");
  });

  it("has the agentflow bin", () => {
    expect(pkg.bin.agentflow).toBe("./bin/agentflow.js");
  });

  // The CLI, the rule tester (`agentflow/testing`, asserting with node:assert) and the key files
  // (`agentflow/keys`, node:crypto) run in Node.
  const core = files(join(root, "src")).filter(
    (f) => !f.includes("/src/cli/") && !f.includes("/src/testing/") && !f.includes("/src/keys/"),
  );
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
 * (its rule help URLs come from the rule kit, not from `report/`), so it sits just above `bpmn/`.
 * `conform/` (recorded runs replayed on the approved workflows and processes) sits above the
 * simulator and the gates it replays on, below the report that shows its findings.
 * `keys/` (Node's crypto behind the approval's signer and trusted-key interfaces) sits just below
 * the CLI, which reads keys through it. `camunda-modeler/` (the Modeler plug-in) sits above
 * `bpmn-js/`, whose properties group it registers.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["model"],
  ["autonomy"],
  ["rules"],
  ["policy"],
  ["validate", "simulate", "interop"],
  ["bpmn"],
  ["bpmn/lint"],
  ["approval"],
  ["conform"],
  ["report"],
  ["keys"],
  ["cli", "bpmn-js", "testing"],
  ["camunda-modeler"],
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

  /**
   * Files of `model/` the modeller's first load reaches directly: a face would bring the engine
   * with it (esbuild splits by file, docs/performance.md), so only a file that imports nothing.
   */
  const FIRST_LOAD_LEAVES = ["model/text/visible.js"];

  it("reaches the first load's leaves of model/ only where they import nothing", () => {
    for (const leaf of FIRST_LOAD_LEAVES) {
      const text = readFileSync(join(root, "src", leaf.replace(/\.js$/, ".ts")), "utf8");
      expect(text, leaf).not.toMatch(/^import .* from /m);
    }
  });

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
            return ![...FIRST_LOAD_LEAVES, "model/index.js", "model/internal.js"].some((f) =>
              target.endsWith(f),
            );
          const room = roomOf(target);
          return room !== "" && room !== roomOf(file) && name !== "index.js";
        })
        .map((target) => target.slice(root.length));
      expect(wrong).toEqual([]);
    },
  );
});
