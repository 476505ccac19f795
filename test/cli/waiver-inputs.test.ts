/**
 * Waivers across the inputs of one run (red team: a config waiver meant for one file's process
 * waived another file's process of the same id, exit 0, "4 waived", nothing said). A waiver names
 * a process by its id alone, so when two inputs define the id it cannot say which was reviewed:
 * `check` and `gate` refuse the run (exit 2), naming the waiver and the files, as they refuse a
 * waiver whose bare rule id is more than one pack's. And two packs of one name are refused with
 * the line every surface gives.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PolicyRepo } from "./policy-repo.js";
import { BANK, configFile, inRepo, policyRepo } from "./policy-repo.js";
import { run } from "./run.js";

let repo: PolicyRepo;

const GRANT = { reason: "reviewed loan.bpmn", grantedBy: "cro", expires: "2099-12-31" };
const ON_OFFER = { process: "LoanOrigination", element: "DraftAndSendOffer", ...GRANT };
const WAIVERS = [
  { rule: "AGENT_GATE_UNREACHABLE", ...ON_OFFER },
  { rule: "TOOL_EFFECT_NEEDS_GATE", ...ON_OFFER },
];
const shared = (config: string, i: number): string =>
  `${config}waivers[${i}].process: "LoanOrigination" is the id of a process in 2 inputs (processes/loan.bpmn, processes/other-team.bpmn); a waiver names a process by its id alone, so nothing says which one was reviewed, and it would waive them all: give each process an id of its own`;

beforeAll(() => {
  repo = policyRepo();
  const loan = readFileSync(join(repo.dir, "processes/loan.bpmn"), "utf8");
  // Another team's process under the same id, and a process of an id of its own.
  writeFileSync(
    join(repo.dir, "processes/other-team.bpmn"),
    loan.replace('name="Consumer loan origination"', 'name="Business loans (team B)"'),
  );
  writeFileSync(
    join(repo.dir, "processes/renamed.bpmn"),
    loan.replaceAll('"LoanOrigination"', '"BusinessLoans"'),
  );
  configFile(repo, "agentflow.config.json", { registry: "registry", waivers: WAIVERS });
  const waiving = `${BANK}waivers:\n  - rule: no-commitments-above-2\n    process: LoanOrigination\n    reason: r\n    grantedBy: g\n    expires: "2099-12-31"\n`;
  writeFileSync(join(repo.dir, "policy/waiving.policy.yaml"), waiving);
  configFile(repo, "pack.config.json", {
    registry: "registry",
    policies: ["policy/waiving.policy.yaml"],
  });
  writeFileSync(join(repo.dir, "policy/team.policy.yaml"), BANK.replace("1.2.0", '"0.1"'));
  configFile(repo, "clash.config.json", {
    registry: "registry",
    policies: ["policy/bank.policy.yaml", "policy/team.policy.yaml"],
  });
});

const cli = (...args: string[]) => inRepo(repo, () => run(...args, "--today", "2027-01-15"));

describe("a waiver of a process id two inputs define", () => {
  it.each([
    [
      "check",
      "agentflow.config.json",
      [shared("agentflow.config.json: ", 0), shared("agentflow.config.json: ", 1)],
    ],
    [
      "gate",
      "agentflow.config.json",
      [shared("agentflow.config.json: ", 0), shared("agentflow.config.json: ", 1)],
    ],
    ["check", "pack.config.json", [shared("policy/waiving.policy.yaml: ", 0)]],
    ["gate", "pack.config.json", [shared("policy/waiving.policy.yaml: ", 0)]],
  ])("%s with %s: exit 2, naming each waiver and both files", async (command, config, lines) => {
    const out = await cli(
      command,
      "-c",
      config,
      "processes/loan.bpmn",
      "processes/other-team.bpmn",
    );
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(`agentflow: ${lines.join("\n")}\n`);
  });

  const ALLOWED = "processes/loan.bpmn: promotion ALLOWED (0 blocking, 0 warning(s), 2 waived)";
  it.each([
    ["loan.bpmn alone", ["processes/loan.bpmn"], 0, [ALLOWED]],
    [
      "beside a process of another id",
      ["processes/loan.bpmn", "processes/renamed.bpmn"],
      1,
      [ALLOWED, "processes/renamed.bpmn: promotion BLOCKED (2 blocking, 0 warning(s))"],
    ],
  ])("gate of %s: the waiver waives its one process", async (_name, files, code, verdicts) => {
    const out = await cli("gate", ...files);
    expect(out.code).toBe(code);
    expect(out.stdout.split("\n").filter((l) => l.includes(": promotion "))).toEqual(verdicts);
  });
});

describe("two packs of one name in the config", () => {
  it("are exit 2, with the line every surface gives", async () => {
    const out = await cli("check", "-c", "clash.config.json", "processes/loan.bpmn");
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: clash.config.json: policy pack policy/team.policy.yaml is named 'bank', as policy pack policy/bank.policy.yaml is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules\n",
    );
  });
});
