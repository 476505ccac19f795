/**
 * The tamper suite of issue 41: an approved bundle, then one class of tampering per case, each
 * refused by `agentflow verify` (exit 1) with exactly its reason lines; and the untouched bundle
 * verified from a clean copy, from another working directory and with the files in another order.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStatement, Envelope } from "../../src/approval/index.js";
import {
  APPROVER_EXTENSION_KIND,
  createApproval,
  encodeBase64,
  pae,
  PAYLOAD_TYPE,
} from "../../src/approval/index.js";
import { pemSigner } from "../../src/keys/index.js";
import { contentHash, parseToolContractText, parseWorkflowText } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import type { Run } from "./run.js";
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
/** The approved repository (never changed; each case tampers with a copy). */
let repo: string;
let approved: ApprovalStatement;

/** A digest as the reasons shorten it: 12 hex digits (after any `sha256:`), then `…`. */
const short = (digest: string): string =>
  digest.startsWith("sha256:") ? `sha256:${digest.slice(7, 19)}…` : `${digest.slice(0, 12)}…`;
const digestOf = (name: string): string =>
  approved.subject.find((s) => s.name === name)?.digest.sha256 ?? "?";
/** The reason line of a subject whose bytes changed. */
const changed = (name: string): string =>
  `${name}: sha256 differs from the approved ${short(digestOf(name))}`;
const PROCESSES = ["processes/loan-copy.bpmn", "processes/loan.bpmn"];
/** The approved content hash of the credit-risk task's workflow, or of its bureau tool. */
function approvedHash(dependency?: string): string {
  const task = approved.predicate.processes[0]?.agentTasks.find(
    (t) => t.elementId === "AssessCreditRisk",
  );
  const hash =
    dependency === undefined
      ? task?.contentHash
      : task?.dependencies.find((d) => d.ref === dependency)?.contentHash;
  return hash ?? "?";
}
/** The rule set line: the current digest differs from the approved one. */
const RULE_SET_LINE = (): RegExp =>
  new RegExp(
    `^rule set: digest sha256:[0-9a-f]{12}… differs from the approved ${short(approved.predicate.ruleSet.digest)}$`,
  );
const BUREAU = "tool:credit-bureau-report@2.0.0";

/** Verifies the approval in `dir` from its root with alice trusted (and the options given). */
function verify(dir: string, ...more: string[]) {
  return runIn(dir, "verify", "approval.json", "--trusted-keys", keys.pub("alice"), ...more);
}

/** Writes an envelope whose payload is `statement` signed by alice, claims and all, by hand. */
function signedByHand(dir: string, statement: unknown): void {
  const signer = pemSigner(readFileSync(keys.key("alice"), "utf8"));
  const payload = new TextEncoder().encode(JSON.stringify(statement));
  const sign = (bytes: Uint8Array) => encodeBase64(signer.sign(bytes) as Uint8Array);
  const claim = { role: "risk-officer", time: approved.predicate.approver.time };
  const signed = {
    payloadSha256: createHash("sha256").update(payload).digest("hex"),
    role: claim.role,
    time: claim.time,
  };
  const ext = sign(pae(APPROVER_EXTENSION_KIND, new TextEncoder().encode(JSON.stringify(signed))));
  const envelope: Envelope = {
    payloadType: PAYLOAD_TYPE,
    payload: encodeBase64(payload),
    signatures: [
      {
        keyid: signer.keyid,
        sig: sign(pae(PAYLOAD_TYPE, payload)),
        extension: { kind: APPROVER_EXTENSION_KIND, ext: { ...claim, sig: ext } },
      },
    ],
  };
  writeFileSync(join(dir, "approval.json"), JSON.stringify(envelope, null, 2) + "\n");
}

beforeAll(async () => {
  keys = await makeKeys();
  repo = allowedRepo();
  const made = await runIn(
    repo,
    "approve",
    "processes/loan.bpmn",
    "processes/loan-copy.bpmn",
    "--key",
    keys.key("alice"),
    "--role",
    "risk-officer",
    "--ticket",
    "CHG-7",
    "-o",
    "approval.json",
  );
  expect(made.stderr).toMatch(/wrote approval\.json: 2 process\(es\), 9 subject\(s\)/);
  expect(made.code).toBe(0);
  approved = readEnvelope(join(repo, "approval.json")).statement;
});

/** Alice approves `processes` of `dir` as risk officer, into `approval.json`. */
function approveProcesses(dir: string): Promise<Run> {
  return runIn(
    dir,
    ...["approve", "processes", "--key", keys.key("alice"), "--role", "risk-officer"],
    ...["-o", "approval.json"],
  );
}

