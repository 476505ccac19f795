/**
 * The plugin as a whole: its names and configuration mirror the BPMN rules, the CommonJS files
 * bpmnlint loads match it, one evaluation serves all nine rules of a lint pass (and never the
 * next pass), rule options are checked, and failures surface as bpmnlint rule errors.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ModdleObject } from "../../../src/bpmn/index.js";
import { BPMN_RULES } from "../../../src/bpmn/index.js";
import type { BpmnlintConfig } from "../../../src/bpmn/lint/index.js";
import {
  AGENTFLOW_RULE_NAMES,
  configs,
  createRules,
  PLUGIN_PACKAGE,
  PLUGIN_RULE_NAMES,
  POLICY_RULE_NAMES,
  ruleCode,
  rules,
  staticResolverCache,
} from "../../../src/bpmn/lint/index.js";
import { pathBelow } from "../../../src/bpmn/lint/path.js";
import { ruleHelpUri } from "../../../src/rules/index.js";
import {
  agentTask,
  camundaAgent,
  definitions,
  end,
  flows,
  gate,
  start,
  workflow,
} from "./fixtures.js";
import type { LintResults } from "./linter.js";
import { lint, staticLinter } from "./linter.js";
import { moddle } from "./rule-tester.js";

const require = createRequire(import.meta.url);
const PLUGIN_DIR = new URL("../../../bpmnlint-plugin/", import.meta.url);
const REF = "agnt-rsch@2.1.0";
const RECOMMENDED = { extends: "plugin:agentflow/recommended" };

/** Start → Agent (→ Review, a gate) → End. */
function linear(agent: string, gated = true): string {
  const ids = gated ? ["Start", "Agent", "Review", "End"] : ["Start", "Agent", "End"];
  return definitions(start(), agent, ...(gated ? [gate("Review")] : []), end(), ...flows(...ids));
}

