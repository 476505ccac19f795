/**
 * The module's options (issue 23): a wrong option is named in one sentence when the modeller is
 * built, instead of failing later inside an evaluation.
 */
import { describe, expect, it } from "vitest";
import { BPMN_RULES, evaluateGates, readProcess } from "../../src/bpmn/index.js";
import { configProblems, refProblem } from "../../src/bpmn-js/index.js";
import { AgentflowService } from "../../src/bpmn-js/service.js";
import { BPMN_RULE_CODES, WORKFLOW_RULE_CODES } from "../../src/rules/builtin-codes.js";
import { RULES } from "../../src/validate/index.js";
import { loanXml, registry } from "./loan.js";

describe("configProblems", () => {
  it("accepts no options, and the options of evaluateGates", () => {
    expect(configProblems(undefined)).toEqual([]);
    expect(
      configProblems({
        resolveWorkflow: () => undefined,
        resolveTool: () => Promise.resolve(undefined),
        isGate: () => false,
        policy: { camundaAgents: "gate-optional" },
        rules: { AGENT_UNRESOLVED: "off", AGENT_GATE_BYPASS: "warning" },
        workflowValidation: {
          preset: "strict",
          rules: { AUTONOMY_CHAIN: "off", AUTONOMY_INCOHERENT: ["warning", {}] },
        },
        debounce: 0,
        active: false,
      }),
    ).toEqual([]);
  });

  it("names every wrong option", () => {
    expect(
      configProblems({
        resolveWorkflow: {},
        isGate: "UserTask",
        policy: { camundaAgents: "never" },
        debounce: Number.NaN,
        active: "yes",
        registry: "./registry",
      }),
    ).toEqual([
      "unknown agentflow option 'registry' (known: resolveWorkflow, resolveTool, isGate, policy, rules, workflowValidation, lookupTimeoutMs, toolEffects, gates, policies, waivers, today, plugins, debounce, active, approval)",
      "agentflow.resolveWorkflow must be a function, got object",
      "agentflow.isGate must be a function, got string",
      "unknown agentflow.policy.camundaAgents 'never' (expected gate-required, gate-optional, ignore)",
      "agentflow.debounce must be a number of milliseconds ≥ 0, got NaN",
      "agentflow.active must be true or false, got string",
    ]);
    expect(configProblems([])).toEqual(["agentflow options must be an object, got an array"]);
    expect(configProblems({ policy: null })).toEqual([
      "agentflow.policy must be an object, got null",
    ]);
  });

  it("checks rules and workflowValidation as evaluateGates reads them", () => {
    expect(
      configProblems({
        rules: { AGENT_GATE_BYPAS: "off", AGENT_UNRESOLVED: "fatal" },
        workflowValidation: {
          preset: "lenient",
          rules: { AUTONOMY_CHAIN: "of", AGENT_GATE_BYPASS: "off", AUTONOMY_INCOHERENT: ["error"] },
          resolvers: {},
        },
      }),
    ).toEqual([
      "unknown BPMN rule 'AGENT_GATE_BYPAS' in agentflow.rules",
      "agentflow.rules.AGENT_UNRESOLVED must be error, warning, info or off, got string",
      "unknown agentflow.workflowValidation option 'resolvers' (known: preset, rules, ruleSet)",
      "unknown agentflow.workflowValidation.preset 'lenient' (expected recommended, strict, all)",
      "agentflow.workflowValidation.rules.AUTONOMY_CHAIN must be error, warning, info or off, got string",
      "unknown workflow rule 'AGENT_GATE_BYPASS' in agentflow.workflowValidation.rules",
      "agentflow.workflowValidation.rules.AUTONOMY_INCOHERENT must be a severity or [severity, options object]",
    ]);
    expect(configProblems({ rules: ["AGENT_UNRESOLVED"], workflowValidation: "strict" })).toEqual([
      "agentflow.rules must be an object, got an array",
      "agentflow.workflowValidation must be an object, got string",
    ]);
    // A host's own rule set: its codes are the known ones.
    const own = { meta: { code: "HOST_RULE" } };
    expect(
      configProblems({ workflowValidation: { ruleSet: [own], rules: { HOST_RULE: "error" } } }),
    ).toEqual([]);
    expect(
      configProblems({ workflowValidation: { ruleSet: [own], rules: { AUTONOMY_CHAIN: "off" } } }),
    ).toEqual(["unknown workflow rule 'AUTONOMY_CHAIN' in agentflow.workflowValidation.rules"]);
  });

  it("agrees with evaluateGates on what it accepts", async () => {
    const { definitions } = await readProcess(loanXml);
    if (definitions === undefined) throw new Error("the example must parse");
    const accepted = {
      rules: { AGENT_UNRESOLVED: "off" },
      workflowValidation: { preset: "strict", rules: { AUTONOMY_CHAIN: "off" } },
    } as const;
    expect(configProblems(accepted)).toEqual([]);
    await expect(evaluateGates(definitions, accepted)).resolves.toBeDefined();
    const refused = { rules: { AGENT_GATE_BYPAS: "off" } } as const;
    expect(configProblems(refused)).toEqual([
      "unknown BPMN rule 'AGENT_GATE_BYPAS' in agentflow.rules",
    ]);
    await expect(evaluateGates(definitions, refused)).rejects.toThrow(TypeError);
    const refusedWorkflow = { workflowValidation: { rules: { AUTONOMY_CHAIN2: "off" } } } as const;
    expect(configProblems(refusedWorkflow)).toHaveLength(1);
    await expect(evaluateGates(definitions, { ...registry, ...refusedWorkflow })).rejects.toThrow(
      TypeError,
    );
  });

  it("makes the service refuse to start with them, naming each", () => {
    const never = (): never => {
      throw new Error("not reached");
    };
    const make = () =>
      new AgentflowService(
        { debounce: -5 },
        { on: never, off: never, fire: never },
        { getDefinitions: never },
        { get: never, getAll: never },
        { add: never, remove: never },
        { addMarker: never, removeMarker: never, getContainer: never },
      );
    expect(make).toThrow(
      new TypeError("agentflow.debounce must be a number of milliseconds ≥ 0, got -5"),
    );
  });
});

describe("the rule codes the options are checked against", () => {
  it("are the registries' codes, in their order", () => {
    // Plain data, so that the page checks the options without loading every rule's check.
    expect(BPMN_RULE_CODES).toEqual(BPMN_RULES.map((rule) => rule.meta.code));
    expect(WORKFLOW_RULE_CODES).toEqual(RULES.map((rule) => rule.meta.code));
  });
});

describe("refProblem", () => {
  it("checks a typed ref as AGENT_REF_INVALID does", () => {
    expect(refProblem("agnt-offer-sender@1.0.0", true)).toBeNull();
    expect(refProblem("agnt-offer-sender@1.0", true)).toBeNull();
    expect(refProblem("agnt-offer-sender@latest", true)).toBe(
      "Not an id@version ref: 'latest' is a tag, not a version; name an exact version such as 1.0.0",
    );
    expect(refProblem("agnt-offer-sender@^1.0.0", true)).toBe(
      "Not an id@version ref: '^1.0.0' is a version range; a reference must name one exact version",
    );
    expect(refProblem("", true)).toBe("An agent task needs a workflow ref (id@version).");
    expect(refProblem("", false)).toBeNull();
  });
});
