/**
 * `bpmnlint-pack-config` (rollup 2, no JSON plugin) packs a `.bpmnlintrc` that extends
 * `plugin:agentflow/recommended` into one bundle, and that bundle lints the example process as
 * bpmn-js-bpmnlint would use it: `new Linter({ config, resolver })`. Needs `dist/`
 * (`npm run build`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { BpmnModdle } from "bpmn-moddle";
import { describe, expect, it } from "vitest";
import { BTV_DESCRIPTOR } from "../../../src/bpmn/resources/btv.js";
import { tempDir } from "../../temp.js";

const repo = new URL("../../../", import.meta.url).pathname;

interface Report {
  readonly id: string;
  readonly category: string;
}

describe("bpmnlint-pack-config", () => {
  it("packs plugin:agentflow/recommended into a bundle that lints the example process", async () => {
    if (!existsSync(join(repo, "dist/bpmnlint-plugin.cjs"))) {
      throw new Error("dist/ is missing: run `npm run build` before this test");
    }
    const project = tempDir("agentflow-pack-config-");
    mkdirSync(join(project, "node_modules"));
    symlinkSync(repo, join(project, "node_modules/bpmnlint-plugin-agentflow"), "dir");
    symlinkSync(join(repo, "node_modules/bpmnlint"), join(project, "node_modules/bpmnlint"), "dir");
    writeFileSync(
      join(project, ".bpmnlintrc"),
      JSON.stringify({ extends: ["plugin:agentflow/recommended"] }),
    );
    const cli = join(repo, "node_modules/bpmnlint-pack-config/bin/cli.js");
    const packed = spawnSync(process.execPath, [cli, "-c", ".bpmnlintrc", "-o", "packed.cjs"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(packed.stderr).toBe("");
    expect(packed.status).toBe(0);
    // What bpmn-js-bpmnlint does with a packed config.
    const require = createRequire(join(project, "package.json"));
    const { config, resolver } = require("./packed.cjs") as { config: unknown; resolver: unknown };
    // bpmnlint from this repository, as its symlink in the project would resolve it.
    const { Linter } = createRequire(join(repo, "package.json"))("bpmnlint") as {
      Linter: new (options: { config: unknown; resolver: unknown }) => {
        lint(root: unknown): Promise<Record<string, Report[]>>;
      };
    };
    const xml = readFileSync(join(repo, "examples/processes/loan-origination.bpmn"), "utf8");
    const { rootElement } = await new BpmnModdle({ btv: BTV_DESCRIPTOR }).fromXML(xml);
    const results = await new Linter({ config, resolver }).lint(rootElement);
    const found = Object.entries(results).flatMap(([name, reports]) =>
      reports.map((r) => `${name} ${r.category} ${r.id}`),
    );
    expect(found.sort()).toEqual([
      "agentflow/agent-gate-unreachable error DraftAndSendOffer",
      "agentflow/agent-unresolved warn AssessCreditRisk",
      "agentflow/agent-unresolved warn DraftAndSendOffer",
    ]);
  });
});
