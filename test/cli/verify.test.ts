/**
 * `agentflow verify`: its formats (text, json, sarif) and -o, the trusted keys it reads (folders,
 * files, `role=path`), what is exit 2 (a malformed approval or key, bad options), a process that
 * cannot be read now (a reason, not a crash), and the built CLI end to end.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { createApproval } from "../../src/approval/index.js";
import { pemSigner } from "../../src/keys/index.js";
import { signedByHand } from "../approval/helpers.js";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import {
  allowedRepo,
  copyOf,
  lines,
  makeKeys,
  PLUGIN,
  readEnvelope,
  replaceIn,
  runIn,
} from "./approval-bundle.js";

let keys: Keys;
let repo: string;

beforeAll(async () => {
  keys = await makeKeys();
  repo = allowedRepo();
  const made = await runIn(
    repo,
    "approve",
    "processes",
    "--key",
    keys.key("alice"),
    "--role",
    "risk-officer",
    "--ticket",
    "CHG-7",
    "-o",
    "approval.json",
  );
  expect(made.code).toBe(0);
});

const verify = (dir: string, ...more: string[]) =>
  runIn(dir, "verify", "approval.json", "--trusted-keys", keys.pub("alice"), ...more);

const digestOf = (dir: string, name: string): string =>
  readEnvelope(join(dir, "approval.json")).statement.subject.find((s) => s.name === name)?.digest
    .sha256 ?? "?";

describe("agentflow verify formats", () => {
  it("prints the result as JSON data", async () => {
    const ok = await verify(repo, "-f", "json");
    expect(ok.code).toBe(0);
    const good = JSON.parse(ok.stdout) as { ok: boolean; reasons: unknown[]; signers: unknown[] };
    expect(good.ok).toBe(true);
    expect(good.reasons).toEqual([]);
    expect(good.signers).toEqual([
      expect.objectContaining({
        keyid: keys.keyid("alice"),
        role: "risk-officer",
        ticket: "CHG-7",
      }),
    ]);
    const dir = copyOf(repo);
    replaceIn(join(dir, "processes/loan.bpmn"), "Consumer loan", "Consumer loaN");
    const bad = await verify(dir, "-f", "json");
    expect(bad.code).toBe(1);
    const data = JSON.parse(bad.stdout) as {
      ok: boolean;
      reasons: { code: string; subject: string; data: { approved: string } }[];
    };
    expect(data.ok).toBe(false);
    expect(data.reasons.map((r) => [r.code, r.subject, r.data.approved])).toEqual([
      ["SUBJECT_CHANGED", "processes/loan.bpmn", digestOf(dir, "processes/loan.bpmn")],
    ]);
  });

  it("prints SARIF: one result per reason, its rule the code, its artifact the subject", async () => {
    const dir = copyOf(repo);
    replaceIn(join(dir, "registry/send-loan-offer.tool.json"), "{", "{ ");
    const out = await runIn(
      dir,
      "verify",
      "approval.json",
      "--trusted-keys",
      keys.pub("alice"),
      "--require-roles",
      "compliance",
      "-f",
      "sarif",
    );
    expect(out.code).toBe(1);
    const log = JSON.parse(out.stdout) as {
      version: string;
      runs: {
        originalUriBaseIds: { "%SRCROOT%": { uri: string } };
        tool: { driver: { rules: { id: string }[] } };
        results: {
          ruleId: string;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } };
          }[];
        }[];
      }[];
    };
    expect(log.version).toBe("2.1.0");
    const [run] = log.runs;
    expect(run?.originalUriBaseIds["%SRCROOT%"].uri).toBe(`${pathToFileURL(dir).href}/`);
    expect(run?.tool.driver.rules.map((r) => r.id)).toEqual(["ROLE_MISSING", "SUBJECT_CHANGED"]);
    expect(
      run?.results.map((r) => [
        r.ruleId,
        r.level,
        r.locations[0]?.physicalLocation.artifactLocation.uri,
        r.message.text,
      ]),
    ).toEqual([
      ["ROLE_MISSING", "error", "approval.json", "role compliance: no trusted signer"],
      [
        "SUBJECT_CHANGED",
        "error",
        "registry/send-loan-offer.tool.json",
        `registry/send-loan-offer.tool.json: sha256 differs from the approved ${digestOf(dir, "registry/send-loan-offer.tool.json").slice(0, 12)}…`,
      ],
    ]);
  });

  it("writes the report with -o, a summary on stderr, and never over the approval", async () => {
    const dir = copyOf(repo);
    const out = await verify(dir, "-o", "report.txt");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe("agentflow: wrote report.txt: verified (1 trusted signature(s))\n");
    expect(readFileSync(join(dir, "report.txt"), "utf8")).toMatch(/^approval\.json: verified: /);
    const over = await verify(dir, "-o", "approval.json");
    expect(over.code).toBe(2);
    expect(over.stderr).toContain("the approval");
  });
});

describe("agentflow verify --trusted-keys", () => {
  it("reads every *.pub and *.pem of a folder, and role=path grants only that role", async () => {
    const folder = keys.trusted("bob", "alice");
    writeFileSync(join(folder, "README.txt"), "not a key, not read");
    expect((await runIn(repo, "verify", "approval.json", "--trusted-keys", folder)).code).toBe(0);
    const granted = await runIn(
      repo,
      "verify",
      "approval.json",
      "--trusted-keys",
      `risk-officer=${keys.pub("alice")}`,
    );
    expect(granted.code).toBe(0);
    const other = await runIn(
      repo,
      "verify",
      "approval.json",
      "--trusted-keys",
      `compliance=${keys.pub("alice")}`,
    );
    expect(other.code).toBe(1);
    expect(lines(other.stdout)).toEqual([
      `signature 1 (key ${keys.keyid("alice").slice(0, 12)}…): role risk-officer is not granted to this key (granted: compliance)`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
  });

  it.each([
    ["a folder with no key", () => tempDir("agentflow-verify-empty-"), "holds no key"],
    ["a missing path", () => "/no/such/keys", "no such file or directory"],
    ["a private key", () => keys.key("alice"), "a private key"],
    [
      "a file that is no key",
      () => {
        const file = join(tempDir("agentflow-verify-bad-"), "x.pub");
        writeFileSync(file, "ssh-ed25519 AAAAC3Nza alice@laptop\n");
        return file;
      },
      "an OpenSSH public key line",
    ],
  ])("exits 2 for %s", async (_what, path, message) => {
    const out = await runIn(repo, "verify", "approval.json", "--trusted-keys", path());
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
  });

  it("exits 2 without --trusted-keys: no key from the envelope is ever trusted", async () => {
    const out = await runIn(repo, "verify", "approval.json");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("verify needs --trusted-keys");
  });
});

describe("agentflow verify exit 2", () => {
  it.each([
    ["not JSON", "{", "not JSON"],
    [
      "no signatures",
      '{"payloadType":"application/vnd.in-toto+json","payload":"e30="}',
      "signatures: missing",
    ],
    [
      "a payload that is not base64",
      '{"payloadType":"application/vnd.in-toto+json","payload":"***","signatures":[{"keyid":"","sig":"AA=="}]}',
      "payload: not base64",
    ],
  ])("for an envelope with %s", async (_what, text, message) => {
    const dir = copyOf(repo);
    writeFileSync(join(dir, "approval.json"), text);
    const out = await verify(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
  });

  it.each([
    [["--max-age", "30"], "--max-age needs a whole number"],
    [["--max-age", "2w"], "--max-age needs a whole number"],
    [["--max-age", "0d"], "--max-age needs a whole number"],
    [["--now", "yesterday"], "--now needs an ISO 8601 time"],
    [["--threshold", "0"], "--threshold needs a whole number ≥ 1"],
    [["--require-roles", "a,,b"], "names an empty role"],
    [["-f", "html"], "unknown format 'html' (expected text, json, sarif)"],
  ])("for %j", async (options, message) => {
    const out = await verify(repo, ...options);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
  });
});

describe("agentflow verify on files that changed", () => {
  it("a process that cannot be read as BPMN now is a reason, not a crash", async () => {
    const dir = copyOf(repo);
    writeFileSync(join(dir, "processes/loan.bpmn"), "<not-closed");
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toContain(
      `processes/loan.bpmn: sha256 differs from the approved ${digestOf(dir, "processes/loan.bpmn").slice(0, 12)}…`,
    );
    expect(lines(out.stdout)).toContain(
      "processes/loan.bpmn: promotion BLOCKED now, approved ALLOWED",
    );
  });

  it("every process gone and the config too: each file gone reads as removed, each left as unread", async () => {
    const dir = copyOf(repo);
    rmSync(join(dir, "processes"), { recursive: true });
    rmSync(join(dir, "agentflow.config.json"));
    const out = await verify(dir);
    expect(out.code).toBe(1);
    const names = (said: string): string[] =>
      lines(out.stdout)
        .filter((l) => l.includes(said))
        .map((l) => l.slice(0, l.indexOf(":")));
    const gone = ["agentflow.config.json", "processes/loan-copy.bpmn", "processes/loan.bpmn"];
    expect(names(": removed since the approval")).toEqual(gone);
    expect(names(": unchanged, but no longer an input of the decisions")).toEqual(
      readEnvelope(join(dir, "approval.json"))
        .statement.subject.map((s) => s.name)
        .filter((name) => !gone.includes(name)),
    );
  });

  it("a config that appeared since an approval made without one is an added subject", async () => {
    const dir = allowedRepo();
    rmSync(join(dir, "agentflow.config.json"));
    const made = await runIn(
      dir,
      "approve",
      "processes",
      "--registry",
      "registry",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      "approval.json",
    );
    expect(made.code).toBe(0);
    expect((await verify(dir)).code).toBe(0);
    writeFileSync(join(dir, "agentflow.config.json"), '{ "registry": "registry" }\n');
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      "agentflow.config.json: added since the approval (the config)",
    ]);
  });
});

describe("agentflow verify reads nothing an approval names outside the repository", () => {
  it("exits 2 before loading a config a trusted approval points outside the root", async () => {
    const dir = copyOf(repo);
    const evil = tempDir("agentflow-verify-evil-");
    mkdirSync(join(evil, ".git"));
    const marker = join(evil, "ran");
    writeFileSync(
      join(evil, "plugin.js"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport default {};\n`,
    );
    writeFileSync(join(evil, "agentflow.config.json"), '{ "plugins": { "evil": "./plugin.js" } }');
    const { statement } = readEnvelope(join(dir, "approval.json"));
    const config = `${"../".repeat(8)}${evil.slice(1)}/agentflow.config.json`;
    const forged = {
      ...statement,
      subject: [
        {
          name: config,
          digest: { sha256: "0".repeat(64) },
          annotations: { agentflowKind: "config" },
        },
        ...statement.subject,
      ],
      predicate: { ...statement.predicate, inputs: { ...statement.predicate.inputs, config } },
    };
    // Signed by the trusted key: the check that refuses it is the root's, not the signature's.
    const alice = pemSigner(readFileSync(keys.key("alice"), "utf8"));
    writeFileSync(
      join(dir, "approval.json"),
      JSON.stringify(await signedByHand(forged, [[alice, statement.predicate.approver]])),
    );
    const out = await verify(dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      `the approval records the input '${config}', which is not a path relative to the repository root`,
    );
    expect(existsSync(marker)).toBe(false);
  });
});

describe("agentflow verify runs nothing an untrusted approval chooses", () => {
  it("refuses on the signatures alone, before loading the config and plugin it names", async () => {
    const dir = copyOf(repo);
    const marker = join(dir, "ran");
    writeFileSync(
      join(dir, "policy/evil.js"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\n${PLUGIN}`,
    );
    const config = "policy/evil.config.json";
    writeFileSync(join(dir, config), '{ "plugins": { "acme": "./evil.js" } }\n');
    const { statement } = readEnvelope(join(dir, "approval.json"));
    const subject = [
      ...statement.subject,
      {
        name: config,
        digest: {
          sha256: createHash("sha256")
            .update(readFileSync(join(dir, config)))
            .digest("hex"),
        },
        annotations: { agentflowKind: "config" as const },
      },
    ].sort((a, b) => (a.name < b.name ? -1 : 1));
    const forged = {
      ...statement,
      subject,
      predicate: { ...statement.predicate, inputs: { ...statement.predicate.inputs, config } },
    };
    const bob = pemSigner(readFileSync(keys.key("bob"), "utf8"));
    writeFileSync(join(dir, "approval.json"), JSON.stringify(await createApproval(forged, bob)));
    const out = await verify(dir);
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `signature 1 (key ${keys.keyid("bob").slice(0, 12)}…): not from a trusted key`,
      "1 distinct trusted signature needed, 0 verified",
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("the built CLI (npm run build)", () => {
  it("makes keys, approves and verifies, from the repository and from a subfolder", () => {
    const bin = resolve("bin/agentflow.js");
    const dir = allowedRepo();
    const keyDir = tempDir("agentflow-verify-bin-");
    const cli = (cwd: string, ...argv: string[]) =>
      spawnSync(process.execPath, [bin, ...argv], { cwd, encoding: "utf8" });
    expect(cli(keyDir, "keygen", "-o", "ops").status).toBe(0);
    mkdirSync(join(keyDir, "trusted"));
    writeFileSync(join(keyDir, "trusted/ops.pub"), readFileSync(join(keyDir, "ops.pub")));
    const made = cli(
      dir,
      "approve",
      "processes",
      "--key",
      join(keyDir, "ops.key"),
      "--role",
      "ops",
      "-o",
      "approval.json",
    );
    expect(made.stderr).toContain("wrote approval.json");
    expect(made.status).toBe(0);
    const ok = cli(
      join(dir, "policy"),
      "verify",
      "../approval.json",
      "--trusted-keys",
      join(keyDir, "trusted"),
    );
    expect(ok.stdout).toMatch(/verified: 9 subject\(s\) unchanged/);
    expect(ok.status).toBe(0);
    replaceIn(join(dir, "policy/acme.js"), "Finds nothing", "Finds nothinG");
    const bad = cli(dir, "verify", "approval.json", "--trusted-keys", join(keyDir, "trusted"));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("policy/acme.js: sha256 differs from the approved");
  });
});
