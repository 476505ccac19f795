/**
 * A plugin's module graph (src/cli/plugin-graph.ts): every file its code can load, found by
 * static imports, re-exports, literal dynamic imports and literal `require` calls, each once,
 * sorted, pinned by one digest; a load that cannot be pinned (a computed specifier, a file
 * outside the repository) refuses the plugin with the file and line.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/io.js";
import { pluginGraph } from "../../src/cli/plugin-graph.js";
import { loadPlugin, locatePlugins, reloadPlugin } from "../../src/cli/plugins.js";
import { tempDir } from "../temp.js";

const WHERE = "c.json: plugin 'acme'";

/** A real temporary folder holding `files` (paths relative to it, folders made). */
function tree(files: Record<string, string>): string {
  const dir = realpathSync(tempDir("agentflow-graph-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The graph of `entry` in `dir`, its files relative to `dir`. */
function graphOf(dir: string, entry = "p.mjs"): { files: string[]; sha256: string } {
  const graph = pluginGraph(join(dir, entry), dir, WHERE);
  return { files: graph.files.map((f) => f.slice(dir.length + 1)), sha256: graph.sha256 };
}

/** The refusal `pluginGraph` throws for `entry` in `dir`. */
function refusal(dir: string, entry = "p.mjs"): string {
  try {
    pluginGraph(join(dir, entry), dir, WHERE);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("not refused");
}

const hex = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("the module graph of a plugin", () => {
  it("follows a relative import, and its digest is the documented one", () => {
    const files = { "p.mjs": 'import h from "./lib/helper.mjs";\n', "lib/helper.mjs": "1;\n" };
    const dir = tree(files);
    const graph = graphOf(dir);
    expect(graph.files).toEqual(["lib/helper.mjs", "p.mjs"]);
    const lines = [`lib/helper.mjs\0${hex("1;\n")}\n`, `p.mjs\0${hex(files["p.mjs"])}\n`];
    expect(graph.sha256).toBe(`sha256:${hex(lines.join(""))}`);
  });

  it("follows re-exports, literal dynamic imports and literal requires, skipping built-ins", () => {
    const dir = tree({
      "p.mjs": [
        'import { readFileSync } from "node:fs";',
        'import "fs";',
        'export { a } from "./a.mjs";',
        'export * from "./b.mjs";',
        'const c = await import("./c.mjs");',
        "const d = await import(`./d.mjs`);",
        '// import("./commented.mjs") and require("./commented.cjs") load nothing',
        "const s = \"require('./in-a-string.cjs')\";",
        'import { createRequire } from "node:module";',
        "const require = createRequire(import.meta.url);",
        'require("./e");',
        "",
      ].join("\n"),
      "a.mjs": "export const a = 1;\n",
      "b.mjs": "export const b = 1;\n",
      "c.mjs": "export default 1;\n",
      "d.mjs": "export default 1;\n",
      "e.cjs": "",
      "e.js": 'module.require("./f.cjs");\nrequire /* why not */ ("./data.json");\n',
      "f.cjs": "x.require(y); myrequire(z);\n",
      "data.json": '{ "require(": 1 }\n',
    });
    // `require("./e")` takes e.js, as Node's extension search does; e.cjs is not loaded.
    expect(graphOf(dir).files).toEqual([
      "a.mjs",
      "b.mjs",
      "c.mjs",
      "d.mjs",
      "data.json",
      "e.js",
      "f.cjs",
      "p.mjs",
    ]);
  });

  it("follows a package in node_modules to its files and to what they import", () => {
    const dir = tree({
      "p.mjs": 'import dep from "dep";\nimport sub from "dep/extra/x";\nimport "plain";\n',
      "node_modules/dep/package.json": JSON.stringify({
        name: "dep",
        exports: {
          ".": { import: "./esm/index.mjs", require: "./cjs/index.cjs" },
          "./extra/*": "./extra/*.mjs",
        },
        // The importing package's own `imports`: the first matching condition wins.
        imports: { "#internal": { node: "./esm/util.mjs", default: "./unused.mjs" } },
      }),
      "node_modules/dep/esm/index.mjs": 'import "./util.mjs";\nimport "#internal";\n',
      "node_modules/dep/esm/util.mjs": "",
      "node_modules/dep/cjs/index.cjs": "",
      "node_modules/dep/extra/x.mjs": 'import "dep";\n',
      "node_modules/dep/unused.mjs": "",
      "node_modules/plain/package.json": JSON.stringify({ name: "plain", main: "lib/main" }),
      "node_modules/plain/lib/main.js": 'require("./more");\n',
      "node_modules/plain/lib/more.js": "",
    });
    // An `import` of "dep" loads its `import` target, not its `require` one; x.mjs's "dep" is
    // the package naming itself.
    expect(graphOf(dir).files).toEqual([
      "node_modules/dep/esm/index.mjs",
      "node_modules/dep/esm/util.mjs",
      "node_modules/dep/extra/x.mjs",
      "node_modules/plain/lib/main.js",
      "node_modules/plain/lib/more.js",
      "p.mjs",
    ]);
  });

  it("leaves out the running agentflow's own code, which a plugin imports for defineRule", () => {
    const kit = pathToFileURL(resolve("dist/rules/index.js")).href;
    const dir = tree({ "p.mjs": `import { defineRule } from ${JSON.stringify(kit)};\n` });
    expect(graphOf(dir).files).toEqual(["p.mjs"]);
    // Another copy of agentflow's code is code like any other: outside the root, refused.
    cpSync(resolve("dist/rules"), join(dir, "..", "copy-rules"), { recursive: true });
    writeFileSync(join(dir, "p.mjs"), 'import "../copy-rules/index.js";\n');
    expect(refusal(dir)).toContain("outside the repository");
  });

  it("takes a cycle between two files once each", () => {
    const dir = tree({
      "p.mjs": 'import "./a.mjs";\n',
      "a.mjs": 'import "./b.mjs";\nexport const a = 1;\n',
      "b.mjs": 'import { a } from "./a.mjs";\nimport "./p.mjs";\n',
    });
    expect(graphOf(dir).files).toEqual(["a.mjs", "b.mjs", "p.mjs"]);
  });

  it("changes its digest when one byte of any file changes, not when the tree moves", () => {
    const files = { "p.mjs": 'import "./h.mjs";\n', "h.mjs": "export const x = 1;\n" };
    const dir = tree(files);
    const before = graphOf(dir).sha256;
    const moved = join(realpathSync(tempDir("agentflow-graph-moved-")), "elsewhere");
    cpSync(dir, moved, { recursive: true });
    expect(graphOf(moved).sha256).toBe(before);
    writeFileSync(join(moved, "h.mjs"), "export const x = 2;\n");
    expect(graphOf(moved).sha256).not.toBe(before);
  });

  it("refuses a dynamic import or require whose specifier is computed, naming file and line", () => {
    const dir = tree({
      "p.mjs": 'import "./q.cjs";\n\nconst name = "./x.mjs";\nawait import(name);\n',
      "q.cjs": 'const k = "./k";\n\nrequire(`${k}.js`);\n',
    });
    expect(refusal(dir)).toBe(
      `${WHERE}: ${join(dir, "p.mjs")}:4: import(…) of a computed specifier: agentflow cannot tell what it loads, so it cannot pin the plugin (load plugin code with string literals only)`,
    );
    writeFileSync(join(dir, "p.mjs"), 'import "./q.cjs";\n');
    expect(refusal(dir)).toMatch(
      new RegExp(`^${WHERE}: ${join(dir, "q.cjs")}:3: require\\(…\\) of a computed specifier`),
    );
  });

  it("refuses a file outside the repository root, through a path or a link", () => {
    const outside = tree({ "x.mjs": "export default 1;\n" });
    const dir = tree({ "repo/p.mjs": `import "../x.mjs";\n`, "x.mjs": "" });
    const root = join(dir, "repo");
    expect(refusal(root)).toBe(
      `${WHERE}: ${join(root, "p.mjs")}:1: '../x.mjs' resolves to ${join(dir, "x.mjs")}, outside the repository (${root}); a config loads plugins from inside its repository only, since loading one runs its code`,
    );
    writeFileSync(join(root, "p.mjs"), 'import "./link.mjs";\n');
    symlinkSync(join(outside, "x.mjs"), join(root, "link.mjs"));
    expect(refusal(root)).toContain(`'./link.mjs' resolves to ${join(outside, "x.mjs")}, outside`);
  });

  it("refuses an import of a file that does not exist, or that is not JavaScript", () => {
    const dir = tree({ "p.mjs": 'import "./gone.mjs";\n' });
    expect(refusal(dir)).toBe(
      `${WHERE}: ${join(dir, "p.mjs")}:1: cannot resolve './gone.mjs' (${join(dir, "gone.mjs")} does not exist), so the plugin cannot be pinned`,
    );
    writeFileSync(join(dir, "p.mjs"), "export default {{;\n");
    expect(refusal(dir)).toMatch(/p\.mjs:1: cannot be read as JavaScript/);
  });
});

describe("a located plugin is pinned by its graph", () => {
  const RULE = `{ meta: { code: "X", defaultSeverity: "warning", description: "x", docs: "https://example.com/x", messages: { default: "x" } }, check() {} }`;

  it("names every file, and a worker refuses it when a file it imports changed", async () => {
    const dir = tree({
      "package.json": '{ "type": "module" }\n',
      "p.js": `import { version } from "./v.js";\nexport default { meta: { name: "p", version }, rules: { X: ${RULE} } };\n`,
      "v.js": 'export const version = "1.0.0";\n',
    });
    const [located] = locatePlugins({ acme: "./p.js" }, "c.json", dir, dir);
    if (located === undefined) throw new Error("not located");
    expect(located.files).toEqual([join(dir, "p.js"), join(dir, "v.js")]);
    expect(located.sha256).toBe(pluginGraph(join(dir, "p.js"), dir, WHERE).sha256);
    const { source } = await loadPlugin(located, "c.json");
    await expect(reloadPlugin(source)).resolves.toMatchObject({ source });
    writeFileSync(join(dir, "v.js"), "// changed\n", { flag: "a" });
    await expect(reloadPlugin(source)).rejects.toThrow(
      `plugin 'acme' (${join(dir, "p.js")}) changed while the run was going on`,
    );
  });
});
