/**
 * What the approval commands read, and what follows: `-o` never writes over a trusted key (a
 * file given, or one a folder gave) nor into a trusted-keys folder under a key's name; `approve`
 * records no name `verify` would refuse; `report --approval` hashes no subject an untrusted
 * approval names outside the repository.
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "../../src/approval/index.js";
import { tempDir } from "../temp.js";
import type { Keys } from "./approval-bundle.js";
import { allowedRepo, approvedRepo, copyOf, readEnvelope, runIn } from "./approval-bundle.js";

let keys: Keys;
let repo: string;

beforeAll(async () => {
  ({ repo, keys } = await approvedRepo());
});

/**
 * A trusted-keys folder holding alice.pub; elsewhere, copies of it and hard links to it (named as
 * a key and as a report), and bob's private key.
 */
function keyFiles(): {
  folder: string;
  file: string;
  link: string;
  md: string;
  mdLink: string;
  bobKey: string;
} {
  const folder = keys.trusted("alice");
  const elsewhere = tempDir("agentflow-approval-reads-");
  const file = join(elsewhere, "alice.pub");
  copyFileSync(keys.pub("alice"), file);
  const md = join(elsewhere, "alice.md");
  copyFileSync(keys.pub("alice"), md);
  const link = join(elsewhere, "alice-link.txt");
  linkSync(join(folder, "alice.pub"), link);
  const mdLink = join(elsewhere, "alice-link.html");
  linkSync(join(folder, "alice.pub"), mdLink);
  const bobKey = join(elsewhere, "bob.key");
  copyFileSync(keys.key("bob"), bobKey);
  return { folder, file, link, md, mdLink, bobKey };
}

type Place = ReturnType<typeof keyFiles>;
const sign = (p: Place) => ["approve", "--sign", "approval.json", "--key", p.bobKey, "--role", "c"];
const report = ["report", "processes/loan.bpmn", "--registry", "registry", "--approval"];

describe("-o and the trusted keys", () => {
  it.each([
    [
      "verify, -o the key file given",
      (p: Place) => ["verify", "approval.json", "--trusted-keys", p.file, "-o", p.file],
      (p: Place) => p.file,
      "is a trusted key, which this run reads",
    ],
    [
      "verify, -o a folder's key by another name",
      (p: Place) => ["verify", "approval.json", "--trusted-keys", p.folder, "-o", p.link],
      (p: Place) => p.link,
      "is a trusted key '",
    ],
    [
      "approve --sign, -o the key file given",
      (p: Place) => [...sign(p), "--trusted-keys", p.file, "-o", p.file],
      (p: Place) => p.file,
      "is a trusted key, which this run reads",
    ],
    [
      "approve --sign, -o a folder's key by another name",
      (p: Place) => [...sign(p), "--trusted-keys", p.folder, "-o", p.link],
      (p: Place) => p.link,
      "is a trusted key '",
    ],
    // A report is written as .html or .md: a key file may have any name.
    [
      "report --approval, -o the key file given",
      (p: Place) => [...report, "approval.json", "--trusted-keys", p.md, "-o", p.md],
      (p: Place) => p.md,
      "is a trusted key, which this run reads",
    ],
    [
      "report --approval, -o a folder's key by another name",
      (p: Place) => [...report, "approval.json", "--trusted-keys", p.folder, "-o", p.mdLink],
      (p: Place) => p.mdLink,
      "is a trusted key '",
    ],
  ])("%s: exit 2, the key left as it was", async (_case, argv, target, said) => {
    const dir = copyOf(repo);
    const place = keyFiles();
    const before = readFileSync(target(place));
    const out = await runIn(dir, ...argv(place));
    expect([out.code, out.stdout]).toEqual([2, ""]);
    expect(out.stderr).toContain(said);
    expect(readFileSync(target(place))).toEqual(before);
    expect(readFileSync(join(dir, "approval.json"), "utf8")).toBe(
      readFileSync(join(repo, "approval.json"), "utf8"),
    );
  });

  it.each([
    ["verify", (p: Place) => ["verify", "approval.json", "--trusted-keys", p.folder]],
    ["approve --sign", (p: Place) => [...sign(p), "--trusted-keys", p.folder]],
  ])(
    "%s: -o a key's name in a trusted-keys folder is exit 2, other names are written",
    async (_case, argv) => {
      const dir = copyOf(repo);
      const place = keyFiles();
      for (const name of ["report.pem", "report.pub"]) {
        const out = await runIn(dir, ...argv(place), "-o", join(place.folder, name));
        expect(out.code).toBe(2);
        expect(out.stderr).toBe(
          `agentflow: -o '${join(place.folder, name)}' is in the trusted-keys folder '${place.folder}' under a name read as a key (*.pub, *.pem): the next run would read it as a trusted key; write it elsewhere\n`,
        );
        expect(existsSync(join(place.folder, name))).toBe(false);
      }
      const fine = await runIn(dir, ...argv(place), "-o", join(place.folder, "report.json"));
      expect(fine.code).toBe(0);
      expect(existsSync(join(place.folder, "report.json"))).toBe(true);
    },
  );
});

