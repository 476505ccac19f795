/**
 * `agentflow approve`: the envelope it writes (subjects by raw bytes, decisions, inputs, the
 * signer's claim), the promotions it refuses (blocked, unreadable, registry errors), the mistakes
 * that are exit 2, and `--sign`, which adds a signature only to what the files still give.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import {
  allowedRepo,
  copyOf,
  lines,
  makeKeys,
  readEnvelope,
  replaceIn,
  runIn,
} from "./approval-bundle.js";

let keys: Keys;

beforeAll(async () => {
  keys = await makeKeys();
});

/** `approve` in `dir` with alice's key, as a risk officer, writing `approval.json`. */
function approve(dir: string, ...paths: string[]) {
  return runIn(
    dir,
    "approve",
    ...paths,
    "--key",
    keys.key("alice"),
    "--role",
    "risk-officer",
    "--ticket",
    "CHG-7",
    "-o",
    "approval.json",
  );
}

const sha256 = (file: string): string =>
  createHash("sha256").update(readFileSync(file)).digest("hex");

describe("agentflow approve", () => {
  it("writes a DSSE envelope of every input the decisions used, by the sha256 of its bytes", async () => {
    const repo = allowedRepo();
    const out = await approve(repo, "processes");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("");
    const text = readFileSync(join(repo, "approval.json"), "utf8");
    const { envelope, statement } = readEnvelope(join(repo, "approval.json"));
    // Two-space JSON with a trailing newline, as every JSON agentflow writes.
    expect(text).toBe(JSON.stringify(envelope, null, 2) + "\n");
    expect(envelope.payloadType).toBe("application/vnd.in-toto+json");
    expect(envelope.signatures.map((s) => s.keyid)).toEqual([keys.keyid("alice")]);
    expect(statement._type).toBe("https://in-toto.io/Statement/v1");
    // The registry's other documents (browser-search, payments-refund…) decide nothing here.
    expect(statement.subject.map((s) => [s.name, s.annotations.agentflowKind])).toEqual([
      ["agentflow.config.json", "config"],
      ["policy/acme.js", "plugin"],
      ["policy/bank.policy.yaml", "policy"],
      ["processes/loan-copy.bpmn", "process"],
      ["processes/loan.bpmn", "process"],
      ["registry/credit-bureau-report.tool.json", "tool"],
      ["registry/credit-risk.agent.json", "workflow"],
      ["registry/offer-sender.agent.json", "workflow"],
      ["registry/send-loan-offer.tool.json", "tool"],
    ]);
    for (const s of statement.subject) expect(s.digest.sha256).toBe(sha256(join(repo, s.name)));
    const { predicate } = statement;
    expect(predicate.inputs).toEqual({
      paths: ["processes"],
      registry: ["registry"],
      config: "agentflow.config.json",
    });
    expect(predicate.approver).toMatchObject({ role: "risk-officer", ticket: "CHG-7" });
    expect(predicate.processes.map((p) => [p.name, p.processIds, p.allowed])).toEqual([
      ["processes/loan-copy.bpmn", ["LoanOrigination"], true],
      ["processes/loan.bpmn", ["LoanOrigination"], true],
    ]);
    const tasks = predicate.processes[1]?.agentTasks ?? [];
    expect(tasks.map((t) => [t.elementId, t.ref, t.effectiveLevel, t.gate, t.workflow])).toEqual([
      [
        "AssessCreditRisk",
        "agnt-credit-risk@1.0.0",
        2,
        "reached",
        "registry/credit-risk.agent.json",
      ],
      [
        "DraftAndSendOffer",
        "agnt-offer-sender@1.0.0",
        3,
        "reached",
        "registry/offer-sender.agent.json",
      ],
    ]);
    expect(tasks[1]?.dependencies.map((d) => [d.kind, d.ref, d.name])).toEqual([
      ["tool", "tool:send-loan-offer@1.1.0", "registry/send-loan-offer.tool.json"],
    ]);
  });

  it("names the inputs from the repository root, whatever the working directory", async () => {
    const repo = allowedRepo();
    const out = await runIn(
      join(repo, "processes"),
      "approve",
      "loan.bpmn",
      "--key",
      keys.key("alice"),
      "--role",
      "risk-officer",
      "-o",
      "../approval.json",
    );
    expect(out.code).toBe(0);
    const { statement } = readEnvelope(join(repo, "approval.json"));
    expect(statement.predicate.inputs.paths).toEqual(["processes/loan.bpmn"]);
    expect(statement.subject.map((s) => s.name)).toContain("processes/loan.bpmn");
  });

  it("from outside the repository, finds the config from the root, as verify will", async () => {
    const repo = allowedRepo();
    const elsewhere = tempDir("agentflow-approve-elsewhere-");
    const out = await runIn(
      elsewhere,
      "approve",
      join(repo, "processes"),
      "--key",
      keys.key("alice"),
      "--role",
      "risk-officer",
      "-o",
      join(repo, "approval.json"),
    );
    expect(out.code).toBe(0);
    const { statement } = readEnvelope(join(repo, "approval.json"));
    expect(statement.predicate.inputs).toEqual({
      paths: ["processes"],
      registry: ["registry"],
      config: "agentflow.config.json",
    });
    const verified = await runIn(
      repo,
      "verify",
      "approval.json",
      "--trusted-keys",
      keys.pub("alice"),
    );
    expect(verified.code).toBe(0);
  });

  it("refuses a blocked promotion, one line per blocked process with its blocking codes", async () => {
    const dir = tempDir("agentflow-approve-out-");
    const out = await runIn(
      process.cwd(),
      "approve",
      "examples/processes/loan-origination.bpmn",
      "--registry",
      "examples/registry",
      "--key",
      keys.key("alice"),
      "--role",
      "risk-officer",
      "-o",
      join(dir, "approval.json"),
    );
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      "examples/processes/loan-origination.bpmn: promotion BLOCKED: AGENT_GATE_UNREACHABLE, TOOL_EFFECT_NEEDS_GATE",
    ]);
    expect(out.stderr).toContain("nothing approved: 1 blocked promotion(s)");
    expect(existsSync(join(dir, "approval.json"))).toBe(false);
  });

  it("refuses every promotion checked with a registry that has an error, as gate does", async () => {
    const repo = allowedRepo();
    writeFileSync(join(repo, "registry/broken.agent.json"), "{ not json");
    const out = await approve(repo, "processes/loan.bpmn");
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      "processes/loan.bpmn: promotion BLOCKED: the registry has 1 error(s)",
    ]);
    expect(out.stderr).toContain("agentflow: the registry: registry/broken.agent.json:");
    expect(existsSync(join(repo, "approval.json"))).toBe(false);
  });

  it("exits 2 for a process that cannot be read, and writes nothing", async () => {
    const repo = allowedRepo();
    writeFileSync(join(repo, "processes/broken.bpmn"), "<not-closed");
    const out = await approve(repo, "processes");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("processes/broken.bpmn");
    expect(existsSync(join(repo, "approval.json"))).toBe(false);
  });

  it.each([
    [["--role", "r", "-o", "a.json"], "--key <private.pem> is needed"],
    [["--key", "k.key", "-o", "a.json"], "--role is needed"],
    [["--key", "KEY", "--role", "r"], "-o <approval.json> is needed"],
    [["--key", "KEY", "--role", "r", "--ticket", "", "-o", "a.json"], "--ticket '' is empty"],
  ])("exits 2 without what it needs: %j", async (options, message) => {
    const repo = allowedRepo();
    const argv = options.map((o) => (o === "KEY" ? keys.key("alice") : o));
    const out = await runIn(repo, "approve", "processes", ...argv);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
  });

  it("exits 2 without paths, for a key that is not a private key, and for an input outside the root", async () => {
    const repo = allowedRepo();
    const none = await runIn(
      repo,
      "approve",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      "a.json",
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("approve needs the processes to approve");
    const pub = await runIn(
      repo,
      "approve",
      "processes",
      "--key",
      keys.pub("alice"),
      "--role",
      "r",
      "-o",
      "a.json",
    );
    expect(pub.code).toBe(2);
    expect(pub.stderr).toContain(`agentflow: ${keys.pub("alice")}: a public key`);
    const outside = join(tempDir("agentflow-approve-outside-"), "x.bpmn");
    writeFileSync(outside, readFileSync(join(repo, "processes/loan.bpmn")));
    const far = await runIn(
      repo,
      "approve",
      "processes/loan.bpmn",
      outside,
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      "a.json",
    );
    expect(far.code).toBe(2);
    expect(far.stderr).toContain(`'${outside}' is outside the repository root ${repo}`);
    expect(existsSync(join(repo, "a.json"))).toBe(false);
  });

  it("refuses -o over an input or the signing key (exit 2), and keeps them whole", async () => {
    const repo = allowedRepo();
    const before = readFileSync(join(repo, "processes/loan.bpmn"));
    const over = await runIn(
      repo,
      "approve",
      "processes",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      "processes/loan.bpmn",
    );
    expect(over.code).toBe(2);
    expect(over.stderr).toContain("one of the input files");
    expect(readFileSync(join(repo, "processes/loan.bpmn"))).toEqual(before);
    const key = await runIn(
      repo,
      "approve",
      "processes",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      keys.key("alice"),
    );
    expect(key.code).toBe(2);
    expect(key.stderr).toContain("the signing key");
  });
});

