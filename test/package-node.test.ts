/**
 * The Node build (scripts/bundle-lib.ts): Node resolves `agentflow` and each subpath with a
 * `node` condition to the bundle in `dist/node/`, which exports the same names as tsc's files,
 * gives the same results, and holds one copy of each module for the root and the subpaths.
 * Needs `dist/` (`npm run build`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./temp.js";

const root = new URL("../", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | Record<string, string>>;
};
const bundled = Object.entries(pkg.exports).flatMap(([key, target]) =>
  typeof target !== "string" && target.node !== undefined && target.default !== undefined
    ? [{ key, node: target.node, tsc: target.default }]
    : [],
);

/** Runs `script` as an ES module in a fresh Node process from the repository; its JSON output. */
function run(script: string): unknown {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as unknown;
}

const url = (file: string): string => JSON.stringify(new URL(file, `file://${root}`).href);

describe("the Node build", () => {
  it("covers every module entry but the browser modules", () => {
    // A module entry left out would load tsc's files beside the bundle: a second copy of every
    // module both reach, with its own classes and caches.
    const modules = Object.entries(pkg.exports).flatMap(([key, target]) =>
      typeof target !== "string" && target.types !== undefined ? [key] : [],
    );
    const browserOnly = ["./bpmn-js", "./bpmn-js/properties-panel"];
    expect(bundled.map((b) => b.key)).toEqual(modules.filter((key) => !browserOnly.includes(key)));
    for (const { node } of bundled) expect(existsSync(join(root, node))).toBe(true);
  });

  it("is what Node resolves `agentflow` and its subpaths to", () => {
    const specifiers = bundled.map((b) =>
      b.key === "." ? "agentflow" : `agentflow${b.key.slice(1)}`,
    );
    const resolved = run(
      `console.log(JSON.stringify(${JSON.stringify(specifiers)}.map((s) => import.meta.resolve(s))))`,
    );
    expect(resolved).toEqual(bundled.map((b) => new URL(b.node, `file://${root}`).href));
  });

  it("exports from each entry the names tsc's build exports", () => {
    // One process for every entry: each import of tsc's files loads hundreds of modules.
    const pairs = bundled.map(
      ({ key, node, tsc }) => `[${JSON.stringify(key)}, ${url(node)}, ${url(tsc)}]`,
    );
    const names = run(
      `const out = {};
       for (const [key, node, tsc] of [${pairs.join(", ")}]) {
         const [a, b] = await Promise.all([import(node), import(tsc)]);
         out[key] = [Object.keys(a).sort(), Object.keys(b).sort()];
       }
       console.log(JSON.stringify(out));`,
    ) as Record<string, [string[], string[]]>;
    expect(Object.keys(names)).toEqual(bundled.map((b) => b.key));
    for (const [key, [node, tsc]] of Object.entries(names)) {
      expect({ key, names: node }).toEqual({ key, names: tsc });
      expect(node.length).toBeGreaterThan(0);
    }
  });

  it("holds one copy of each module: the root's classes and values are the subpaths'", () => {
    const same = run(
      `const [r, i, s, b, m, a] = await Promise.all(["agentflow", "agentflow/interop",
         "agentflow/simulate", "agentflow/bpmn", "agentflow/model", "agentflow/autonomy"].map((p) => import(p)));
       console.log(JSON.stringify([r.ImportError === i.ImportError,
         r.OptionTypeError === s.OptionTypeError, r.RegistryConflictError === b.RegistryConflictError,
         r.agentWorkflowSchema === m.agentWorkflowSchema, r.AUTONOMY_SCALE === a.AUTONOMY_SCALE,
         r.ImportError.name, r.OptionTypeError.name]));`,
    );
    expect(same).toEqual([true, true, true, true, true, "ImportError", "OptionTypeError"]);
  });

  it("forwards each root function to the module that defines it, thrown errors included", () => {
    const seen = run(
      `const [r, i, s] = await Promise.all(["agentflow", "agentflow/interop", "agentflow/simulate"]
         .map((p) => import(p)));
       const caught = (f) => { try { f(); return "returned"; } catch (e) { return e; } };
       const option = caught(() => r.simulate({ kind: "AgentWorkflow" }, { fixtures: 5 }));
       const imported = caught(() => r.importLangGraph({ nodes: 5 }));
       console.log(JSON.stringify([r.simulate === s.simulate, r.simulate.name,
         option instanceof r.OptionTypeError, option instanceof s.OptionTypeError, option.path,
         imported instanceof r.ImportError, imported instanceof i.ImportError, imported.format]));`,
    );
    expect(seen).toEqual([
      false,
      "simulate",
      true,
      true,
      "/fixtures",
      true,
      true,
      "langgraph-subset",
    ]);
  });

  it("loads at import the root's values and classes only, each function's code at its first call", () => {
    // The files the root bundle imports, followed through their static imports.
    const nodeRoot = join(root, "dist/node");
    const reached = new Set<string>();
    const queue = ["index.js"];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      if (reached.has(file)) continue;
      reached.add(file);
      const text = readFileSync(join(nodeRoot, file), "utf8");
      for (const [, from] of text.matchAll(/^(?:import|export)\b[^;]*?"(\.{1,2}\/[^"]+)";/gm)) {
        queue.push(join(file, "..", from ?? ""));
      }
    }
    const bytes = [...reached].reduce((n, f) => n + readFileSync(join(nodeRoot, f)).length, 0);
    expect([...reached].filter((f) => f.startsWith("lazy/"))).toEqual([]);
    // The values and classes are small; the functions' code is megabytes.
    expect(bytes).toBeLessThan(64 * 1024);
    // Each forwarder names a bundle and a function in it; each is there.
    const text = readFileSync(join(nodeRoot, "index.js"), "utf8");
    const bundles = new Map(
      [...text.matchAll(/(__agentflowBundle\d+)Loaded \?\?= __agentflowLoadSync\("([^"]+)"/g)].map(
        ([, load = "", path = ""]) => [load, path],
      ),
    );
    const syncCalls = [
      ...text.matchAll(/(__agentflowBundle\d+)\("\w+", "[\w/-]+"\)\.(\w+)\.apply/g),
    ];
    const asyncCalls = [...text.matchAll(/\(await import\("([^"]+)"\)\)\.(\w+)\.apply/g)];
    expect(bundles.size).toBeGreaterThan(10);
    expect(syncCalls.length).toBeGreaterThan(40);
    expect(asyncCalls.length).toBeGreaterThan(3);
    const wanted = [
      ...syncCalls.map(([, load = "", local = ""]) => [bundles.get(load) ?? "", local]),
      ...asyncCalls.map(([, path = "", local = ""]) => [path, local]),
    ];
    expect(wanted.filter(([path]) => !path?.startsWith("./lazy/"))).toEqual([]);
    // Imported in a process of their own, as Node loads them (not through the test's transform).
    const absent = run(
      `const absent = [];
       for (const [path, local] of ${JSON.stringify(wanted)}) {
         const bundle = await import(new URL(path, ${url("dist/node/")}).href);
         if (typeof bundle[local] !== "function") absent.push(path + " " + local);
       }
       console.log(JSON.stringify(absent));`,
    );
    expect(absent).toEqual([]);
  });

  it("answers a first call racing an import() of a subpath, or says why it cannot", () => {
    // Node refuses to require() a module an import() is still loading (nodejs/node#57126): a
    // first call of a root function then throws agentflow's error, naming the subpath to import
    // it from; once the import has settled the same call answers. Which of the two happens
    // depends on timing, so both are accepted, and each is checked.
    const seen = run(
      `const r = await import("agentflow");
       const pending = import("agentflow/model");
       await new Promise((done) => setTimeout(done, 5));
       let first;
       try { first = r.parseWorkflow("{}").diagnostics.length > 0; }
       catch (e) { first = [e.message.startsWith("agentflow: the code of parseWorkflow could not be loaded"),
         e.message.endsWith("or import it from agentflow/model."), e.cause instanceof Error]; }
       await pending;
       console.log(JSON.stringify([first, r.parseWorkflow("{}").diagnostics.length > 0]));`,
    ) as [unknown, boolean];
    expect([true, [true, true, true]]).toContainEqual(seen[0]);
    expect(seen[1]).toBe(true);
  });

  it("answers a root function called while the importing module graph is still evaluating", () => {
    // x.mjs calls the root's simulate at its top level, before main.mjs's other import, the
    // simulate subpath, has been evaluated: the function's bundle is loaded then, and is the
    // subpath's module, evaluated once.
    const dir = tempDir("agentflow-node-order-");
    writeFileSync(
      join(dir, "x.mjs"),
      `import { simulate } from ${url("dist/node/index.js")};
         globalThis.result = simulate({ kind: "AgentWorkflow", id: "agnt-x", version: "1.0.0",
           name: "X", autonomyLevel: 1, nodes: [{ id: "a", type: "llm", config: { model: "m",
           promptRef: "prm:p@1.0.0" } }], edges: [] }, { fixtures: { a: { outputs: [{}] } } }).complete;`,
    );
    writeFileSync(
      join(dir, "main.mjs"),
      `import "./x.mjs";
         import { simulate, OptionTypeError } from ${url("dist/node/simulate/index.js")};
         const r = await import(${url("dist/node/index.js")});
         console.log(JSON.stringify([globalThis.result, typeof simulate, r.OptionTypeError === OptionTypeError]));`,
    );
    const result = spawnSync(process.execPath, [join(dir, "main.mjs")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([true, "function", true]);
  });

  it("gives the results tsc's build gives", () => {
    const script = (entry: string): string =>
      `const a = await import(${url(entry)});
       const { readFileSync } = await import("node:fs");
       const yaml = a.parseWorkflowText(readFileSync("examples/workflows/contract-review.agent.yaml", "utf8"));
       const wf = JSON.parse(readFileSync("examples/workflows/market-research.agent.json", "utf8"));
       const fixtures = JSON.parse(readFileSync("examples/fixtures/market-research.fixtures.json", "utf8"));
       const text = JSON.stringify(wf, null, 2);
       const report = await a.auditWorkflowReport(wf, { file: "m.json", text, tools: { agentflow: "0" } });
       console.log(JSON.stringify({
         yaml: [yaml.value?.id, yaml.diagnostics.map((d) => d.code)],
         simulate: a.simulate(wf, { fixtures }),
         diagnostics: a.createValidator().validateSync(wf).map((d) => [d.code, d.target]),
         mermaid: a.exportMermaid(wf),
         hash: a.contentHash(wf),
         markdown: a.renderAuditMarkdown(report),
         html: a.renderAuditHtml(report).length,
       }));`;
    const entry = bundled.find((b) => b.key === ".");
    if (entry === undefined) throw new Error("the root entry has no node condition");
    const node = run(script(entry.node));
    const tsc = run(script(entry.tsc));
    expect(node).toEqual(tsc);
    expect((node as { simulate: { complete: boolean } }).simulate.complete).toBe(true);
  });
});
