/**
 * `agentflow gate` shows the Camunda agent it read (issue 39, item 6): a block under the table
 * with the facts, the derived level with the reasons naming the elements, and a line per tool
 * with its effect and where it came from; the JSON carries the whole derived agent.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
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

function project(fixture: string, config?: unknown): { dir: string; file: string } {
  const dir = tempDir("agentflow-gate-derived-");
  writeFileSync(join(dir, "package.json"), "{}");
  const file = join(dir, "agent.bpmn");
  copyFileSync(`test/fixtures/camunda/${fixture}`, file);
  if (config !== undefined)
    writeFileSync(join(dir, "agentflow.config.json"), JSON.stringify(config));
  return { dir, file };
}

/** The lines of the derived block, trailing spaces kept off, columns squeezed to one space. */
function block(stdout: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith("Camunda agent "));
  const end = lines.indexOf("", start);
  return lines.slice(start, end).map((l) => l.replace(/(\S) {2,}/g, "$1  ").trimEnd());
}

describe("agentflow gate prints the BPMN's text escaped", () => {
  it("a model or file name with a newline starts no line of its own (a forged verdict, a :: command)", async () => {
    const { dir, file } = project("subprocess-v11-refund.bpmn");
    const xml = readFileSync(file, "utf8");
    expect(xml).toContain('"gpt-4o"');
    const forged = join(dir, "a\n::error::forged\nb.bpmn");
    writeFileSync(forged, xml.replace('"gpt-4o"', '"gpt-4o&#10;::error file=M::MODELFORGE"'));
    const result = await run("gate", forged, "--no-config");
    const lines = result.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("::"))).toEqual([]);
    expect(lines[0]).toBe(
      `${forged.replaceAll("\n", "\\n")}: promotion ALLOWED (0 blocking, 2 warning(s))`,
    );
    expect(block(result.stdout)).toContain("  model  openai / gpt-4o\\n::error file=M::MODELFORGE");
    // A file that cannot be read says so on one stderr line, escaped too.
    const broken = join(dir, "c\n::error::stderr\nd.bpmn");
    writeFileSync(broken, "<bpmn:definitions");
    const unreadable = await run("gate", broken, "--no-config");
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr.split("\n").filter((l) => l.startsWith("::"))).toEqual([]);
  });
});

describe("agentflow gate shows the derived Camunda agent", () => {
  it("prints the facts, the reasons and each tool's effect with its source in text", async () => {
    const { file } = project("subprocess-v11-refund.bpmn");
    const result = await run("gate", file, "--no-config");
    expect(result.code).toBe(0);
    // The btv table keeps its columns.
    expect(result.stdout).toContain(
      "agent task  workflow         level  justified  gate needed  gate     source   content hash",
    );
    const lines = block(result.stdout);
    expect(lines.slice(0, 3)).toEqual([
      'Camunda agent Agent "Refund agent", read from the BPMN:',
      "  variant  sub-process",
      "  template  io.camunda.connectors.agenticai.aiagent.jobworker.v1 v11",
    ]);
    expect(lines).toContain("  model  openai / gpt-4o");
    expect(lines).toContain("  max model calls  8");
    expect(lines).toContain("  level  3");
    expect(lines.find((l) => l.startsWith("  system prompt"))).toMatch(
      /^ {2}system prompt {2}sha256:[0-9a-f]{12}$/,
    );
    expect(lines).toContain(
      "  reason  level 3: branching-decision at Agent.next, LookupOrder, RefundPayment, NotifyCustomer, ApproveRefund, CheckFraud, ArchiveCase, LegacyCheck",
    );
    expect(lines).toContain("  tools (7):");
    expect(lines).toContain(
      "    RefundPayment  bpmn:ServiceTask io.camunda.connectors.HttpJson.v2 v11  write-irreversible  agentflow default io.camunda.connectors.HttpJson.v2 method=POST",
    );
    expect(lines).toContain(
      "    ApproveRefund  bpmn:UserTask  read  agentflow default user-task; person, not a gate",
    );
    expect(lines).toContain(
      "    ArchiveCase  bpmn:ServiceTask acme:archive:1  write-reversible  btv:toolEffect attribute",
    );
    const fraud = lines.find((l) => l.startsWith("    CheckFraud"));
    expect(fraud).toContain("unknown  unknown: no btv:toolEffect, toolEffects mapping");
    expect(fraud).toContain('map it with "toolEffects" in agentflow.config.json');
  });

  it("names a mapping as the source, and an unevaluable limit as unbounded", async () => {
    const mapped = project("subprocess-v11-refund.bpmn", {
      toolEffects: { "acme:fraud-score:1": "read" },
    });
    const config = join(mapped.dir, "agentflow.config.json");
    const result = await run("gate", mapped.file, "-c", config);
    expect(result.stderr).toBe("");
    expect(block(result.stdout)).toContain(
      "    CheckFraud  bpmn:ServiceTask acme:fraud-score:1  read  toolEffects mapping acme:fraud-score:1",
    );
    const feel = project("subprocess-v2-custom.bpmn");
    const unbounded = await run("gate", feel.file, "--no-config");
    expect(block(unbounded.stdout)).toContain(
      "  max model calls  unbounded ('=maxCalls' cannot be evaluated)",
    );
    const none = project("task-v7-unbounded.bpmn");
    expect(block((await run("gate", none.file, "--no-config")).stdout)).toContain(
      "  max model calls  unbounded",
    );
  });

  it("serialises the derived agent whole in JSON", async () => {
    const { file } = project("subprocess-v11-refund.bpmn");
    const result = await run("gate", file, "--no-config", "--format", "json");
    const parsed = JSON.parse(result.stdout) as {
      agentTasks: { derived?: Record<string, unknown> }[];
    };
    const derived = parsed.agentTasks[0]?.derived;
    expect(Object.keys(derived ?? {}).sort()).toEqual(
      [
        "container",
        "elementId",
        "jobType",
        "level",
        "limits",
        "model",
        "name",
        "people",
        "provider",
        "readHash",
        "reasons",
        "systemPromptHash",
        "templateId",
        "templateVersion",
        "tools",
        "unbounded",
        "variant",
        "workflowRef",
      ].sort(),
    );
    expect(derived).toMatchObject({
      level: 3,
      people: ["ApproveRefund"],
      unbounded: false,
      workflowRef: "camunda.Agent@1.0.0",
      limits: { maxModelCalls: { input: "data.limits.maxModelCalls", source: "=8", value: 8 } },
      reasons: [
        { level: 3, feature: "branching-decision" },
        { level: 2, feature: "loop" },
      ],
    });
    const tools = derived?.tools as { id: string; effectSource: string; effectKey?: string }[];
    expect(tools.map((t) => [t.id, t.effectSource, t.effectKey])).toEqual([
      ["LookupOrder", "default", "io.camunda.connectors.HttpJson.v2 method=GET"],
      ["RefundPayment", "default", "io.camunda.connectors.HttpJson.v2 method=POST"],
      ["NotifyCustomer", "default", "io.camunda:email:1 protocol=smtp"],
      ["ApproveRefund", "default", "user-task"],
      ["CheckFraud", "unknown", undefined],
      ["ArchiveCase", "btv", "btv:toolEffect"],
      ["LegacyCheck", "unknown", undefined],
    ]);
  });
});
