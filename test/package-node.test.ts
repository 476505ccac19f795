/**
 * The Node build (scripts/bundle-lib.ts): Node resolves `agentflow` and each subpath with a
 * `node` condition to the bundle in `dist/node/`, which exports the same names as tsc's files,
 * gives the same results, and holds one copy of each module for the root and the subpaths.
 * Needs `dist/` (`npm run build`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

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

  it.each(bundled)("$key exports the names tsc's build exports", ({ node, tsc }) => {
    const names = run(
      `const [a, b] = await Promise.all([import(${url(node)}), import(${url(tsc)})]);
       console.log(JSON.stringify([Object.keys(a).sort(), Object.keys(b).sort()]));`,
    ) as [string[], string[]];
    expect(names[0]).toEqual(names[1]);
    expect(names[0].length).toBeGreaterThan(0);
  });

  it("holds one copy of each module: the root's classes and functions are the subpaths'", () => {
    const same = run(
      `const [r, i, s, b, m] = await Promise.all(["agentflow", "agentflow/interop",
         "agentflow/simulate", "agentflow/bpmn", "agentflow/model"].map((p) => import(p)));
       console.log(JSON.stringify([r.ImportError === i.ImportError, r.simulate === s.simulate,
         r.OptionTypeError === s.OptionTypeError, r.RegistryConflictError === b.RegistryConflictError,
         r.parseWorkflow === m.parseWorkflow, r.ImportError.name, r.OptionTypeError.name]));`,
    );
    expect(same).toEqual([true, true, true, true, true, "ImportError", "OptionTypeError"]);
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
