/**
 * The package as users get it: `npm pack` holds the docs and examples the README links to, and
 * the tarball installs as docs/bpmnlint.md says (under the plugin's name, from a file) and then
 * lints and checks the examples it ships. Needs `dist/` (`npm run build`); the install reads the
 * npm cache first and the registry only for what the cache lacks.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./temp.js";

const repo = new URL("../", import.meta.url).pathname;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let tarball = "";
let packed: string[] = [];

beforeAll(() => {
  const dir = tempDir("agentflow-pack-");
  // --ignore-scripts: pack the dist/ this checkout built instead of building it again.
  const out = execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error("npm pack printed nothing");
  tarball = join(dir, info.filename);
  packed = info.files.map((f) => f.path);
}, 120_000);

describe("the packed package", () => {
  it("holds the docs, the examples, the schemas, the bpmnlint bundle and the Modeler plug-in", () => {
    for (const file of [
      "README.md",
      "docs/bpmnlint.md",
      "docs/ci.md",
      "docs/getting-started.md",
      "examples/processes/loan-origination.bpmn",
      "examples/registry/credit-risk.agent.json",
      "examples/workflows/refund-autopilot.broken.agent.json",
      "schemas/agentflow-config.schema.json",
      "dist/bpmnlint-plugin.cjs",
      "dist/bpmn/resources/btv.json",
      "docs/camunda-modeler.md",
      "camunda-modeler/index.js",
      "camunda-modeler/package.json",
      "camunda-modeler/client.js",
      "camunda-modeler/element-templates/agentflow-approval-gate.json",
      "camunda-modeler/element-templates/agentflow-agent-task.json",
    ]) {
      expect(packed).toContain(file);
    }
  });

  it("holds every docs/ and examples/ file the README links to", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(((?:docs|examples)\/[^)#\s]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((l) => l !== undefined && !packed.includes(l))).toEqual([]);
  });
});

describe("installed from the tarball as docs/bpmnlint.md says", () => {
  let project = "";
  const installed = (): string => join(project, "node_modules/bpmnlint-plugin-agentflow");

  beforeAll(() => {
    const docs = readFileSync(join(repo, "docs/bpmnlint.md"), "utf8");
    const command = docs
      .split("\n")
      .find((line) =>
        line.startsWith("npm install --save-dev bpmnlint bpmnlint-plugin-agentflow@file:"),
      );
    if (command === undefined) throw new Error("docs/bpmnlint.md has no install-from-file line");
    // bpmnlint pinned to the devDependency's version, so that the output asserted below cannot
    // change under us when a new bpmnlint is published.
    const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const bpmnlint = pkg.devDependencies.bpmnlint;
    if (bpmnlint === undefined) throw new Error("package.json has no bpmnlint devDependency");
    const args = command
      .replace(/@file:\S+/, `@file:${tarball}`)
      .split(" ")
      .slice(1)
      .map((arg) => (arg === "bpmnlint" ? `bpmnlint@${bpmnlint}` : arg));
    expect(args).toContain(`bpmnlint@${bpmnlint}`);
    project = tempDir("agentflow-install-");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", private: true }));
    execFileSync(
      npm,
      [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"],
      { cwd: project, stdio: ["ignore", "pipe", "pipe"] },
    );
    const rc = /```json \.bpmnlintrc\n([\s\S]*?)```/.exec(docs)?.[1];
    if (rc === undefined) throw new Error("docs/bpmnlint.md has no .bpmnlintrc block");
    writeFileSync(join(project, ".bpmnlintrc"), rc);
  }, 300_000);

  const node = (args: readonly string[]) =>
    spawnSync(process.execPath, args, {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });

  it("bpmnlint lints the example process the package ships", () => {
    const process_ = join(installed(), "examples/processes/loan-origination.bpmn");
    const result = node([join(project, "node_modules/bpmnlint/bin/bpmnlint.js"), process_]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(
      /DraftAndSendOffer\s+error\s+.*agentflow\/agent-gate-unreachable/,
    );
    expect(result.status).toBe(1);
  });

  it("the agentflow CLI it installs checks and gates the shipped examples", () => {
    const bin = join(installed(), "bin/agentflow.js");
    const examples = join(installed(), "examples");
    const check = node([bin, "check", "--registry", join(examples, "registry"), examples]);
    expect(check.stdout).toContain("RETRY_WITHOUT_MAX");
    expect(check.status).toBe(1);
    const gate = node([
      bin,
      "gate",
      join(examples, "processes/loan-origination.bpmn"),
      "--registry",
      join(examples, "registry"),
    ]);
    expect(gate.stdout).toContain("promotion BLOCKED (2 blocking, 0 warning(s))");
    expect(gate.status).toBe(1);
  });

  it("bundles into a Node application with esbuild, which reads the module condition", async () => {
    // A bundler cannot follow the root entry's loading at first call: the `module` condition,
    // which bundlers read and Node does not, gives them tsc's files.
    const out = join(project, "app.mjs");
    await build({
      stdin: {
        contents: `import { canonicalJson, simulate } from "bpmnlint-plugin-agentflow";
console.log(JSON.stringify([canonicalJson({ b: 1, a: 2 }), typeof simulate]));`,
        resolveDir: project,
        loader: "js",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: out,
      logLevel: "error",
      // Dependencies that call require() for Node's own modules.
      banner: {
        js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      },
    });
    const result = node([out]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual(['{"a":2,"b":1}', "function"]);
  });

  it("its root entry loads a function's code, shipped under dist/node/lazy/, at the first call", () => {
    const workflow = join(installed(), "examples/workflows/market-research.agent.json");
    const fixtures = join(installed(), "examples/fixtures/market-research.fixtures.json");
    const result = node([
      "--input-type=module",
      "-e",
      `import { readFileSync } from "node:fs";
       const agentflow = await import("bpmnlint-plugin-agentflow");
       const read = (f) => JSON.parse(readFileSync(f, "utf8"));
       const state = agentflow.simulate(read(${JSON.stringify(workflow)}), { fixtures: read(${JSON.stringify(fixtures)}) });
       console.log(JSON.stringify([state.complete, import.meta.resolve("bpmnlint-plugin-agentflow").endsWith("/dist/node/index.js")]));`,
    ]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([true, true]);
  });
});