/** `rule name: category element` per report, for compact expectations. */
function summary(results: LintResults): string[] {
  return Object.entries(results).flatMap(([name, reports]) =>
    reports.map((r) => `${name}: ${r.category} ${r.id ?? ""}`),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("names and configuration", () => {
  it("has one rule per BPMN rule but BPMN_PARSE, in run order, then policy and waived", () => {
    const codes = BPMN_RULES.map((r) => r.meta.code).filter((c) => c !== "BPMN_PARSE");
    expect(AGENTFLOW_RULE_NAMES.map(ruleCode)).toEqual(codes);
    expect(POLICY_RULE_NAMES).toEqual(["policy", "waived"]);
    expect(PLUGIN_RULE_NAMES).toEqual([...AGENTFLOW_RULE_NAMES, ...POLICY_RULE_NAMES]);
    expect(Object.keys(rules)).toEqual([...PLUGIN_RULE_NAMES]);
    expect(ruleCode("tool-effect-needs-gate")).toBe("TOOL_EFFECT_NEEDS_GATE");
  });

  it.each(AGENTFLOW_RULE_NAMES)("%s links the rule's page", (name) => {
    expect(rules[name]().meta).toEqual({
      documentation: { url: ruleHelpUri(ruleCode(name)) },
    });
  });

  it("recommends each rule at its default severity", () => {
    const expected = Object.fromEntries(
      BPMN_RULES.filter((r) => r.meta.code !== "BPMN_PARSE").map((r) => [
        r.meta.code.toLowerCase().replaceAll("_", "-"),
        r.meta.defaultSeverity === "warning" ? "warn" : r.meta.defaultSeverity,
      ]),
    );
    expect(configs.recommended).toEqual({ rules: expected });
    expect(configs.recommended.rules["agent-unresolved"]).toBe("warn");
    expect(configs.recommended.rules["agent-gate-optional"]).toBe("warn");
    expect(configs.recommended.rules["agent-gate-bypass"]).toBe("error");
  });

  it("is listed in docs/bpmnlint.md as recommended", () => {
    const docs = readFileSync(new URL("../../../docs/bpmnlint.md", import.meta.url), "utf8");
    const rows = [...docs.matchAll(/^\| `agentflow\/([a-z-]+)` +\| `([A-Z_]+)` +\| (\w+) +\|$/gm)];
    expect(rows.map((m) => [m[1], m[3]])).toEqual(Object.entries(configs.recommended.rules));
    expect(rows.map((m) => m[2])).toEqual(AGENTFLOW_RULE_NAMES.map(ruleCode));
  });

  it("ships the same recommended config as CommonJS for bpmnlint's NodeResolver", () => {
    const cjs = require("../../../bpmnlint-plugin/config/recommended.js") as BpmnlintConfig;
    expect(cjs).toEqual(configs.recommended);
  });

  it("ships one CommonJS file per rule, loading that rule", () => {
    const files = readdirSync(new URL("rules/", PLUGIN_DIR)).sort();
    expect(files).toEqual(PLUGIN_RULE_NAMES.map((n) => `${n}.js`).sort());
    for (const name of PLUGIN_RULE_NAMES) {
      const text = readFileSync(new URL(`rules/${name}.js`, PLUGIN_DIR), "utf8");
      expect(text).toContain(`module.exports = require("../load.js").rule("${name}");`);
    }
  });

  it("gives StaticResolver entries under the plugin's package name", () => {
    const cache = staticResolverCache();
    expect(Object.keys(cache)).toEqual([
      ...PLUGIN_RULE_NAMES.map((n) => `rule:${PLUGIN_PACKAGE}/${n}`),
      `config:${PLUGIN_PACKAGE}/recommended`,
    ]);
    expect(cache[`rule:${PLUGIN_PACKAGE}/agent-gate-bypass`]).toBe(rules["agent-gate-bypass"]);
  });
});

describe("linting with plugin:agentflow/recommended", () => {
  it("reports by rule name with the recommended categories", async () => {
    const xml = linear(agentTask("Agent", { ref: REF, level: "1", snapshot: workflow() }), false);
    const results = await lint(staticLinter(staticResolverCache()), xml, RECOMMENDED);
    expect(summary(results)).toEqual([
      "agentflow/agent-unresolved: warn Agent",
      "agentflow/agent-gate-unreachable: error Agent",
    ]);
  });

  it("lets a .bpmnlintrc override a rule's severity and options", async () => {
    const xml = linear(camundaAgent("Agent"), false);
    const results = await lint(staticLinter(staticResolverCache()), xml, {
      ...RECOMMENDED,
      rules: {
        "agentflow/agent-gate-unreachable": ["warn", { camundaAgents: "gate-required" }],
        "agentflow/agent-gate-optional": ["error", { camundaAgents: "gate-optional" }],
      },
    });
    expect(summary(results)).toEqual([
      "agentflow/agent-gate-unreachable: warn Agent",
      "agentflow/agent-gate-optional: error Agent",
    ]);
  });

  it("without resolveTool a tool's effect is unknown, and needs a gate (fail closed)", async () => {
    const payer = workflow("agnt-pay@1.0.0", {
      autonomyLevel: 5,
      nodes: [{ id: "pay", type: "tool", config: { usesTool: "tool:pay@1.0.0" } }],
    });
    const xml = linear(agentTask("Agent", { ref: "agnt-pay@1.0.0", snapshot: payer }), false);
    const results = await lint(staticLinter(staticResolverCache()), xml, RECOMMENDED);
    expect(summary(results)).toEqual([
      "agentflow/agent-unresolved: warn Agent",
      "agentflow/agent-dependency-unresolved: warn Agent",
      "agentflow/agent-gate-unreachable: error Agent",
      // The workflow declares 5: the scale's permanent warning, whatever gate the tool needs.
      "agentflow/agent-self-modifying: warn Agent",
      "agentflow/tool-effect-needs-gate: error Agent",
    ]);
  });

  it("looks at the bpmn:Definitions root only", async () => {
    const { root } = await moddle(linear(agentTask("Agent", { ref: "bad" }), false));
    const process = (root as { rootElements: unknown[] }).rootElements[0];
    const linter = staticLinter(staticResolverCache());
    expect(await linter.lint(process, RECOMMENDED)).toEqual({});
  });
});

describe("one evaluation per lint pass", () => {
  it("serves all nine rules from one evaluation, and re-evaluates an edited diagram", async () => {
    const resolveWorkflow = vi.fn(() => undefined);
    const linter = staticLinter(staticResolverCache(createRules({ resolveWorkflow })));
    const { root } = await moddle(linear(agentTask("Agent", { ref: REF, level: "1" })));
    expect(summary(await linter.lint(root, RECOMMENDED))).toEqual([
      "agentflow/agent-unresolved: warn Agent",
    ]);
    expect(resolveWorkflow).toHaveBeenCalledTimes(1);
    // As in bpmn-js: the same definitions object, edited in place (the gate marker removed).
    const review = (root as { rootElements: { flowElements: ModdleObject[] }[] }).rootElements[0]
      ?.flowElements[2];
    expect(review?.id).toBe("Review");
    (review as { extensionElements?: unknown }).extensionElements = undefined;
    expect(summary(await linter.lint(root, RECOMMENDED))).toEqual([
      "agentflow/agent-unresolved: warn Agent",
      "agentflow/agent-gate-unreachable: error Agent",
    ]);
    expect(resolveWorkflow).toHaveBeenCalledTimes(2);
  });

  it("evaluates once per policy when rules are configured differently", async () => {
    const resolveWorkflow = vi.fn(() => undefined);
    const linter = staticLinter(staticResolverCache(createRules({ resolveWorkflow })));
    const xml = linear(agentTask("Agent", { ref: REF, level: "1" }), false);
    await lint(linter, xml, {
      ...RECOMMENDED,
      rules: { "agentflow/agent-gate-optional": ["warn", { camundaAgents: "ignore" }] },
    });
    expect(resolveWorkflow).toHaveBeenCalledTimes(2);
  });
});

describe("rule options and failures", () => {
  it.each([
    [
      { camundaAgent: "ignore" },
      "unknown option 'camundaAgent' (known: camundaAgents, gates, toolEffects, policies, waivers, today)",
    ],
    [
      { camundaAgents: "never" },
      "unknown camundaAgents 'never' (expected gate-required, gate-optional, ignore)",
    ],
    ["ignore", "the rule's options must be an object"],
  ])(
    "reports the options %j on the root, in one line, and does not run",
    async (options, message) => {
      const linter = staticLinter(staticResolverCache());
      const xml = linear(agentTask("Agent", { ref: REF, level: "1" }), false);
      const results = await lint(linter, xml, {
        ...RECOMMENDED,
        rules: { "agentflow/agent-gate-bypass": ["error", options] },
      });
      expect(results["agentflow/agent-gate-bypass"]).toEqual([
        expect.objectContaining({
          id: "Definitions_1",
          message: `agentflow/agent-gate-bypass: ${message}; the rule did not run`,
          category: "error",
        }),
      ]);
    },
  );

  it("reports a failing evaluation as a rule error of each rule", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = createRules({
      isGate: () => {
        throw new Error("gate lookup failed");
      },
    });
    const xml = linear(agentTask("Agent", { ref: REF, level: "1" }));
    const results = await lint(staticLinter(staticResolverCache(broken)), xml, RECOMMENDED);
    expect(Object.keys(results)).toHaveLength(AGENTFLOW_RULE_NAMES.length);
    expect(results["agentflow/agent-gate-bypass"]).toEqual([
      { message: "gate lookup failed", category: "rule-error" },
    ]);
  });
});

describe("pathBelow", () => {
  const root = {
    $type: "bpmn:Definitions",
    rootElements: [
      { $type: "bpmn:Process", id: "P", flowElements: [{ $type: "bpmn:Task", id: "a/b" }] },
    ],
  };

  it("keeps the part below the element, indexes as numbers", () => {
    expect(
      pathBelow(root, "/rootElements/0/flowElements/0/extensionElements/values/1", "P"),
    ).toEqual(["flowElements", 0, "extensionElements", "values", 1]);
  });

  it("decodes escaped segments", () => {
    expect(pathBelow(root, "/rootElements/0/flowElements/0/x~1y~0z", "a/b")).toEqual(["x/y~z"]);
  });

  it("has no path for the element itself, another element, or no pointer", () => {
    expect(pathBelow(root, "/rootElements/0/flowElements/0", "a/b")).toBeUndefined();
    expect(pathBelow(root, "/rootElements/0/flowElements/0/name", "Q")).toBeUndefined();
    expect(pathBelow(root, "", "P")).toBeUndefined();
    expect(pathBelow(root, "/rootElements/0/name", "")).toBeUndefined();
  });
});
