/**
 * What a review of `approve` and `verify` found, held: a monorepo has one root whichever package
 * is named first, a folder's own config is not read by verify, a forged approval's inputs are
 * refused before anything is walked, an approval is never written into the registry, `--sign`
 * can check the signatures already there, a byte-order mark is not a change, and a claim cannot
 * carry a line break into a CI log.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApproval } from "../../src/approval/index.js";
import { pemSigner } from "../../src/keys/index.js";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import { allowedRepo, lines, makeKeys, readEnvelope, runIn } from "./approval-bundle.js";

let keys: Keys;

beforeAll(async () => {
  keys = await makeKeys();
});

/** A temporary approval file name, outside every repository. */
const outside = (): string => join(tempDir("agentflow-review-out-"), "approval.json");

/** `agentflow approve processes` in `repo`, signed by `signer` as role `r`, to `approval`. */
const approveAs = (repo: string, signer: string, approval: string): ReturnType<typeof runIn> =>
  runIn(repo, "approve", "processes", "--key", keys.key(signer), "--role", "r", "-o", approval);

describe("approve and verify, after review", () => {
  it("names inputs from the git root in a monorepo, whichever package comes first", async () => {
    const repo = allowedRepo();
    for (const pkg of ["p1", "p2"]) {
      mkdirSync(join(repo, pkg));
      writeFileSync(join(repo, pkg, "package.json"), "{}\n");
      writeFileSync(join(repo, pkg, "loan.bpmn"), readFileSync(join(repo, "processes/loan.bpmn")));
    }
    const approval = outside();
    const key = keys.key("alice");
    const made = await runIn(
      repo,
      "approve",
      "p1",
      "p2",
      "--key",
      key,
      "--role",
      "r",
      "-o",
      approval,
    );
    expect(made.code).toBe(0);
    const trusted = keys.trusted("alice");
    for (const [cwd, paths] of [
      [repo, ["p2", "p1"]],
      [join(repo, "p2"), []],
      [join(repo, "p1"), ["../p2", "."]],
    ] as const) {
      const out = await runIn(cwd, "verify", approval, "--trusted-keys", trusted, ...paths);
      expect({ cwd, code: out.code, stdout: out.stdout }).toMatchObject({ code: 0 });
    }
  });

  it("does not read a config in the folder verify runs from when the approval had none", async () => {
    const repo = allowedRepo();
    const approval = outside();
    const made = await runIn(
      repo,
      "approve",
      "processes",
      "--no-config",
      "--registry",
      "registry",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      approval,
    );
    expect(made.code).toBe(0);
    // The repository's own config (with its pack and plugin) sits at the root: approve was told
    // --no-config, so it records none; verify then reads the root's as appeared since.
    const atRoot = await runIn(repo, "verify", approval, "--trusted-keys", keys.trusted("alice"));
    expect(lines(atRoot.stdout)).toEqual([
      expect.stringMatching(/^rule set: digest sha256:[0-9a-f]{12}… differs from the approved /),
      "agentflow.config.json: added since the approval (the config)",
      "policy/acme.js: added since the approval (a plugin)",
      "policy/bank.policy.yaml: added since the approval (a policy pack)",
    ]);
    mkdirSync(join(repo, "docs"));
    writeFileSync(join(repo, "docs/agentflow.config.json"), '{ "preset": "strict" }\n');
    const inDocs = await runIn(
      join(repo, "docs"),
      "verify",
      approval,
      "--trusted-keys",
      keys.trusted("alice"),
    );
    expect(lines(inDocs.stdout)).toEqual(lines(atRoot.stdout));
  });

  it("refuses an approval recording inputs outside the root before walking them (exit 2)", async () => {
    const repo = allowedRepo();
    const approval = outside();
    await approveAs(repo, "alice", approval);
    const { envelope, statement } = readEnvelope(approval);
    for (const path of ["/usr", "processes/../..", "../elsewhere"]) {
      const forged = {
        ...statement,
        predicate: {
          ...statement.predicate,
          inputs: { ...statement.predicate.inputs, paths: [path] },
        },
      };
      const signed = await createApproval(
        forged,
        pemSigner(readFileSync(keys.key("carol"), "utf8")),
      );
      const file = outside();
      writeFileSync(
        file,
        JSON.stringify({ ...envelope, payload: signed.payload, signatures: signed.signatures }),
      );
      // Carol is trusted: an approval no trusted key signed is refused before its inputs are read.
      const trusted = keys.trusted("alice", "carol");
      const out = await runIn(repo, "verify", file, "--trusted-keys", trusted);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        /records the input '.*', which is not a path relative to the repository root|is outside the repository root/,
      );
    }
  });

  it("refuses to write the approval inside a registry folder", async () => {
    const repo = allowedRepo();
    const out = await runIn(
      repo,
      "approve",
      "processes",
      "--key",
      keys.key("alice"),
      "--role",
      "r",
      "-o",
      "registry/approval.json",
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: -o 'registry/approval.json' is inside the registry folder 'registry': write the approval outside it\n",
    );
  });

  it("with --trusted-keys, --sign refuses to sign under a signature no trusted key made", async () => {
    const repo = allowedRepo();
    const approval = outside();
    await approveAs(repo, "carol", approval);
    const out = await runIn(
      repo,
      "approve",
      "--sign",
      approval,
      "--key",
      keys.key("bob"),
      "--role",
      "c",
      "--trusted-keys",
      keys.trusted("alice"),
    );
    expect(out.code).toBe(1);
    expect(lines(out.stdout)).toEqual([
      `signature 1 (key ${keys.keyid("carol").slice(0, 12)}…): not from a trusted key`,
    ]);
    const checked = await runIn(
      repo,
      "approve",
      "--sign",
      approval,
      "--key",
      keys.key("bob"),
      "--role",
      "c",
      "--trusted-keys",
      keys.trusted("carol"),
    );
    expect(checked.code).toBe(0);
    const unchecked = await runIn(
      repo,
      "approve",
      "--sign",
      approval,
      "--key",
      keys.key("alice"),
      "--role",
      "a",
    );
    expect(unchecked.stderr).toContain("were not checked (give --trusted-keys to check them)");
    expect(unchecked.code).toBe(0);
  });

  it("reads an approval file saved with a byte-order mark as the same approval", async () => {
    const repo = allowedRepo();
    const approval = outside();
    await approveAs(repo, "alice", approval);
    writeFileSync(approval, "\uFEFF" + readFileSync(approval, "utf8"));
    const out = await runIn(repo, "verify", approval, "--trusted-keys", keys.trusted("alice"));
    expect(out.code).toBe(0);
  });

  it("refuses a role or ticket holding a control character (exit 2)", async () => {
    const repo = allowedRepo();
    const out = await runIn(
      repo,
      "approve",
      "processes",
      "--key",
      keys.key("alice"),
      "--role",
      "risk\n::error::all good",
      "-o",
      outside(),
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: --role holds a control character (a line break?); give plain text\n",
    );
  });
});
