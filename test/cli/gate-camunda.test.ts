/**
 * `agentflow gate` on Camunda AI agents (issue 39): the verdict from the agent read from the
 * BPMN, the `toolEffects` of agentflow.config.json lifting an unmapped tool, the derived agent in
 * the JSON, and a bad mapping as a config error naming the pointer (exit 2).
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), isTTY: false };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A folder with the fixture and, when given, a config. */
function project(config?: unknown): { dir: string; file: string } {
  const dir = tempDir("agentflow-gate-camunda-");
  writeFileSync(join(dir, "package.json"), "{}");
  const file = join(dir, "agent.bpmn");
  copyFileSync("test/fixtures/camunda/subprocess-v4-gateways.bpmn", file);
  if (config !== undefined)
    writeFileSync(join(dir, "agentflow.config.json"), JSON.stringify(config));
  return { dir, file };
}

interface JsonDecision {
  readonly allowed: boolean;
  readonly blocking: readonly { readonly code: string; readonly message: string }[];
  readonly agentTasks: readonly {
    readonly derived?: {
      readonly level: number;
      readonly tools: readonly { id: string; effect?: string; effectSource: string }[];
    };
  }[];
}

const decisionOf = (stdout: string): JsonDecision => {
  const parsed = JSON.parse(stdout) as { files?: { decision?: JsonDecision }[] } & JsonDecision;
  return parsed.files?.[0]?.decision ?? parsed;
};

describe("agentflow gate on a Camunda agent", () => {
  it("blocks unmapped tools with the hint, and the config's toolEffects lift them", async () => {
    const bare = project();
    const blocked = await run("gate", bare.file, "--no-config", "--format", "json");
    expect(blocked.code).toBe(1);
    const decision = decisionOf(blocked.stdout);
    expect(decision.blocking.map((d) => d.code)).toEqual([
      "TOOL_EFFECT_NEEDS_GATE",
      "TOOL_EFFECT_NEEDS_GATE",
      "TOOL_EFFECT_NEEDS_GATE",
    ]);
    expect(decision.agentTasks[0]?.derived?.level).toBe(4);

    const mapped = project({
      toolEffects: {
        "acme:summary-script:1": "read",
        "io.camunda.connectors.agenticai.mcp.remoteclient.v0": "read",
        "io.camunda.agenticai:a2aclient:0": "propose",
      },
    });
    const allowed = await run(
      "gate",
      mapped.file,
      "-c",
      join(mapped.dir, "agentflow.config.json"),
      "--format",
      "json",
    );
    expect(allowed.stderr).toBe("");
    expect(allowed.code).toBe(0);
    expect(decisionOf(allowed.stdout).agentTasks[0]?.derived?.tools).toMatchObject([
      { id: "RunJobScript", effect: "read", effectSource: "config" },
      { id: "ResearchServer", effect: "read", effectSource: "config" },
      { id: "PartnerAgent", effect: "propose", effectSource: "config" },
    ]);
  });

  it("prints the mapping hint in text", async () => {
    const { file } = project();
    const result = await run("gate", file, "--no-config");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Map it: add "toolEffects": { "acme:summary-script:1": "<effect>" } to agentflow.config.json, or btv:toolEffect="<effect>" on "RunJobScript"',
    );
  });

  it("rejects a bad mapping with its pointer, and one needing $input with its key", async () => {
    const bad = project({ toolEffects: { "io.camunda:slack:1": "loud" } });
    const result = await run("gate", bad.file, "-c", join(bad.dir, "agentflow.config.json"));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("/toolEffects/io.camunda:slack:1");
    const selector = project({ toolEffects: { "acme:x:1": { a: "read" } } });
    const second = await run(
      "gate",
      selector.file,
      "-c",
      join(selector.dir, "agentflow.config.json"),
    );
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `toolEffects["acme:x:1"]: agentflow knows no operation selector for 'acme:x:1'; name the input with "$input"`,
    );
  });
});
