/**
 * Fail closed through the CLI (issue 38, items 1 and 2): `gate` never allows a promotion whose
 * tool contract or delegate it could not read — absent, unparseable, with a duplicate `effect`
 * key — says what failed in its own output, names every document it used by hash, and exits
 * with the code its summary line implies.
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const FIXTURE = "test/fixtures/fail-closed";
const PROCESS = `${FIXTURE}/contract-signing.bpmn`;
const TOOL_FILE = "sign-contract.tool.json";

function registryCopy(): string {
  const dir = tempDir("agentflow-fail-closed-");
  for (const name of readdirSync(`${FIXTURE}/registry`)) {
    copyFileSync(join(`${FIXTURE}/registry`, name), join(dir, name));
  }
  return dir;
}

interface GateJson {
  allowed: boolean;
  blocking: { code: string; data: Record<string, unknown> }[];
  warnings: { code: string; data: Record<string, unknown> }[];
  agentTasks: { dependencies: { ref: string; contentHash?: string; failure?: unknown }[] }[];
  registry: { file: string; diagnostics: { code: string; severity: string }[] }[];
  config: unknown;
  ruleSet: { digest: string; agentflowVersion: string; changed: unknown[] };
}

async function gateJson(registry: string, process = PROCESS) {
  const out = await run("gate", "--no-config", "--format", "json", "--registry", registry, process);
  expect(out.stderr).not.toMatch(STACK_LINE);
  return { code: out.code, json: JSON.parse(out.stdout) as GateJson };
}

const codes = (json: GateJson) => [...json.blocking, ...json.warnings].map((d) => d.code);

describe("agentflow gate fails closed on a tool contract it cannot read", () => {
  it("blocks with the full registry", async () => {
    const { code, json } = await gateJson(registryCopy());
    expect(code).toBe(1);
    expect(json.allowed).toBe(false);
    expect(codes(json)).toEqual(["TOOL_EFFECT_NEEDS_GATE", "AGENT_GATE_OPTIONAL"]);
  });

  it("blocks when the contract is absent, and says so in the text report", async () => {
    const dir = registryCopy();
    rmSync(join(dir, TOOL_FILE));
    const out = await run("gate", "--no-config", "--registry", dir, PROCESS);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("promotion BLOCKED");
    expect(out.stdout).toContain(
      'calls "tool:sign-contract@1.0.0" at node "sign", which could not be resolved (no tool contract tool:sign-contract@1.0.0 was found); its effect is unknown and counts as needing a gate  AGENT_DEPENDENCY_UNRESOLVED',
    );
    expect(out.stdout).toContain("TOOL_EFFECT_NEEDS_GATE");
  });

  it.each([
    ["does not parse", "{ not json"],
    [
      "has a duplicate effect key",
      readFileSync(`${FIXTURE}/registry/${TOOL_FILE}`, "utf8").replace(
        '"effect": "external-commitment",',
        '"effect": "external-commitment",\n  "effect": "read",',
      ),
    ],
    [
      "has an effect that is not one of the six",
      readFileSync(`${FIXTURE}/registry/${TOOL_FILE}`, "utf8").replace(
        '"effect": "external-commitment"',
        '"effect": "harmless"',
      ),
    ],
  ])("blocks when the contract %s, and the exit code agrees with the summary", async (_, text) => {
    const dir = registryCopy();
    writeFileSync(join(dir, TOOL_FILE), text);
    const { code, json } = await gateJson(dir);
    expect(code).toBe(1);
    expect(json.allowed).toBe(false);
    expect(json.blocking.find((d) => d.code === "TOOL_EFFECT_NEEDS_GATE")?.data).toMatchObject({
      tool: "tool:sign-contract@1.0.0",
      effect: "unknown",
      failure: "missing",
    });
    const registryErrors = json.registry.flatMap((f) => f.diagnostics);
    expect(registryErrors.some((d) => d.severity === "error")).toBe(true);
  });

  it("blocks when the delegate is absent: what it calls is unknown", async () => {
    const dir = registryCopy();
    rmSync(join(dir, "terms-checker.agent.json"));
    const { code, json } = await gateJson(dir);
    expect(code).toBe(1);
    expect(json.blocking.map((d) => d.data.tool)).toContain("agnt-terms-checker@1.0.0");
    expect(json.warnings.map((d) => d.code)).toContain("AGENT_DEPENDENCY_UNRESOLVED");
  });
});

describe("the exit code agrees with the summary", () => {
  it("a registry error blocks a gated process too, rather than ALLOWED with '✖ 1 error' and exit 0", async () => {
    const dir = registryCopy();
    writeFileSync(join(dir, "stray.tool.json"), "{ not json");
    const gated = join(tempDir("agentflow-fail-closed-bpmn-"), "gated.bpmn");
    writeFileSync(
      gated,
      readFileSync(PROCESS, "utf8")
        .replace(
          'targetRef="ContractSigned" />',
          'targetRef="Approve" />\n    <bpmn:sequenceFlow id="Flow_Approve_Done" sourceRef="Approve" targetRef="ContractSigned" />',
        )
        .replace(
          "<bpmn:endEvent",
          '<bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="legal" /></bpmn:extensionElements></bpmn:userTask>\n    <bpmn:endEvent',
        ),
    );
    const clean = await run("gate", "--no-config", "--registry", registryCopy(), gated);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("promotion ALLOWED");
    const out = await run("gate", "--no-config", "--registry", dir, gated);
    expect(out.stdout).toContain("promotion BLOCKED");
    expect(out.stdout).toContain("they block, since a decision may need what cannot be read");
    expect(out.stdout).toMatch(/✖ \d+ problems? \(1 error/);
    expect(out.code).toBe(1);
  });
});

describe("every input that decides is named by its hash", () => {
  it("changing only the contract's effect changes the verdict and a hash in the JSON", async () => {
    const dir = registryCopy();
    const before = await gateJson(dir);
    const original = JSON.parse(readFileSync(join(dir, TOOL_FILE), "utf8")) as Record<
      string,
      unknown
    >;
    const read = { ...original, effect: "read", authorization: "automatic" };
    writeFileSync(join(dir, TOOL_FILE), JSON.stringify(read));
    const after = await gateJson(dir);
    expect(before.json.allowed).toBe(false);
    expect(after.json.allowed).toBe(true);
    const hashes = (json: GateJson) =>
      json.agentTasks.flatMap((t) => t.dependencies.map((d) => d.contentHash));
    expect(hashes(before.json)).toContain(contentHash(original));
    expect(hashes(after.json)).toContain(contentHash(read));
    expect(hashes(after.json)).not.toEqual(hashes(before.json));
    expect(after.json.ruleSet.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(after.json.config).toBeNull();
  });
});