describe("verify refuses each class of tampering with its reason", () => {
  it("one byte changed in a process", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "processes/loan.bpmn"), "Consumer loan", "Consumer loaN");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([changed("processes/loan.bpmn")]);
  });

  it("one byte changed in a workflow", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "registry/credit-risk.agent.json"), "Assessor", "Assessos");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const text = readFileSync(join(dir, "registry/credit-risk.agent.json"), "utf8");
    const now = contentHash(parseWorkflowText(text).workflow);
    expect(lines(out.stdout)).toEqual([
      ...PROCESSES.map(
        (p) =>
          `${p}: agent task AssessCreditRisk: contentHash ${short(now)}, approved ${short(approvedHash())}`,
      ),
      changed("registry/credit-risk.agent.json"),
    ]);
  });

  it("one byte changed in a tool contract", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "registry/credit-bureau-report.tool.json"), "read-only", "read_only");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const text = readFileSync(join(dir, "registry/credit-bureau-report.tool.json"), "utf8");
    const now = contentHash(parseToolContractText(text).contract);
    expect(lines(out.stdout)).toEqual([
      ...PROCESSES.map(
        (p) =>
          `${p}: agent task AssessCreditRisk: tool ${BUREAU}: contentHash ${short(now)}, approved ${short(approvedHash(BUREAU))}`,
      ),
      changed("registry/credit-bureau-report.tool.json"),
    ]);
  });

  it("one byte changed in the config", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "agentflow.config.json"), "  ", " \t");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([changed("agentflow.config.json")]);
  });

  it("one byte changed in a policy pack", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "policy/bank.policy.yaml"), "compliance team", "compliance teaM");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const [ruleSet, ...rest] = lines(out.stdout);
    expect(ruleSet).toMatch(RULE_SET_LINE());
    expect(rest).toEqual([changed("policy/bank.policy.yaml")]);
  });

  it("one byte changed in a plugin", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "policy/acme.js"), "Finds nothing", "Finds nothinG");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const [ruleSet, ...rest] = lines(out.stdout);
    expect(ruleSet).toMatch(RULE_SET_LINE());
    expect(rest).toEqual([changed("policy/acme.js")]);
  });

  it("a process removed", async () => {
    const dir = copyOf(repo);
    rmSync(join(dir, "processes/loan-copy.bpmn"));
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      "processes/loan-copy.bpmn: removed since the approval (approved as a process)",
    ]);
  });

  it("a second definition of a workflow the decisions use", async () => {
    const dir = copyOf(repo);
    const second = join(dir, "registry/credit-risk.again.agent.json");
    copyFileSync(join(dir, "registry/credit-risk.agent.json"), second);
    replaceIn(second, "Assessor", "Assessos");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    // The ref resolves to neither definition: the task is unresolved and the promotion blocked.
    const task = "agent task AssessCreditRisk";
    expect(lines(out.stdout)).toEqual([
      ...PROCESSES.flatMap((p) => [
        `${p}: ${task}: contentHash none, approved ${short(approvedHash())}`,
        `${p}: ${task}: justifiedLevel none, approved 2`,
        `${p}: ${task}: resolution unresolved, approved registry`,
        `${p}: ${task}: tool ${BUREAU} removed since the approval`,
        `${p}: ${task}: workflow none, approved registry/credit-risk.agent.json`,
        `${p}: promotion BLOCKED now, approved ALLOWED`,
      ]),
      // Both files are still there: the contract is no longer read, the approved workflow is
      // unchanged (a subject still, as the conflict rests on it), and the newcomer is added.
      "registry/credit-bureau-report.tool.json: unchanged, but no longer an input of the decisions (approved as a tool contract)",
      "registry/credit-risk.again.agent.json: added since the approval (a workflow)",
      expect.stringMatching(
        /^the registry: registry\/credit-risk\.agent\.json: agnt-credit-risk@1\.0\.0 is defined with different content in 'registry\/credit-risk\.again\.agent\.json' \(sha256:[0-9a-f]{64}\) and 'registry\/credit-risk\.agent\.json' \(sha256:[0-9a-f]{64}\); .* \(REGISTRY_CONFLICT\)$/,
      ),
    ]);
    expect(out.stderr).toContain("REGISTRY_CONFLICT");
  });

  it("one signature of two (threshold 2)", async () => {
    const out = await verify(copyOf(repo), "--threshold", "2");
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual(["2 distinct trusted signatures needed, 1 verified"]);
  });

  it("the same key twice", async () => {
    const dir = copyOf(repo);
    const { envelope } = readEnvelope(join(dir, "approval.json"));
    const twice = { ...envelope, signatures: [...envelope.signatures, ...envelope.signatures] };
    writeFileSync(join(dir, "approval.json"), JSON.stringify(twice, null, 2) + "\n");
    const out = await verify(dir, "--threshold", "2");
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `signature 2 (key ${keys.keyid("alice").slice(0, 12)}…): the same key as signature 1, counted once`,
      "2 distinct trusted signatures needed, 1 verified",
    ]);
  });

  it("a key not trusted", async () => {
    const dir = copyOf(repo);
    const out = await runIn(
      dir,
      "verify",
      "approval.json",
      "--trusted-keys",
      keys.trusted("bob", "carol"),
    );
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `signature 1 (key ${keys.keyid("alice").slice(0, 12)}…): not from a trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("a role missing", async () => {
    const out = await verify(copyOf(repo), "--require-roles", "risk-officer,compliance");
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual(["role compliance: no trusted signer"]);
  });

  it("an expired approval", async () => {
    const time = approved.predicate.approver.time;
    const later = new Date(Date.parse(time) + 31 * 86_400_000).toISOString();
    const out = await verify(copyOf(repo), "--max-age", "30d", "--now", later);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([`approved ${time}, older than --max-age 30d`]);
    expect((await verify(copyOf(repo), "--max-age", "32d", "--now", later)).code).toBe(0);
  });

  it("a changed agentflow version, re-signed with a trusted key", async () => {
    const dir = copyOf(repo);
    const statement: ApprovalStatement = {
      ...approved,
      predicate: { ...approved.predicate, agentflow: { version: "0.0.9" } },
    };
    const signer = pemSigner(readFileSync(keys.key("alice"), "utf8"));
    const envelope = await createApproval(statement, signer);
    writeFileSync(join(dir, "approval.json"), JSON.stringify(envelope, null, 2) + "\n");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual(["agentflow 0.1.0 runs; 0.0.9 approved"]);
  });

  it("an envelope whose payload type was swapped", async () => {
    const dir = copyOf(repo);
    const { envelope } = readEnvelope(join(dir, "approval.json"));
    const swapped = { ...envelope, payloadType: "application/json" };
    writeFileSync(join(dir, "approval.json"), JSON.stringify(swapped, null, 2) + "\n");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    // The signature covered the type it was made with: under another, it verifies no more.
    expect(lines(out.stdout)).toEqual([
      'envelope: payload type "application/json" is not application/vnd.in-toto+json',
      `signature 1 (key ${keys.keyid("alice").slice(0, 12)}…): does not verify with the trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it("a statement with reordered subjects, re-signed with a trusted key", async () => {
    const dir = copyOf(repo);
    const [first, second, ...rest] = approved.subject;
    signedByHand(dir, { ...approved, subject: [second, first, ...rest] });
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `${first?.name ?? ""}: subject 2 is out of order: subjects must be sorted by name (after ${second?.name ?? ""})`,
    ]);
  });

  it("a statement with a duplicated subject, re-signed with a trusted key", async () => {
    const dir = copyOf(repo);
    const [first, ...rest] = approved.subject;
    signedByHand(dir, { ...approved, subject: [first, first, ...rest] });
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([`${first?.name ?? ""}: named by subjects 1 and 2`]);
  });
});