describe("agentflow approve --sign", () => {
  it("adds a signature with its own claim, in place, and refuses a key that signed", async () => {
    const repo = allowedRepo();
    expect((await approve(repo, "processes")).code).toBe(0);
    const sign = (name: string, role: string) =>
      runIn(repo, "approve", "--sign", "approval.json", "--key", keys.key(name), "--role", role);
    const second = await sign("bob", "compliance");
    expect(second.code).toBe(0);
    const { envelope } = readEnvelope(join(repo, "approval.json"));
    expect(envelope.signatures.map((s) => [s.keyid, s.extension?.ext.role])).toEqual([
      [keys.keyid("alice"), "risk-officer"],
      [keys.keyid("bob"), "compliance"],
    ]);
    const again = await sign("bob", "auditor");
    expect(again.code).toBe(1);
    expect(lines(again.stdout)).toEqual([
      `signature 3 (key ${keys.keyid("bob").slice(0, 12)}…): the same key as signature 2, counted once`,
    ]);
    expect(readEnvelope(join(repo, "approval.json")).envelope.signatures).toHaveLength(2);
  });

  it("refuses to sign what the files no longer give, one line per reason", async () => {
    const repo = allowedRepo();
    expect((await approve(repo, "processes")).code).toBe(0);
    const { statement } = readEnvelope(join(repo, "approval.json"));
    const digest = statement.subject.find((s) => s.name === "processes/loan.bpmn")?.digest.sha256;
    replaceIn(join(repo, "processes/loan.bpmn"), "Consumer loan", "Consumer loaN");
    const out = await runIn(
      repo,
      "approve",
      "--sign",
      "approval.json",
      "--key",
      keys.key("bob"),
      "--role",
      "compliance",
      "-o",
      "signed.json",
    );
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `processes/loan.bpmn: sha256 differs from the approved ${(digest ?? "").slice(0, 12)}…`,
    ]);
    expect(existsSync(join(repo, "signed.json"))).toBe(false);
  });

  it("signs from a clean copy and another working directory, writing -o", async () => {
    const repo = allowedRepo();
    expect((await approve(repo, "processes")).code).toBe(0);
    const copy = copyOf(repo);
    const out = await runIn(
      join(copy, "registry"),
      "approve",
      "--sign",
      resolve(copy, "approval.json"),
      "--key",
      keys.key("bob"),
      "--role",
      "compliance",
      "-o",
      "../signed.json",
    );
    expect(out.stderr).toContain("signature 2 by key");
    expect(out.code).toBe(0);
    expect(readEnvelope(join(copy, "signed.json")).envelope.signatures).toHaveLength(2);
    // The approval given is left as it was.
    expect(readEnvelope(join(copy, "approval.json")).envelope.signatures).toHaveLength(1);
  });

  it("exits 2 for an approval that is not one", async () => {
    const dir = tempDir("agentflow-approve-sign-");
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, "approval.json"), '{"payloadType":"x"}');
    const out = await runIn(
      dir,
      "approve",
      "--sign",
      "approval.json",
      "--key",
      keys.key("bob"),
      "--role",
      "r",
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("approval.json: payload: missing");
  });
});
