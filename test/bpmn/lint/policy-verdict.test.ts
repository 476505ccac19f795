/**
 * One verdict in bpmnlint and `agentflow gate` (issue 40, item 7): with every rule of the plugin
 * given the same packs, waivers and day, lint errors are exactly the findings that block the
 * gate; a waived finding leaves its rule and shows under `waived`; a waiver that expired, or names
 * a gone element, is said by the rule of the code it names; rules configured alike share one
 * evaluation.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  AGENTFLOW_RULE_NAMES,
  configs,
  createRules,
  ruleCode,
  staticResolverCache,
} from "../../../src/bpmn/lint/index.js";
import { tempDir } from "../../temp.js";
import { namedCheck } from "../named-check.js";
import { loanXml, registry } from "../../bpmn-js/loan.js";
import type { LintConfig, LintResults } from "./linter.js";
import { lint, staticLinter } from "./linter.js";
import {
  gateFindings,
  linter,
  PACK,
  PACK_YAML,
  reportsOf,
  TODAY,
  WAIVER,
} from "./policy-fixtures.js";

/** Every rule of the plugin with the same options, at its recommended category. */
function everyRule(options: object, policySeverities: readonly string[] = ["error"]): LintConfig {
  const rules: Record<string, unknown> = {};
  for (const [name, category] of Object.entries(configs.recommended.rules)) {
    rules[`agentflow/${name}`] = [category, options];
  }
  rules["agentflow/policy"] = ["error", { ...options, severities: policySeverities }];
  rules["agentflow/waived"] = ["info", options];
  return { rules };
}

/** `CODE@element` of every lint error, the `policy` rule's by the code its message starts with. */
function lintErrors(results: LintResults): string[] {
  return Object.entries(results).flatMap(([name, reports]) =>
    reports
      .filter((r) => r.category === "error")
      .map((r) => {
        const rule = name.slice("agentflow/".length);
        const code = rule === "policy" ? (r.message.split(": ")[0] ?? "") : rule;
        const known = AGENTFLOW_RULE_NAMES.find((n) => n === code);
        return `${known === undefined ? code : ruleCode(known)}@${r.id ?? ""}`;
      }),
  );
}

describe("one verdict with agentflow gate", () => {
  it("lints as errors exactly the findings that block the gate", async () => {
    const options = { policies: [PACK] };
    const check = await namedCheck(loanXml, { ...registry, ...options });
    const results = await lint(linter(), loanXml, everyRule(options));
    const blocking = check.blocking.map((d) => {
      const id = d.target.kind === "bpmn-element" ? d.target.elementId : "";
      return `${d.code}@${id}`;
    });
    expect(check.allowed).toBe(false);
    expect(lintErrors(results).sort()).toEqual(blocking.sort());
    expect(blocking).toContain("bank/four-eyes@DraftAndSendOffer");
  });

  it("waives what the gate waives: the finding leaves its rule and shows under waived", async () => {
    // A pack waives only its own rules; agentflow's are waived in the settings.
    const pack = { ...PACK, waivers: [{ ...WAIVER, rule: "four-eyes" }] };
    const options = { policies: [pack], waivers: [WAIVER], today: TODAY };
    const check = await namedCheck(loanXml, { ...registry, ...options });
    const results = await lint(linter(), loanXml, everyRule(options));
    const blocking = check.blocking.map(
      (d) => `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`,
    );
    expect(lintErrors(results).sort()).toEqual(blocking.sort());
    expect(blocking).toEqual(["TOOL_EFFECT_NEEDS_GATE@DraftAndSendOffer"]);
    expect(results["agentflow/agent-gate-unreachable"]).toBeUndefined();
    const waived = check.warnings.filter((d) => d.waived !== undefined);
    expect(reportsOf(results, "waived", "info")).toEqual(
      waived.map(
        (d) =>
          `DraftAndSendOffer: ${d.code}: ${d.message} (waived by cro@bank.example until 2027-03-31: ${WAIVER.reason})`,
      ),
    );
    expect(waived.map((d) => d.code)).toEqual(["AGENT_GATE_UNREACHABLE", "bank/four-eyes"]);
    expect(waived.map((d) => d.message)).toEqual([
      expect.stringMatching(/^agent task "Draft and send offer" \(autonomy level 3\) needs /),
      expect.stringMatching(
        /^agent task "Draft and send offer" breaks .*: Draft and send offer → Offer sent$/,
      ),
    ]);
  });

  it("an expired waiver waives nothing, and its rule says so", async () => {
    const options = {
      policies: [PACK],
      waivers: [{ ...WAIVER, expires: "2026-12-31" }],
      today: TODAY,
    };
    const check = await namedCheck(loanXml, { ...registry, ...options });
    const results = await lint(linter(), loanXml, everyRule(options));
    const expired = gateFindings(check, (code) => code === "WAIVER_EXPIRED");
    expect(expired).toEqual([
      `DraftAndSendOffer: WAIVER_EXPIRED: the waiver of AGENT_GATE_UNREACHABLE for element "Draft and send offer" of process "Consumer loan origination" (granted by cro@bank.example: ${WAIVER.reason}) expired on 2026-12-31; it no longer applies`,
    ]);
    expect(reportsOf(results, "agent-gate-unreachable")).toEqual(
      [...gateFindings(check, (code) => code === "AGENT_GATE_UNREACHABLE"), ...expired].map(
        (line) => line.replace(/^(\w+): AGENT_GATE_UNREACHABLE: /, "$1: "),
      ),
    );
    expect(results["agentflow/waived"]).toBeUndefined();
    expect(lintErrors(results)).toContain("AGENT_GATE_UNREACHABLE@DraftAndSendOffer");
  });

  it("a waiver of a pack rule that names a gone element is the policy rule's to say", async () => {
    const gone = { ...WAIVER, rule: "bank/four-eyes", element: "OldOfferTask" };
    const options = { policies: [PACK], waivers: [gone], today: TODAY };
    const check = await namedCheck(loanXml, { ...registry, ...options });
    const results = await lint(linter(), loanXml, {
      rules: { "agentflow/policy": ["error", options] },
    });
    const missing = gateFindings(check, (code) => code === "WAIVER_SUBJECT_MISSING");
    // The gone element has no name to show: its id stays.
    expect(missing).toEqual([
      'LoanOrigination: WAIVER_SUBJECT_MISSING: the waiver of bank/four-eyes names element "OldOfferTask", which process "Consumer loan origination" does not have; it waives nothing',
    ]);
    expect(reportsOf(results, "policy")).toContain(missing[0]);
  });

  it("rules configured alike share one evaluation, the pack known by its content", async () => {
    const resolveWorkflow = vi.fn(registry.resolveWorkflow);
    const spied = staticLinter(staticResolverCache(createRules({ ...registry, resolveWorkflow })));
    const dir = tempDir("agentflow-lint-pack-");
    writeFileSync(join(dir, "bank.policy.yaml"), PACK_YAML);
    await lint(spied, loanXml, {
      rules: {
        "agentflow/policy": ["error", { policies: [join(dir, "bank.policy.yaml")] }],
        "agentflow/agent-gate-bypass": ["error", { policies: [{ ...PACK }] }],
        "agentflow/agent-gate-unreachable": ["error", { policies: [PACK] }],
      },
    });
    // Two agent tasks, one evaluation.
    expect(resolveWorkflow).toHaveBeenCalledTimes(2);
  });
});
