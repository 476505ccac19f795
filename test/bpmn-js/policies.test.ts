/**
 * The module's policy options: packs as plain data (or compiled), waivers, the day and plugins.
 * `configProblems` names every problem — a pack that does not compile as `agentflow.policies[i]`
 * with its problem, as `evaluateGates` would refuse it; the modeller refuses at construction what
 * needs no compiler and says the rest at the first evaluation (`agentflow.error`, nothing drawn).
 * The badges list pack findings like built-in ones, a waived one marked with its waiver.
 */
import EventBus from "diagram-js/lib/core/EventBus.js";
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess, evaluateGates, readProcess } from "../../src/bpmn/index.js";
import type { AgentflowConfig } from "../../src/bpmn-js/index.js";
import { configProblems, taskBadges } from "../../src/bpmn-js/index.js";
import { compiledEntry } from "../../src/bpmn-js/pack-compile.js";
import { preparedOptions, setsPacks } from "../../src/bpmn-js/policy-checks.js";
import { AgentflowService } from "../../src/bpmn-js/service.js";
import { compilePolicyPack } from "../../src/policy/index.js";
import { defineRule } from "../../src/rules/index.js";
import { loanXml, registry } from "./loan.js";

const FOUR_EYES = {
  id: "four-eyes",
  severity: "error",
  for: "agentTask",
  when: 'some t in tools satisfies t.effect = "external-commitment"',
  require: { gates: { distinctRoles: 2 } },
};
const PACK = { kind: "PolicyPack", name: "bank", version: "1.0.0", rules: [FOUR_EYES] };
const BAD = {
  ...PACK,
  rules: [{ id: "high", severity: "error", for: "agentTask", when: "levl >= 4" }],
};
const WAIVER = {
  rule: "four-eyes",
  process: "LoanOrigination",
  element: "DraftAndSendOffer",
  reason: "pilot",
  grantedBy: "cro@bank.example",
  expires: "2027-03-31",
};
const NO_RULE =
  "is no rule of these options (a built-in code, <plugin>/<CODE>, or a policy pack rule's id, bare or as <pack>/<id>)";
const FACTS =
  "facts of agentTask: process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread";

interface Bus {
  on(event: string, callback: (event: unknown) => void): void;
  off(event: string, callback: (event: unknown) => void): void;
  fire(type: string, data?: object): unknown;
}

const plugin = {
  meta: { name: "acme", version: "1.0.0" },
  rules: {
    NO_OP: defineRule({
      meta: {
        code: "NO_OP",
        scope: "process",
        defaultSeverity: "info",
        description: "Reports nothing",
        docs: "https://acme.example/NO_OP",
        messages: { default: "never" },
      },
      check: () => undefined,
    }),
  },
};

