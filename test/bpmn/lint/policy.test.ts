/**
 * Policy packs in the bpmnlint plugin (issue 40, item 7): bpmnlint's real `Linter` on the example
 * loan process (with its DI) and the example registry, the pack given as data, compiled, from the
 * host, and as a file path. The `policy` rule reports exactly what `checkProcess` finds for the
 * pack's codes (and a host plugin's), at the pack severities asked for, its messages naming the
 * elements by their names (test/bpmn/named-check.ts).
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { createRules, staticResolverCache } from "../../../src/bpmn/lint/index.js";
import type { PackProcessContext } from "../../../src/policy/index.js";
import { compilePolicyPack } from "../../../src/policy/index.js";
import { defineRule } from "../../../src/rules/index.js";
import { tempDir } from "../../temp.js";
import { namedCheck } from "../named-check.js";
import { loanXml, registry } from "../../bpmn-js/loan.js";
import { lint, staticLinter } from "./linter.js";
import { gateFindings, isPackCode, linter, PACK, PACK_YAML, reportsOf } from "./policy-fixtures.js";

describe("the policy rule", () => {
  it("reports exactly what checkProcess finds for the pack, given as data", async () => {
    const check = await namedCheck(loanXml, { ...registry, policies: [PACK] });
    const results = await lint(linter(), loanXml, {
      rules: { "agentflow/policy": ["error", { policies: [PACK] }] },
    });
    const expected = gateFindings(check, isPackCode);
    expect(reportsOf(results, "policy")).toEqual(expected);
    // The elements by their names, the subject as the path: the ids stay in `id` and `data`.
    expect(expected).toEqual([
      'DraftAndSendOffer: bank/four-eyes: agent task "Draft and send offer" breaks policy rule four-eyes of bank: every path from it to an end must pass at least 2 gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes no gate with an approver role: Draft and send offer → Offer sent',
      "DraftAndSendOffer: bank/level-cap: Draft and send offer runs at level 3",
      'LoanOrigination: bank/two-agents: process "Consumer loan origination" breaks policy rule two-agents of bank',
    ]);
    expect(results["agentflow/policy"]?.[0]?.meta).toEqual({
      documentation: { url: "https://agentflow.dev/docs/policies.md" },
    });
  });

  it("reads a pack file by its path, relative to the working directory", async () => {
    const dir = tempDir("agentflow-lint-pack-");
    writeFileSync(join(dir, "bank.policy.yaml"), PACK_YAML);
    const path = relative(process.cwd(), join(dir, "bank.policy.yaml"));
    expect(path.startsWith("/")).toBe(false);
    const fromFile = await lint(linter(), loanXml, {
      rules: { "agentflow/policy": ["error", { policies: [path] }] },
    });
    const fromData = await lint(linter(), loanXml, {
      rules: { "agentflow/policy": ["error", { policies: [PACK] }] },
    });
    expect(reportsOf(fromFile, "policy")).toEqual(reportsOf(fromData, "policy"));
    expect(reportsOf(fromFile, "policy")).toHaveLength(3);
  });

  it("takes compiled packs, and the host's packs when its options name none", async () => {
    const compiled = compilePolicyPack(PACK);
    const check = await namedCheck(loanXml, { ...registry, policies: [compiled] });
    const own = await lint(linter(), loanXml, {
      rules: { "agentflow/policy": ["error", { policies: [compiled] }] },
    });
    const host = staticLinter(staticResolverCache(createRules({ ...registry, policies: [PACK] })));
    const fromHost = await lint(host, loanXml, { rules: { "agentflow/policy": "warn" } });
    expect(reportsOf(own, "policy")).toEqual(gateFindings(check, isPackCode));
    expect(reportsOf(fromHost, "policy", "warn")).toEqual(gateFindings(check, isPackCode));
  });

  it("reports the findings of the host's plugins, prefixed with their codes", async () => {
    const levelCap = defineRule<PackProcessContext>({
      meta: {
        code: "LEVEL_CAP",
        scope: "process",
        defaultSeverity: "error",
        description: "An agent task runs above level 2",
        docs: "https://policy.example.com/acme/LEVEL_CAP",
        messages: { default: 'agent task "{{name}}" runs at level {{level}}' },
      },
      check(context) {
        for (const task of context.view?.agentTasks ?? []) {
          if (task.level !== null && task.level > 2) {
            const { elementId, path } = task.place;
            context.report({
              elementId,
              path,
              data: { name: task.element.name, level: task.level },
            });
          }
        }
      },
    });
    const plugins = {
      acme: { meta: { name: "acme", version: "1.0.0" }, rules: { LEVEL_CAP: levelCap } },
    };
    const check = await namedCheck(loanXml, { ...registry, plugins });
    const host = staticLinter(staticResolverCache(createRules({ ...registry, plugins })));
    const results = await lint(host, loanXml, { rules: { "agentflow/policy": "error" } });
    expect(reportsOf(results, "policy")).toEqual(gateFindings(check, (c) => c.startsWith("acme/")));
    expect(reportsOf(results, "policy")).toEqual([
      'DraftAndSendOffer: acme/LEVEL_CAP: agent task "Draft and send offer" runs at level 3',
    ]);
  });

  it("reports only the pack severities asked for", async () => {
    const results = await lint(linter(), loanXml, {
      rules: {
        "agentflow/policy": ["error", { policies: [PACK], severities: ["warning", "info"] }],
      },
    });
    expect(reportsOf(results, "policy").map((r) => r.split(": ")[1])).toEqual([
      "bank/level-cap",
      "bank/two-agents",
    ]);
  });
});
