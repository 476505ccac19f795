/**
 * `agentflow report --approval` (issue 41, item 7): the report shows the approval's signers as
 * the envelope's claims (or, with `--trusted-keys`, which verified), every approved file with its
 * approved digest and whether its bytes now are those (hashed under the repository root, found
 * from the process file), and the agent tasks whose decision changed since. The same inputs give
 * the same bytes; an approval that is not one is exit 2 with a clear message.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/keys/index.js";
import { LOAN_NAME, LOAN_REGISTRY, loanApproval } from "../bpmn-js/loan-approval.js";
import { tempDir } from "../temp.js";
import { run, STACK_LINE } from "./run.js";

const approved = await loanApproval();

/** A repository (a `package.json` marks its root) holding the approved files as approved. */
function repository(): { root: string; approval: string; process: string } {
  const root = tempDir("agentflow-report-approval-");
  writeFileSync(join(root, "package.json"), "{}\n");
  mkdirSync(join(root, "processes"));
  mkdirSync(join(root, "registry"));
  writeFileSync(join(root, LOAN_NAME), readFileSync("examples/processes/loan-origination.bpmn"));
  for (const file of Object.values(LOAN_REGISTRY)) {
    writeFileSync(join(root, "registry", file), readFileSync(join("examples/registry", file)));
  }
  const approval = join(root, "approval.json");
  writeFileSync(approval, `${JSON.stringify(approved.envelope, null, 2)}\n`);
  return { root, approval, process: join(root, LOAN_NAME) };
}

async function report(
  repo: { root: string; approval: string; process: string },
  out: string,
  ...extra: string[]
) {
  const result = await run(
    "report",
    repo.process,
    "--no-config",
    "--registry",
    join(repo.root, "registry"),
    "--approval",
    repo.approval,
    ...extra,
    "-o",
    join(repo.root, out),
  );
  const text = result.code === 2 ? "" : readFileSync(join(repo.root, out), "utf8");
  return { ...result, text };
}

/** The lines of the Markdown section, from its heading to the next `## `. */
function section(md: string): string {
  const start = md.indexOf("## Approval\n");
  const end = md.indexOf("\n## ", start + 1);
  return md.slice(start, end);
}

const short = approved.key.keyid.slice(0, 12);