describe("configProblems with policies", () => {
  it("accepts packs as data or compiled, waivers, a day, plugins, and rules of their codes", () => {
    expect(
      configProblems({
        policies: [PACK, compilePolicyPack({ ...PACK, name: "other" })],
        waivers: [WAIVER],
        today: "2027-01-15",
        plugins: { acme: plugin },
        rules: { "bank/four-eyes": "warning", "acme/NO_OP": "off", AGENT_UNRESOLVED: "off" },
      }),
    ).toEqual([]);
  });

  it("names the pack entry and each of its problems", () => {
    expect(
      configProblems({
        policies: [PACK, BAD, "policy/bank.policy.yaml", 3],
        waivers: [{ ...WAIVER, expires: "2027-02-30" }],
        today: "2027-13-01",
        plugins: { acme: { meta: { name: "acme" }, rules: {} } },
      }),
    ).toEqual([
      `agentflow.policies[1]: rule high: when: unknown fact 'levl' (${FACTS})`,
      "agentflow.policies[2] must be a policy pack as data, got the string 'policy/bank.policy.yaml': a browser reads no files, so import or fetch the pack and pass its parsed data",
      "agentflow.policies[3] must be a policy pack object, got number",
      'agentflow.waivers[0].expires: "2027-02-30" is not a calendar date written YYYY-MM-DD',
      "agentflow.today must be a date written YYYY-MM-DD, got '2027-13-01'",
      "agentflow.plugins.acme has no meta.version",
    ]);
    expect(configProblems({ policies: PACK, waivers: WAIVER })).toEqual([
      "agentflow.policies must be a list of policy packs, got object",
      "agentflow.waivers must be a list of waivers, got object",
    ]);
    expect(configProblems({ policies: [PACK], rules: { "bank/four-eye": "off" } })).toEqual([
      "unknown BPMN rule 'bank/four-eye' in agentflow.rules",
    ]);
  });

  it("agrees with evaluateGates on what it accepts", async () => {
    const { definitions } = await readProcess(loanXml);
    if (definitions === undefined) throw new Error("the example must parse");
    const accepted = { policies: [PACK], rules: { "bank/four-eyes": "warning" } } as const;
    expect(configProblems(accepted)).toEqual([]);
    await expect(evaluateGates(definitions, { ...registry, ...accepted })).resolves.toBeDefined();
    expect(configProblems({ policies: [BAD] })).toHaveLength(1);
    await expect(evaluateGates(definitions, { policies: [BAD] })).rejects.toThrow(
      "unknown fact 'levl'",
    );
  });

  it("refuses at construction what needs no compiler: a pack given as a path", () => {
    const never = (): never => {
      throw new Error("not reached");
    };
    const make = () =>
      new AgentflowService(
        { policies: ["policy/bank.policy.yaml"], waivers: WAIVER } as unknown as AgentflowConfig,
        { on: never, off: never, fire: never },
        { getDefinitions: never },
        { get: never, getAll: never },
        { add: never, remove: never },
        { addMarker: never, removeMarker: never, getContainer: never },
      );
    expect(make).toThrow(
      new TypeError(
        "agentflow.policies[0] must be a policy pack as data, got the string 'policy/bank.policy.yaml': a browser reads no files, so import or fetch the pack and pass its parsed data; agentflow.waivers must be a list of waivers, got object",
      ),
    );
  });

  it("says a pack that does not compile at the first evaluation, every evaluation, and draws nothing", async () => {
    const { definitions } = await readProcess(loanXml);
    if (definitions === undefined) throw new Error("the example must parse");
    const bus = new (EventBus as unknown as new () => Bus)();
    const drawn: unknown[] = [];
    const service = new AgentflowService(
      {
        ...registry,
        policies: [BAD],
        waivers: [{ ...WAIVER, expires: "2027-02-30" }],
        plugins: { acme: { meta: { name: "acme" }, rules: {} } },
      } as unknown as AgentflowConfig,
      bus,
      { getDefinitions: (): ModdleObject => definitions },
      { get: () => undefined, getAll: () => [] },
      {
        add: (...args) => {
          drawn.push(args);
          return "";
        },
        remove: () => undefined,
      },
      {
        addMarker: (...args) => {
          drawn.push(args);
        },
        removeMarker: () => undefined,
        getContainer: () => {
          throw new Error("nothing is drawn");
        },
      },
    );
    const events: { type: string; error?: unknown }[] = [];
    for (const type of ["agentflow.changed", "agentflow.error"]) {
      bus.on(type, (event) => events.push({ type, ...(event as { error?: unknown }) }));
    }
    expect(await service.evaluate()).toBeUndefined();
    expect(await service.evaluate()).toBeUndefined();
    // The sentences the constructor threw before the compiler moved to the engine's chunk.
    const said = new TypeError(
      [
        `agentflow.policies[0]: rule high: when: unknown fact 'levl' (${FACTS})`,
        'agentflow.waivers[0].expires: "2027-02-30" is not a calendar date written YYYY-MM-DD',
        "agentflow.plugins.acme has no meta.version",
      ].join("; "),
    );
    expect(events).toEqual([
      { type: "agentflow.error", error: said },
      { type: "agentflow.error", error: said },
    ]);
    expect(events.map((e) => (e.error as Error).message)).toEqual([said.message, said.message]);
    expect(service.getDecision()).toBeUndefined();
    expect(drawn).toEqual([]);
  });
});