describe("approve records no name verify would refuse", () => {
  it.each([
    ["the file", "processes/a\\b.bpmn"],
    ["its folder", "processes"],
  ])(
    "a process named with a backslash, given as %s: exit 2 naming it, nothing written",
    async (_case, path) => {
      const dir = allowedRepo();
      copyFileSync(join(dir, "processes/loan.bpmn"), join(dir, "processes/a\\b.bpmn"));
      const out = await runIn(
        dir,
        "approve",
        path,
        "--key",
        keys.key("alice"),
        "--role",
        "r",
        "-o",
        "approval.json",
      );
      expect(out.code).toBe(2);
      expect(out.stderr).toBe(
        "agentflow: 'processes/a\\b.bpmn' cannot be approved: its name holds a backslash (a folder separator on Windows), and verify refuses an approval that records a name that is not a path relative to the repository root (rename it)\n",
      );
      expect(existsSync(join(dir, "approval.json"))).toBe(false);
    },
  );
});

/** The approval with `names` added as subjects (not re-signed: the report trusts no signature). */
function withSubjects(dir: string, names: readonly string[]): string {
  const { envelope, statement } = readEnvelope(join(dir, "approval.json"));
  const added = names.map((name) => ({
    name,
    digest: { sha256: "0".repeat(64) },
    annotations: { agentflowKind: "tool" as const },
  }));
  const subject = [...statement.subject, ...added].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const payload = Buffer.from(JSON.stringify({ ...statement, subject })).toString("base64");
  const file = join(tempDir("agentflow-approval-forged-"), "approval.json");
  writeFileSync(file, JSON.stringify({ ...envelope, payload } satisfies Envelope));
  return file;
}

describe("report --approval reads no subject outside the root", () => {
  it.each([
    [
      "an absolute name and one climbing out",
      ["/etc/hostname", "../../../../etc/passwd"],
      "'../../../../etc/passwd' (its name has an empty, '.' or '..' segment); '/etc/hostname' (its name is an absolute path)",
    ],
    [
      "a name with a backslash",
      ["registry\\x.json"],
      "'registry\\x.json' (its name holds a backslash (a folder separator on Windows))",
    ],
  ])("%s: exit 2 naming each, no report", async (_case, names, said) => {
    const dir = copyOf(repo);
    const approval = withSubjects(dir, names);
    const out = await runIn(
      dir,
      "report",
      "processes/loan.bpmn",
      "--approval",
      approval,
      "-o",
      "r.html",
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      `agentflow: --approval '${approval}' is not an approval agentflow can check: it names subjects that are not paths inside the repository root, and none was read: ${said}\n`,
    );
    expect(existsSync(join(dir, "r.html"))).toBe(false);
  });

  it("a subject a symbolic link leads out of the root: exit 2 naming it, no report", async () => {
    const dir = copyOf(repo);
    const outside = join(tempDir("agentflow-approval-outside-"), "secret.json");
    writeFileSync(outside, "{}\n");
    symlinkSync(outside, join(dir, "registry/linked.json"));
    const approval = withSubjects(dir, ["registry/linked.json"]);
    const out = await runIn(
      dir,
      "report",
      "processes/loan.bpmn",
      "--approval",
      approval,
      "-o",
      "r.html",
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("registry/linked.json' leads outside the repository root");
    expect(existsSync(join(dir, "r.html"))).toBe(false);
  });
});