describe("a registry file that a decision now resolves to", () => {
  it("is refused as added: a tool contract missing at approval (its tool behind a reached gate)", async () => {
    const dir = allowedRepo({ pack: false, registryOmits: ["credit-bureau-report.tool.json"] });
    const made = await runIn(
      dir,
      "approve",
      "processes",
      "--key",
      keys.key("alice"),
      "--role",
      "risk-officer",
      "-o",
      "approval.json",
    );
    expect(made.code).toBe(0);
    const before = await verify(dir);
    expect(before.code).toBe(0);
    copyFileSync(
      join(dir, "spare/credit-bureau-report.tool.json"),
      join(dir, "registry/credit-bureau-report.tool.json"),
    );
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const tool = `agent task AssessCreditRisk: tool ${BUREAU}`;
    const file = "registry/credit-bureau-report.tool.json";
    const now = contentHash(parseToolContractText(readFileSync(join(dir, file), "utf8")).contract);
    expect(lines(out.stdout)).toEqual([
      ...PROCESSES.flatMap((p) => [
        `${p}: ${tool}: contentHash ${short(now)}, approved none`,
        `${p}: ${tool}: failure none, approved missing`,
        `${p}: ${tool}: name ${file}, approved none`,
      ]),
      `${file}: added since the approval (${BUREAU} now resolves to it)`,
    ]);
  });
});

