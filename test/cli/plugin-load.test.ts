/**
 * Loading a config's plugins: a plugin whose module never finishes loading (a top-level await
 * on something that never settles) is a usage error naming it, never Node's silent exit 13; and
 * a plugin's config, taken in with `extends`, may raise agentflow's rules but never turn one
 * down — that is the config owner's to write.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { inRepo } from "./policy-repo.js";
import type { PolicyRepo } from "./policy-repo.js";
import { run } from "./run.js";

/** A plugin with one rule `NOTE`, and configs that set agentflow's rules. */
const ACME = `export default {
  meta: { name: "acme", version: "1.0.0" },
  rules: {
    NOTE: { meta: { code: "NOTE", defaultSeverity: "info", description: "d", docs: "https://x", messages: { default: "x" } }, check() {} },
  },
  configs: {
    quiet: { rules: { NOTE: "warn", AGENT_GATE_UNREACHABLE: "off" } },
    lower: { rules: { TOOL_EFFECT_NEEDS_GATE: "warn" } },
    optioned: { rules: { TOOL_FORBIDDEN: ["error", { tools: [] }] } },
    stricter: { rules: { NOTE: "off", BUDGET_MISSING: "error" } },
  },
};
`;

const STUCK = `await new Promise(() => {});
export default { meta: { name: "stuck", version: "1.0.0" }, rules: {} };
`;

let repo: PolicyRepo;

beforeAll(() => {
  const dir = tempDir("agentflow-plugin-load-");
  writeFileSync(join(dir, "package.json"), '{ "name": "r", "private": true, "type": "module" }\n');
  cpSync("examples/registry", join(dir, "registry"), { recursive: true });
  cpSync("examples/processes/loan-origination.bpmn", join(dir, "loan.bpmn"));
  mkdirSync(join(dir, "plugins"));
  writeFileSync(join(dir, "plugins/acme.js"), ACME);
  writeFileSync(join(dir, "plugins/stuck.js"), STUCK);
  writeFileSync(join(dir, "plugins/imports-stuck.js"), 'export { default } from "./stuck.js";\n');
  for (const name of ["quiet", "lower", "optioned", "stricter"]) {
    const config = {
      registry: "registry",
      plugins: { acme: "./plugins/acme.js" },
      extends: [`acme/${name}`],
    };
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(config));
  }
  for (const name of ["stuck", "imports-stuck"]) {
    const config = { registry: "registry", plugins: { stuck: `./plugins/${name}.js` } };
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(config));
  }
  repo = { dir, acmeHash: "", bankHash: "", outside: "" };
});

const REFUSED = (rule: string, setting: string): string =>
  `agentflow: $CONFIG.json: extends 'acme/$CONFIG': rule '${rule}' is not a rule of plugin 'acme', and the plugin's config sets it to ${setting}: a plugin's config may raise another rule to "error" but never turn it down, off or change its options; set it in your config's own "rules" if you mean it\n`;

describe("a plugin's config that sets agentflow's rules", () => {
  it.each([
    ["quiet", REFUSED("AGENT_GATE_UNREACHABLE", '"off"')],
    ["lower", REFUSED("TOOL_EFFECT_NEEDS_GATE", '"warn"')],
    ["optioned", REFUSED("TOOL_FORBIDDEN", '["error",{"tools":[]}]')],
  ])("%s: turning one down is refused (exit 2)", async (name, stderr) => {
    const out = await inRepo(repo, () => run("gate", "-c", `${name}.json`, "loan.bpmn"));
    expect([out.code, out.stderr]).toEqual([2, stderr.replaceAll("$CONFIG", name)]);
  });

  it("stricter: raising one to error (and its own rules anything) is taken", async () => {
    const out = await inRepo(repo, () => run("gate", "-c", "stricter.json", "loan.bpmn"));
    expect([out.code, out.stderr]).toEqual([1, ""]);
  });
});

describe("a plugin whose module never finishes loading", () => {
  const script = (): string => {
    const file = join(tempDir("agentflow-cli-src-"), "cli.mjs");
    const main = pathToFileURL(resolve("src/cli/main.ts")).href;
    writeFileSync(
      file,
      `import { main } from ${JSON.stringify(main)};\nprocess.exitCode = await main(process.argv.slice(2));\n`,
    );
    return file;
  };

  it.each([
    ["stuck", "stuck.js"],
    ["imports-stuck", "imports-stuck.js"],
  ])("%s: exit 2 naming the plugin, not exit 13", (name, file) => {
    const loader = resolve("node_modules/tsx/dist/loader.mjs");
    const child = spawnSync(
      process.execPath,
      ["--import", pathToFileURL(loader).href, script(), "gate", "-c", `${name}.json`, "loan.bpmn"],
      { cwd: repo.dir, encoding: "utf8", timeout: 60_000 },
    );
    expect([child.status, child.stdout, child.stderr]).toEqual([
      2,
      "",
      `agentflow: ${name}.json: plugin 'stuck' (${join(realpathSync(repo.dir), "plugins", file)}): its module never finished loading: a top-level await in it, or in a module it imports, waits on something that never settles\n`,
    ]);
  });
});
