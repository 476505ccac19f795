/**
 * The module's options (issue 23): a wrong option is named in one sentence when the modeller is
 * built, instead of failing later inside an evaluation.
 */
import { describe, expect, it } from "vitest";
import { configProblems, refProblem } from "../../src/bpmn-js/index.js";
import { AgentflowService } from "../../src/bpmn-js/service.js";

describe("configProblems", () => {
  it("accepts no options, and the options of evaluateGates", () => {
    expect(configProblems(undefined)).toEqual([]);
    expect(
      configProblems({
        resolveWorkflow: () => undefined,
        resolveTool: () => Promise.resolve(undefined),
        isGate: () => false,
        policy: { camundaAgents: "gate-optional" },
        rules: { AGENT_UNRESOLVED: "off" },
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
      "unknown agentflow option 'registry' (known: resolveWorkflow, resolveTool, isGate, policy, rules, workflowValidation, debounce, active)",
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