describe("an untouched bundle verifies (no false refusals)", () => {
  it("from a clean copy of the repository", async () => {
    const out = await verify(copyOf(repo));
    expect(out.stdout).toMatch(
      /^approval\.json: verified: 9 subject\(s\) unchanged; 1 trusted signature/,
    );
    expect(out.code).toBe(0);
  });

  it("from a subfolder of the repository", async () => {
    const dir = copyOf(repo);
    const out = await runIn(
      join(dir, "processes"),
      "verify",
      "../approval.json",
      "--trusted-keys",
      keys.trusted("alice"),
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("from outside the repository, with absolute paths", async () => {
    const dir = copyOf(repo);
    const elsewhere = tempDir("agentflow-approval-elsewhere-");
    const out = await runIn(
      elsewhere,
      "verify",
      join(dir, "approval.json"),
      "--trusted-keys",
      keys.pub("alice"),
      join(dir, "processes/loan.bpmn"),
      join(dir, "processes/loan-copy.bpmn"),
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });

  it("from outside the repository, with --root and the approval's own paths", async () => {
    const dir = copyOf(repo);
    const elsewhere = tempDir("agentflow-approval-elsewhere-");
    const out = await runIn(
      elsewhere,
      "verify",
      join(dir, "approval.json"),
      "--trusted-keys",
      keys.pub("alice"),
      "--root",
      dir,
    );
    expect(out.code).toBe(0);
  });

  it("with the files named in another order", async () => {
    const dir = copyOf(repo);
    const out = await verify(dir, "processes/loan-copy.bpmn", "processes/loan.bpmn");
    expect(out.code).toBe(0);
    const byFolder = await verify(dir, "processes");
    expect(byFolder.code).toBe(0);
  });
});

describe("a config the config extends", () => {
  it("is a subject: an ignore added there since, hiding a new blocked process, is a change", async () => {
    const dir = allowedRepo();
    const configFile = join(dir, "agentflow.config.json");
    const config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
    writeFileSync(configFile, JSON.stringify({ ...config, extends: "./org.agentflow.json" }));
    writeFileSync(join(dir, "org.agentflow.json"), "{}\n");
    const made = await approveProcesses(dir);
    expect(made.code).toBe(0);
    const subject = readEnvelope(join(dir, "approval.json")).statement.subject;
    const org = subject.find((s) => s.name === "org.agentflow.json");
    expect(org?.digest.sha256).toBe(createHash("sha256").update("{}\n").digest("hex"));
    expect((await verify(dir)).code).toBe(0);
    // A blocked process, added and hidden from the walk by the shared config's ignores.
    copyFileSync("examples/processes/loan-origination.bpmn", join(dir, "processes/evil.bpmn"));
    writeFileSync(join(dir, "org.agentflow.json"), '{ "ignores": ["processes/evil.bpmn"] }\n');
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `org.agentflow.json: sha256 differs from the approved ${(org?.digest.sha256 ?? "").slice(0, 12)}…`,
    ]);
  });
});

describe("an approved folder", () => {
  it("that now holds a FIFO is not verified: what it would give is unknown", async () => {
    const dir = allowedRepo();
    const made = await approveProcesses(dir);
    expect(made.code).toBe(0);
    execFileSync("mkfifo", [join(dir, "processes/pipe.bpmn")]);
    const out = await verify(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: 'processes/pipe.bpmn' was passed over: a FIFO (named pipe), not a regular file; an approval reads every file of its paths, so none can be approved or verified with it there\n",
    );
  });

  it("holding a link out of the repository is not approved: an approval covers what it holds", async () => {
    const dir = allowedRepo();
    const elsewhere = join(tempDir("agentflow-approval-outside-"), "loan.bpmn");
    copyFileSync(join(dir, "processes/loan.bpmn"), elsewhere);
    symlinkSync(elsewhere, join(dir, "processes/linked.bpmn"));
    const made = await approveProcesses(dir);
    expect(made.code).toBe(2);
    expect(made.stderr).toBe(
      `agentflow: 'processes/linked.bpmn' leads outside the repository root ${dir} (a symbolic link to '${realpathSync(elsewhere)}'): an approval covers only what the repository holds\n`,
    );
  });

  it("whose process became a link out of the repository, to the same bytes, is not verified", async () => {
    const dir = allowedRepo();
    const made = await approveProcesses(dir);
    expect(made.code).toBe(0);
    const elsewhere = join(tempDir("agentflow-approval-outside-"), "loan.bpmn");
    copyFileSync(join(dir, "processes/loan.bpmn"), elsewhere);
    rmSync(join(dir, "processes/loan.bpmn"));
    symlinkSync(elsewhere, join(dir, "processes/loan.bpmn"));
    const out = await verify(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `'processes/loan.bpmn' leads outside the repository root ${dir} (a symbolic link to '${realpathSync(elsewhere)}')`,
    );
  });
});