describe("preparedOptions, the engine's side of the policy options", () => {
  it("compiles each pack with the compiler the service loaded for it, once per entry", () => {
    expect(setsPacks({ policies: [PACK] })).toBe(true);
    expect(setsPacks({ policies: [] })).toBe(false);
    expect(setsPacks({})).toBe(false);
    const options = { policies: [PACK], today: "2027-01-15" };
    const prepared = preparedOptions(options, compiledEntry);
    expect(prepared.today).toBe("2027-01-15");
    expect(prepared.policies?.map((pack) => [pack.name, pack.processRules.length])).toEqual([
      ["bank", 1],
    ]);
    expect(preparedOptions(options, compiledEntry).policies?.[0]).toBe(prepared.policies?.[0]);
  });

  it("refuses a pack when no compiler was loaded: it is not read, so it never passes", () => {
    expect(() => preparedOptions({ policies: [PACK] })).toThrow(
      new TypeError(
        "agentflow.policies[0] was not compiled: the policy pack compiler was not loaded",
      ),
    );
    // Without packs, nothing needs the compiler: waivers and plugins are still checked.
    const gate = { ...WAIVER, rule: "AGENT_GATE_UNREACHABLE" };
    expect(preparedOptions({ waivers: [gate] })).toEqual({ waivers: [gate] });
    expect(() => preparedOptions({ waivers: [{ ...WAIVER, expires: "2027-02-30" }] })).toThrow(
      'agentflow.waivers[0].expires: "2027-02-30" is not a calendar date written YYYY-MM-DD',
    );
    // A pack rule's id with no pack to have it waives nothing: refused, as agentflow gate does.
    expect(() => preparedOptions({ waivers: [WAIVER] })).toThrow(
      `agentflow.waivers[0].rule: "four-eyes" ${NO_RULE}`,
    );
  });
});

describe("waivers naming a rule", () => {
  const options = { policies: [PACK], plugins: { acme: plugin } };
  it.each([
    ["four-eyes", []],
    ["bank/four-eyes", []],
    ["AGENT_GATE_UNREACHABLE", []],
    ["DUPLICATE_NODE_ID", []],
    ["acme/NO_OP", []],
    ["bank/nope", [`agentflow.waivers[0].rule: "bank/nope" ${NO_RULE}`]],
    ["*", [`agentflow.waivers[0].rule: "*" ${NO_RULE}`]],
    ["four-eye", [`agentflow.waivers[0].rule: "four-eye" ${NO_RULE}`]],
    ["acme/NO_OPS", [`agentflow.waivers[0].rule: "acme/NO_OPS" ${NO_RULE}`]],
  ] as const)("a waiver of %s: %j", (rule, problems) => {
    const waivers = [{ ...WAIVER, rule }];
    expect(configProblems({ ...options, waivers })).toEqual(problems);
    const prepare = () => preparedOptions({ ...options, waivers }, compiledEntry);
    if (problems.length === 0) expect(prepare).not.toThrow();
    else expect(prepare).toThrow(new TypeError(problems.join("; ")));
  });

  it("are checked once the packs and plugins they may name could be read", () => {
    // The pack that does not compile is said; its rules are unknown, so the waiver is not judged.
    expect(
      configProblems({ policies: [BAD], waivers: [{ ...WAIVER, rule: "bank/high" }] }),
    ).toEqual([`agentflow.policies[0]: rule high: when: unknown fact 'levl' (${FACTS})`]);
  });
});

describe("taskBadges with a pack", () => {
  it("lists the pack's finding on its task, and marks a waived one with its waiver", async () => {
    const blocked = taskBadges(await checkProcess(loanXml, { ...registry, policies: [PACK] }));
    expect(blocked[1]?.findings.map((f) => [f.code, f.severity, f.waived])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "error", undefined],
      ["TOOL_EFFECT_NEEDS_GATE", "error", undefined],
      ["bank/four-eyes", "error", undefined],
    ]);
    const options = { ...registry, policies: [PACK], waivers: [WAIVER], today: "2027-01-15" };
    const waived = taskBadges(await checkProcess(loanXml, options));
    expect(waived[1]?.findings.at(-1)).toEqual({
      code: "bank/four-eyes",
      severity: "error",
      message: blocked[1]?.findings.at(-1)?.message,
      waived: { reason: "pilot", grantedBy: "cro@bank.example", expires: "2027-03-31" },
    });
  });
});
