/**
 * Waivers in `agentflow.config.json`: a waived finding no longer blocks but is shown as waived in
 * every format (never dropped); an expired waiver blocks again and is itself a finding; the day
 * waivers are judged on is `--today` (a past verdict can be reproduced) and every output says it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PolicyRepo } from "./policy-repo.js";
import { checkProcess } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import { readPolicyPack } from "../../src/policy/index.js";
import { gateOptions } from "../../src/cli/gate-options.js";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import { BANK, configFile, inRepo, policyRepo } from "./policy-repo.js";
import { run } from "./run.js";

let repo: PolicyRepo;

const GRANT = {
  reason: "pilot with capped amounts",
  grantedBy: "CRO J. Doe",
  expires: "2027-03-31",
};
const ON_OFFER = { process: "LoanOrigination", element: "DraftAndSendOffer", ...GRANT };
const WAIVED = "waived until 2027-03-31 (CRO J. Doe): pilot with capped amounts";

beforeAll(() => {
  repo = policyRepo();
  configFile(repo, "agentflow.config.json", {
    registry: "registry",
    policies: ["policy/bank.policy.yaml"],
    waivers: [
      // A pack rule by its bare id, and two built-in codes.
      { rule: "no-commitments-above-2", ...ON_OFFER },
      { rule: "AGENT_GATE_UNREACHABLE", ...ON_OFFER },
      { rule: "TOOL_EFFECT_NEEDS_GATE", ...ON_OFFER },
    ],
  });
});

const gate = (...args: string[]): ReturnType<typeof run> =>
  inRepo(repo, () => run("gate", ...args, "processes/loan.bpmn"));

describe("a waiver in force", () => {
  it("text: ALLOWED, each waived finding shown with its waiver, the day named", async () => {
    const out = await gate("--today", "2027-01-15");
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines).toContain(
      "processes/loan.bpmn: promotion ALLOWED (0 blocking, 0 warning(s), 3 waived)",
    );
    expect(lines).toContain(
      `  54:23  error    Draft and send offer runs at level 3 and can commit the bank  bank/no-commitments-above-2  ${WAIVED}`,
    );
    expect(lines.filter((l) => l.endsWith(WAIVED))).toHaveLength(3);
    expect(lines).toContain("⚠ 3 problems (0 errors, 0 warnings, 3 waived) in 1 file checked");
    expect(lines.find((l) => l.startsWith("rule set: "))).toMatch(
      /; waivers judged on 2027-01-15\)$/,
    );
  });

  it("json: allowed, each waived finding carries its waiver, the rule set its waivers", async () => {
    const out = await gate("--today", "2027-01-15", "-f", "json");
    const decision = JSON.parse(out.stdout) as {
      allowed: boolean;
      blocking: unknown[];
      warnings: { code: string; severity: string; waived?: unknown }[];
      ruleSet: { waivers: unknown[] };
    };
    expect(decision.allowed).toBe(true);
    expect(decision.blocking).toEqual([]);
    expect(decision.warnings.map((w) => [w.code, w.severity, w.waived])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "error", GRANT],
      ["TOOL_EFFECT_NEEDS_GATE", "error", GRANT],
      ["bank/no-commitments-above-2", "error", GRANT],
    ]);
    expect(decision.ruleSet.waivers).toHaveLength(3);
  });

  it("sarif: waived results are suppressions, accepted, with the waiver as justification", async () => {
    const out = await gate("--today", "2027-01-15", "-f", "sarif");
    const log = JSON.parse(out.stdout) as {
      runs: {
        results: { ruleId: string; suppressions?: unknown[] }[];
        properties: { agentflow: { today: string } };
      }[];
    };
    const results = log.runs[0]?.results ?? [];
    expect(results).toHaveLength(3);
    for (const r of results) {
      expect(r.suppressions).toEqual([
        {
          kind: "external",
          status: "accepted",
          justification: "pilot with capped amounts (granted by CRO J. Doe, expires 2027-03-31)",
        },
      ]);
    }
    expect(log.runs[0]?.properties.agentflow.today).toBe("2027-01-15");
  });

  it("junit passes, gitlab says info, github a notice: each still names the finding", async () => {
    const junit = (await gate("--today", "2027-01-15", "-f", "junit")).stdout;
    expect(junit).toContain('tests="3" failures="0" errors="0"');
    expect(junit).toContain(`${WAIVED}; not a failure while the waiver holds`);
    const gitlab = JSON.parse((await gate("--today", "2027-01-15", "-f", "gitlab")).stdout) as {
      severity: string;
    }[];
    expect(gitlab.map((i) => i.severity)).toEqual(["info", "info", "info"]);
    const github = (await gate("--today", "2027-01-15", "-f", "github")).stdout;
    expect(github.split("\n").filter((l) => l.startsWith("::notice file="))).toHaveLength(3);
    expect(github).not.toContain("::error");
  });
});

describe("one policy, one digest", () => {
  it("the CLI names the rule set the library's decision names for the same pack and waivers", async () => {
    const cli = JSON.parse((await gate("--today", "2027-01-15", "-f", "json")).stdout) as {
      allowed: boolean;
      blocking: Diagnostic[];
      warnings: Diagnostic[];
      ruleSet: { digest: string };
    };
    const reading = readPolicyPack(BANK, "policy/bank.policy.yaml");
    if (!("pack" in reading)) throw new Error("the bank pack does not compile");
    const waivers = [
      "no-commitments-above-2",
      "AGENT_GATE_UNREACHABLE",
      "TOOL_EFFECT_NEEDS_GATE",
    ].map((rule) => ({ rule, ...ON_OFFER }));
    const registry = await loadFolderRegistry([join(repo.dir, "registry")], "--registry");
    const library = await checkProcess(
      readFileSync(join(repo.dir, "processes/loan.bpmn"), "utf8"),
      {
        ...gateOptions(registry),
        policies: [reading.pack],
        waivers,
        today: "2027-01-15",
      },
    );
    expect(cli.ruleSet.digest).toBe(library.ruleSet.digest);
    // One verdict: the same findings, on the same elements, waived the same way.
    const shape = (d: Diagnostic) => [d.code, d.target, d.message, d.waived ?? null];
    expect(cli.allowed).toBe(library.allowed);
    expect([...cli.blocking, ...cli.warnings].map(shape)).toEqual(
      [...library.blocking, ...library.warnings].map(shape),
    );
  });
});

describe("an expired waiver", () => {
  it("blocks again, and says so as WAIVER_EXPIRED; --today reproduces either verdict", async () => {
    const out = await gate("--today", "2027-04-01");
    expect(out.code).toBe(1);
    const lines = out.stdout.split("\n");
    expect(lines).toContain("processes/loan.bpmn: promotion BLOCKED (6 blocking, 0 warning(s))");
    expect(lines).toContain(
      '  54:23  error    the waiver of no-commitments-above-2 for element "DraftAndSendOffer" of process "LoanOrigination" (granted by CRO J. Doe: pilot with capped amounts) expired on 2027-03-31; it no longer applies  WAIVER_EXPIRED',
    );
    expect(lines.some((l) => l.includes(WAIVED))).toBe(false);
    // The last day of a waiver is still in it.
    expect((await gate("--today", "2027-03-31")).code).toBe(0);
  });
});

describe("a waiver of a workflow in check", () => {
  it("covers the workflow id@version it names, until it expires", async () => {
    configFile(repo, "workflow.config.json", {
      plugins: { acme: "./policy/acme.js" },
      waivers: [
        {
          rule: "acme/MODEL_ALLOWED",
          workflow: "agnt-market-research@2.0.1",
          reason: "evaluation",
          grantedBy: "ML lead",
          expires: "2027-01-01",
        },
      ],
    });
    const check = (today: string): ReturnType<typeof run> =>
      inRepo(repo, () => run("check", "-c", "workflow.config.json", "--today", today, "agents"));
    const held = await check("2026-12-01");
    expect(held.code).toBe(0);
    expect(held.stdout).toContain(
      '  29:18  warning  node "plan-queries" uses mistral-large, which is not allowed  acme/MODEL_ALLOWED  waived until 2027-01-01 (ML lead): evaluation',
    );
    const expired = await check("2027-01-02");
    expect(expired.code).toBe(1);
    expect(expired.stdout).toContain(
      "error    the waiver of acme/MODEL_ALLOWED for workflow agnt-market-research@2.0.1 (granted by ML lead: evaluation) expired on 2027-01-01; it no longer applies  WAIVER_EXPIRED",
    );
  });
});

describe("waivers the config gets wrong are exit 2", () => {
  it("a waiver of a rule that does not exist, or with a day that does not", async () => {
    configFile(repo, "typo.config.json", {
      policies: ["policy/bank.policy.yaml"],
      waivers: [{ rule: "no-commitment-above-2", ...ON_OFFER }],
    });
    const typo = await gate("-c", "typo.config.json");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      "agentflow: typo.config.json: waivers[0].rule: 'no-commitment-above-2' is no rule of this config (a built-in code, <plugin>/<CODE>, or a policy pack rule's id)\n",
    );
    configFile(repo, "day.config.json", {
      waivers: [{ rule: "AGENT_GATE_UNREACHABLE", ...ON_OFFER, expires: "2027-02-30" }],
    });
    const day = await gate("-c", "day.config.json");
    expect(day.code).toBe(2);
    expect(day.stderr).toBe(
      'agentflow: day.config.json: waivers[0].expires: "2027-02-30" is not a calendar date written YYYY-MM-DD\n',
    );
  });

  it("a waiver that names no subject breaks the schema", async () => {
    configFile(repo, "subject.config.json", {
      waivers: [{ rule: "AGENT_GATE_UNREACHABLE", ...GRANT }],
    });
    const out = await gate("-c", "subject.config.json");
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: subject.config.json: waivers[0]: names no subject: give 'process' (with an optional 'element') or 'workflow'\n",
    );
  });
});

describe("the audit report with the organisation's policy", () => {
  it("lists the pack under what was reviewed, and each waived finding with its waiver", async () => {
    const out = await inRepo(repo, () =>
      run("report", "processes/loan.bpmn", "--today", "2027-01-15", "-o", "report.md"),
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toBe("agentflow: wrote report.md (nothing blocks)\n");
    const md = readFileSync(join(repo.dir, "report.md"), "utf8");
    expect(md).toContain(
      `| policy pack | bank\\@1.2.0 | ${repo.bankHash} | its rules are bank/… |`,
    );
    expect(md).toMatch(/\| rule set \| .* \| 3 waiver\(s\); waivers judged on 2027-01-15 \|/);
    expect(md).toContain(
      `- \`bank/no-commitments-above-2\` (error) at 54:23: Draft and send offer runs at level 3 and can commit the bank (${WAIVED})`,
    );
    expect(md).toContain("| `bank/no-commitments-above-2` | error | ✔ passed, 1 waived |");
  });

  it("blocks when the waiver has expired", async () => {
    const out = await inRepo(repo, () =>
      run("report", "processes/loan.bpmn", "--today", "2027-04-01", "-o", "expired.md"),
    );
    expect(out.code).toBe(1);
    const md = readFileSync(join(repo.dir, "expired.md"), "utf8");
    expect(md).toContain("`WAIVER_EXPIRED`");
  });
});

describe("a waiver of a bare rule id that two packs share", () => {
  const COST = BANK.replace("name: bank", "name: cost");

  it("in the config, is exit 2 naming both rules, not a waiver of both", async () => {
    writeFileSync(join(repo.dir, "policy/cost.policy.yaml"), COST);
    const config = configFile(repo, "ambiguous.config.json", {
      registry: "registry",
      policies: ["policy/bank.policy.yaml", "policy/cost.policy.yaml"],
      waivers: [{ rule: "no-commitments-above-2", ...ON_OFFER }],
    });
    const out = await inRepo(repo, () => run("gate", "-c", config, "processes/loan.bpmn"));
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: ambiguous.config.json: waivers[0].rule: 'no-commitments-above-2' is a rule of more than one pack (bank/no-commitments-above-2, cost/no-commitments-above-2): write <pack>/<id>\n",
    );
  });

  it("that is also agentflow's code, in the config, is exit 2 naming both", async () => {
    const shadow = BANK.replace("id: no-commitments-above-2", "id: TOOL_EFFECT_NEEDS_GATE");
    writeFileSync(join(repo.dir, "policy/shadow.policy.yaml"), shadow);
    const config = configFile(repo, "shadow.config.json", {
      registry: "registry",
      policies: ["policy/shadow.policy.yaml"],
      waivers: [{ rule: "TOOL_EFFECT_NEEDS_GATE", ...ON_OFFER }],
    });
    const out = await inRepo(repo, () => run("gate", "-c", config, "processes/loan.bpmn"));
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: shadow.config.json: waivers[0].rule: 'TOOL_EFFECT_NEEDS_GATE' is agentflow's rule and a pack's (TOOL_EFFECT_NEEDS_GATE, bank/TOOL_EFFECT_NEEDS_GATE): write <pack>/<id> for a pack's; agentflow's can be waived once no pack's rule has its id\n",
    );
  });

  it("in a pack's own waivers, is exit 2 naming the pack's file, with no waiver in the config", async () => {
    const waiving = `${COST}waivers:\n  - rule: no-commitments-above-2\n    process: LoanOrigination\n    element: DraftAndSendOffer\n    reason: ${GRANT.reason}\n    grantedBy: ${GRANT.grantedBy}\n    expires: "${GRANT.expires}"\n`;
    writeFileSync(join(repo.dir, "policy/cost-waiving.policy.yaml"), waiving);
    const config = configFile(repo, "ambiguous-pack.config.json", {
      registry: "registry",
      policies: ["policy/bank.policy.yaml", "policy/cost-waiving.policy.yaml"],
    });
    const out = await inRepo(repo, () => run("gate", "-c", config, "processes/loan.bpmn"));
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      "agentflow: policy/cost-waiving.policy.yaml: waivers[0].rule: 'no-commitments-above-2' is a rule of more than one pack (bank/no-commitments-above-2, cost/no-commitments-above-2): write <pack>/<id>\n",
    );
  });
});