describe("agentflow report --approval", () => {
  it("shows the claims as unverified, every file unchanged and no task changed, the same bytes twice", async () => {
    const repo = repository();
    const first = await report(repo, "a.md");
    const second = await report(repo, "b.md");
    // The report's own verdict is unchanged by the approval: the example blocks.
    expect(first.code).toBe(1);
    expect(first.text).toBe(second.text);
    const md = section(first.text);
    expect(md).toContain(
      "no signature was verified (give --trusted-keys to check them, or run agentflow verify)",
    );
    expect(md).toContain(
      `| \`${short}…\` | credit-risk-officer | CHG-1042 | 2026-01-15T10:00:00Z | not checked |`,
    );
    expect(md).toContain("Every approved file is unchanged");
    for (const subject of approved.statement.subject) {
      expect(md).toContain(
        `| \`${subject.name}\` | ${subject.annotations.agentflowKind} | \`${subject.digest.sha256}\` | ✔ unchanged |`,
      );
    }
    expect(md).toContain(
      `No agent task's decision changed since the approval (its entry ${LOAN_NAME}).`,
    );
  });

  it("names the files that drifted and the agent task whose workflow changed", async () => {
    const repo = repository();
    const offer = join(repo.root, "registry/offer-sender.agent.json");
    const doc = JSON.parse(readFileSync(offer, "utf8")) as { name: string };
    writeFileSync(offer, JSON.stringify({ ...doc, name: `${doc.name} (edited)` }, null, 2));
    rmSync(join(repo.root, "registry/credit-bureau-report.tool.json"));
    const { text } = await report(repo, "drift.md");
    const md = section(text);
    expect(md).toContain("1 of 5 approved file(s) changed since the approval, 1 missing");
    expect(md).toMatch(
      /\| `registry\/offer-sender\.agent\.json` \| workflow \| `[0-9a-f]{64}` \| ✖ changed since the approval \|/,
    );
    expect(md).toMatch(
      /\| `registry\/credit-bureau-report\.tool\.json` \| tool \| `[0-9a-f]{64}` \| ✖ missing \|/,
    );
    expect(md).toMatch(
      /\| `processes\/loan-origination\.bpmn` \| process \| `[0-9a-f]{64}` \| ✔ unchanged \|/,
    );
    expect(md).toContain("2 agent task(s) differ from the approved decision");
    // The offer's workflow hash changed; the risk task's tool contract can no longer be read.
    expect(md).toContain("| `DraftAndSendOffer` | changed since the approval: contentHash |");
    expect(md).toMatch(/\| `AssessCreditRisk` \| changed since the approval: [^|]*dependencies/);
  });

  it("shows a redrawn process: a gate removed changes the gate of the tasks behind it", async () => {
    const repo = repository();
    const xml = readFileSync(repo.process, "utf8").replace(
      '<btv:gate approverRole="senior-credit-officer" />',
      "",
    );
    writeFileSync(repo.process, xml);
    const { text } = await report(repo, "redrawn.html");
    expect(text).toContain('<section id="approval">');
    expect(text).toContain('<a href="#approval">Approval</a>');
    expect(text).toMatch(
      /<code>processes\/loan-origination\.bpmn<\/code><\/td><td>process<\/td><td><code class="hash">[0-9a-f]{64}<\/code><\/td><td><span class="tag bad">✖ changed since the approval<\/span>/,
    );
    expect(text).toContain(
      '<tr class="failed"><td><code>AssessCreditRisk</code></td><td>changed since the approval: gate</td></tr>',
    );
    expect(text).toContain("✖ approval: 1 file(s), 1 agent task(s) changed");
  });

  it("says when the approval holds no decision for the process file", async () => {
    const repo = repository();
    const copy = join(repo.root, "processes/copy.bpmn");
    writeFileSync(copy, readFileSync(repo.process));
    const { text } = await report({ ...repo, process: copy }, "copy.md");
    const md = section(text);
    expect(md).toContain("The approval holds no decision for this process file");
    expect(md).toContain("| `AssessCreditRisk` | not in the approval |");
    expect(md).toContain("| `DraftAndSendOffer` | not in the approval |");
  });

  it("with --trusted-keys, says which signatures verified", async () => {
    const repo = repository();
    const pub = join(repo.root, "alice.pub");
    writeFileSync(pub, approved.key.publicKeyPem);
    const trusted = await report(repo, "trusted.md", "--trusted-keys", pub);
    const md = section(trusted.text);
    expect(md).toContain("Checked against 1 trusted key(s): 1 of 1 signature(s) verified");
    expect(md).toContain(
      `| \`${short}…\` | credit-risk-officer | CHG-1042 | 2026-01-15T10:00:00Z | ✔ verified |`,
    );

    const other = join(repo.root, "mallory.pub");
    writeFileSync(other, generateKeyPair().publicKeyPem);
    const untrusted = await report(repo, "untrusted.md", "--trusted-keys", other);
    const md2 = section(untrusted.text);
    expect(md2).toContain("0 of 1 signature(s) verified");
    expect(md2).toContain("✖ not verified |");
    expect(md2).toMatch(/- signature 1 \(key [0-9a-f]+…\): not from a trusted key/);
  });

  it("shows a signature under the key that verified it, whatever keyid the envelope names", async () => {
    const repo = repository();
    const pub = join(repo.root, "alice.pub");
    writeFileSync(pub, approved.key.publicKeyPem);
    // The keyid is a hint (docs/approval.md): alice's signature under another key's id verifies.
    const other = generateKeyPair().keyid;
    const renamed = {
      ...approved.envelope,
      signatures: approved.envelope.signatures.map((sig) => ({ ...sig, keyid: other })),
    };
    writeFileSync(repo.approval, `${JSON.stringify(renamed, null, 2)}\n`);
    const md = section((await report(repo, "renamed.md", "--trusted-keys", pub)).text);
    expect(md).toContain("Checked against 1 trusted key(s): 1 of 1 signature(s) verified");
    expect(md).toContain(
      `| \`${short}…\` | credit-risk-officer | CHG-1042 | 2026-01-15T10:00:00Z | ✔ verified |`,
    );
    expect(md).not.toContain(other.slice(0, 12));
  });

  it("refuses an approval that is not one, and --trusted-keys without one (exit 2)", async () => {
    const repo = repository();
    writeFileSync(repo.approval, "{ not json");
    const notJson = await report(repo, "x.md");
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`--approval '${repo.approval}' is not JSON`);
    expect(notJson.stderr).not.toMatch(STACK_LINE);

    const swapped = { ...approved.envelope, payloadType: "application/json" };
    writeFileSync(repo.approval, JSON.stringify(swapped));
    const wrongType = await report(repo, "y.md");
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toMatch(/is not an approval: .*payloadType/);

    const statement = { ...approved.statement, subject: [...approved.statement.subject].reverse() };
    const payload = Buffer.from(JSON.stringify(statement)).toString("base64");
    writeFileSync(repo.approval, JSON.stringify({ ...approved.envelope, payload }));
    const unsorted = await report(repo, "z.md");
    expect(unsorted.code).toBe(2);
    expect(unsorted.stderr).toContain("is not an approval");
    expect(unsorted.stderr.trim().split("\n")).toHaveLength(1);

    const missing = await run(
      "report",
      repo.process,
      "--approval",
      join(repo.root, "none.json"),
      "-o",
      join(repo.root, "m.md"),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read the approval");

    const keysAlone = await run(
      "report",
      repo.process,
      "--trusted-keys",
      "k.pub",
      "-o",
      join(repo.root, "k.md"),
    );
    expect(keysAlone.code).toBe(2);
    expect(keysAlone.stderr).toContain("--trusted-keys and --root apply with --approval");
  });
});
