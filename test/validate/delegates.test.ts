/**
 * Delegates judged by their own rules (DELEGATE_INVALID) through the whole validator: the same
 * configuration (preset, settings, waivers, plugins, packs) judges the workflow and its
 * delegates, each delegate and each ref once, the sync and async paths agree, and a delegation
 * chain as long as the resolution bound is walked without recursion.
 */
import { describe, expect, it } from "vitest";
import type { AgentWorkflow, Diagnostic } from "../../src/model/index.js";
import type { ValidatorConfig } from "../../src/validate/index.js";
import { createValidator, isPromotable, MAX_DELEGATES } from "../../src/validate/index.js";
import { rule as DELEGATE_INVALID } from "../../src/validate/rules/DELEGATE_INVALID.js";
import { defineRule } from "../../src/rules/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { llm, workflow } from "./builders.js";
import { agent, contract, delegating, helper, lookup, loopy, sneaky } from "./delegate-fixtures.js";

const clean = agent("agnt-clean", 1, [lookup]);

/** The workflow under validation: level 4 (it delegates), clean under every rule itself. */
const boss = (...to: string[]) => delegating("agnt-boss", 4, ...to);

/** A registry of the docs and the two tools, counting every lookup by ref. */
function registry(...docs: AgentWorkflow[]) {
  const byRef = new Map<string, unknown>(docs.map((d) => [`${d.id}@${d.version}`, d]));
  byRef.set("tool:lookup@1.0.0", contract("tool:lookup", "automatic"));
  byRef.set("tool:export@1.0.0", contract("tool:export", "forbidden"));
  byRef.set("prm:p@1.0.0", true);
  const calls: string[] = [];
  const find = (ref: string) => {
    calls.push(ref);
    return byRef.get(ref);
  };
  return { calls, resolvers: { resolveDelegate: find, resolveTool: find, resolvePrompt: find } };
}

const invalid = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => d.code === "DELEGATE_INVALID")
    .map((d) => ({
      path: d.path,
      severity: d.severity,
      waived: d.waived !== undefined,
      ...d.data,
    }));

/** `validateSync` and `validate` on one config: they must agree; the findings of the first. */
async function both(config: ValidatorConfig, wf: AgentWorkflow): Promise<Diagnostic[]> {
  const validator = createValidator(config);
  const sync = validator.validateSync(wf);
  expect(await validator.validate(wf)).toEqual(sync);
  return sync;
}

describe("DELEGATE_INVALID: the repro shapes block the workflow", () => {
  it.each([
    [
      "a delegate that loops forever",
      loopy,
      ["AUTONOMY_INCOHERENT", "CYCLE_WITHOUT_STOP", "NO_PATH_TO_END", "RETRY_WITHOUT_MAX"],
    ],
    ["a planner that under-declares its level", sneaky, ["AUTONOMY_INCOHERENT"]],
    ["a delegate that calls a forbidden tool", helper, ["TOOL_FORBIDDEN"]],
  ] as const)("%s", async (_name, bad, codes) => {
    const { resolvers } = registry(bad);
    const found = await both({ resolvers }, boss(`${bad.id}@1.0.0`));
    expect(isPromotable(found)).toBe(false);
    expect(found.map((d) => d.code)).toEqual(["DELEGATE_INVALID"]);
    expect(invalid(found)).toEqual([
      {
        path: "/edges/0/to",
        severity: "error",
        waived: false,
        nodeId: "x",
        index: 0,
        ref: `${bad.id}@1.0.0`,
        delegate: `${bad.id}@1.0.0`,
        codes,
        errors: codes.length,
        failing: `${bad.id}@1.0.0`,
        failingCodes: codes,
        depth: 0,
      },
    ]);
  });

  it("a bad grand-delegate fails the delegate, and so the workflow", async () => {
    const { resolvers } = registry(delegating("agnt-mid", 4, "agnt-helper@1.0.0"), helper);
    const found = await both({ resolvers }, boss("agnt-mid@1.0.0"));
    expect(invalid(found)).toMatchObject([
      { codes: ["DELEGATE_INVALID"], errors: 1, failing: "agnt-helper@1.0.0", depth: 1 },
    ]);
  });
});

describe("DELEGATE_INVALID: one validation", () => {
  it("looks each delegate and each of their tools up once, however many share them", () => {
    const mid = delegating("agnt-mid", 4, "agnt-clean@1.0.0", "agnt-clean@1.0.0");
    const twin = agent("agnt-twin", 1, [lookup]);
    const { calls, resolvers } = registry(mid, clean, twin);
    const root = boss("agnt-mid@1.0.0", "agnt-clean@1.0.0", "agnt-twin@1.0.0");
    const found = createValidator({ resolvers }).validateSync(root);
    expect(found).toEqual([]);
    expect(calls).toEqual([
      "prm:p@1.0.0",
      "agnt-mid@1.0.0",
      "agnt-clean@1.0.0",
      "agnt-twin@1.0.0",
      "tool:lookup@1.0.0",
    ]);
  });

  it("runs each rule once on each delegate", () => {
    const seen: string[] = [];
    const probe = defineRule<RuleContext>({
      meta: {
        code: "SEEN",
        defaultSeverity: "warning",
        description: "d",
        docs: "d",
        messages: { default: "d" },
      },
      check: (context) => void seen.push(context.workflow.id),
    });
    const plugin = { meta: { name: "t", version: "1.0.0" }, rules: { SEEN: probe } };
    const mid = delegating("agnt-mid", 4, "agnt-clean@1.0.0", "agnt-loopy@1.0.0");
    const { resolvers } = registry(mid, clean, loopy);
    const root = boss("agnt-mid@1.0.0", "agnt-clean@1.0.0", "agnt-loopy@1.0.0");
    createValidator({ resolvers, plugins: { t: plugin } }).validateSync(root);
    expect(seen.sort()).toEqual(["agnt-boss", "agnt-clean", "agnt-loopy", "agnt-mid"]);
  });

  it("looks the delegates' tools up only while the rule runs", () => {
    const { calls, resolvers } = registry(helper);
    const root = boss("agnt-helper@1.0.0");
    const on = createValidator({ resolvers }).validateSync(root);
    expect(on.map((d) => d.code)).toEqual(["DELEGATE_INVALID"]);
    expect(calls.splice(0)).toEqual(["prm:p@1.0.0", "agnt-helper@1.0.0", "tool:export@1.0.0"]);
    const off = createValidator({ resolvers, rules: { DELEGATE_INVALID: "off" } });
    expect(off.validateSync(root)).toEqual([]);
    expect(calls).toEqual(["prm:p@1.0.0", "agnt-helper@1.0.0"]);
  });

  it("leaves an unresolved delegate to DELEGATE_UNRESOLVED", () => {
    const { resolvers } = registry(helper);
    const found = createValidator({ resolvers }).validateSync(
      boss("agnt-gone@1.0.0", "agnt-helper@1.0.0"),
    );
    expect(found.map((d) => [d.code, d.path])).toEqual([
      ["DELEGATE_UNRESOLVED", "/edges/0/to"],
      ["DELEGATE_INVALID", "/edges/1/to"],
    ]);
  });

  it("leaves a delegation cycle to DELEGATE_CYCLE", () => {
    const { resolvers } = registry(
      delegating("agnt-p", 4, "agnt-q@1.0.0"),
      delegating("agnt-q", 4, "agnt-p@1.0.0"),
      helper,
    );
    const found = createValidator({ resolvers }).validateSync(
      boss("agnt-p@1.0.0", "agnt-helper@1.0.0"),
    );
    expect(found.map((d) => [d.code, d.path])).toEqual([
      ["DELEGATE_CYCLE", "/edges/0/to"],
      ["DELEGATE_INVALID", "/edges/1/to"],
    ]);
  });

  it("turns a rule that crashes on a delegate into its error", () => {
    const crash = defineRule<RuleContext>({
      meta: {
        code: "CRASH",
        defaultSeverity: "warning",
        description: "d",
        docs: "d",
        messages: { default: "d" },
      },
      check: (context) => {
        if (context.workflow.id === "agnt-clean") throw new Error("boom");
      },
    });
    const { resolvers } = registry(clean);
    const found = createValidator({
      resolvers,
      plugins: { t: { meta: { name: "t", version: "1.0.0" }, rules: { CRASH: crash } } },
    }).validateSync(boss("agnt-clean@1.0.0"));
    expect(invalid(found)).toMatchObject([{ codes: ["RULE_CRASHED"], errors: 1 }]);
  });
});

describe("DELEGATE_INVALID: the delegate is judged under the workflow's configuration", () => {
  const warnOnly = workflow([llm("x")], [], { id: "agnt-warn", autonomyLevel: 2 }); // BUDGET_MISSING
  const waiver = { reason: "r", grantedBy: "g", expires: "2099-12-31" };
  const bankPack = {
    kind: "PolicyPack",
    name: "bank",
    version: "1.0.0",
    rules: [{ id: "one", severity: "error", for: "workflow", when: "level = 1" }],
  };

  /** Name, config, delegate, its codes without the config, and with it. */
  it.each<[string, ValidatorConfig, AgentWorkflow, string[][], string[][]]>([
    [
      "the strict preset makes a warning an error",
      { preset: "strict" },
      warnOnly,
      [],
      [["BUDGET_MISSING"]],
    ],
    [
      "a setting raises a warning",
      { rules: { BUDGET_MISSING: "error" } },
      warnOnly,
      [],
      [["BUDGET_MISSING"]],
    ],
    [
      "a setting silences an error",
      { rules: { AUTONOMY_INCOHERENT: "off" } },
      sneaky,
      [["AUTONOMY_INCOHERENT"]],
      [],
    ],
    [
      "a rule set without the built-in rules still judges by them",
      { ruleSet: [DELEGATE_INVALID] },
      sneaky,
      [["AUTONOMY_INCOHERENT"]],
      [["AUTONOMY_INCOHERENT"]],
    ],
    [
      "a waiver of the delegate's finding",
      { waivers: [{ ...waiver, rule: "AUTONOMY_INCOHERENT", workflow: "agnt-sneaky@1.0.0" }] },
      sneaky,
      [["AUTONOMY_INCOHERENT"]],
      [],
    ],
    ["a policy pack's workflow rule", { policies: [bankPack] }, clean, [], [["bank/one"]]],
  ])("%s", async (_name, config, bad, without, withConfig) => {
    const { resolvers } = registry(bad);
    const root = boss(`${bad.id}@1.0.0`);
    const codes = (found: readonly Diagnostic[]) =>
      found.filter((d) => d.code === "DELEGATE_INVALID").map((d) => d.data.codes);
    expect(codes(await both({ resolvers }, root))).toEqual(without);
    expect(codes(await both({ ...config, resolvers }, root))).toEqual(withConfig);
  });

  it("a waiver of a delegate's DELEGATE_INVALID stops the chain there", async () => {
    const { resolvers } = registry(delegating("agnt-mid", 4, "agnt-helper@1.0.0"), helper);
    const rule = { ...waiver, rule: "DELEGATE_INVALID" };
    const root = boss("agnt-mid@1.0.0");
    const onMid = await both(
      { resolvers, waivers: [{ ...rule, workflow: "agnt-mid@1.0.0" }] },
      root,
    );
    expect(invalid(onMid)).toEqual([]);
    // Waived where it is reported: marked, and no longer blocking.
    const onBoss = await both(
      { resolvers, waivers: [{ ...rule, workflow: "agnt-boss@1.0.0" }] },
      root,
    );
    expect(invalid(onBoss)).toMatchObject([{ waived: true, failing: "agnt-helper@1.0.0" }]);
    expect(isPromotable(onBoss)).toBe(true);
  });
});

describe("DELEGATE_INVALID: long chains", () => {
  /** `agnt-c0 → agnt-c1 → … → agnt-c<n-1>`, each at level 4; the last is `last`. */
  function chain(n: number, last: AgentWorkflow): AgentWorkflow[] {
    const docs = Array.from({ length: n - 1 }, (_, i) =>
      delegating(`agnt-c${i}`, 4, `agnt-c${i + 1}@1.0.0`),
    );
    return [...docs, { ...last, id: `agnt-c${n - 1}` }];
  }

  it("names a failing workflow at the end of a chain as long as the bound", async () => {
    const { resolvers } = registry(...chain(MAX_DELEGATES, helper));
    const found = await both({ resolvers }, boss("agnt-c0@1.0.0"));
    expect(invalid(found)).toMatchObject([
      {
        delegate: "agnt-c0@1.0.0",
        failing: `agnt-c${MAX_DELEGATES - 1}@1.0.0`,
        depth: MAX_DELEGATES - 1,
      },
    ]);
  });

  it("past the bound, the delegate left unread is named on the root's edge, an error under strict", async () => {
    const { resolvers } = registry(...chain(MAX_DELEGATES + 5, clean));
    const root = boss("agnt-c0@1.0.0");
    const unread = (found: readonly Diagnostic[]) =>
      found
        .filter((d) => d.code === "DELEGATE_UNRESOLVED")
        .map((d) => [d.severity, d.path, d.data.unread, d.data.reason, d.data.depth]);
    // What a delegate's own validation finds of its delegates is the caller's to say, once.
    expect(invalid(await both({ resolvers }, root))).toEqual([]);
    expect(unread(await both({ resolvers }, root))).toEqual([
      ["warning", "/edges/0/to", `agnt-c${MAX_DELEGATES}@1.0.0`, "limit", MAX_DELEGATES],
    ]);
    const strict = await both({ resolvers, preset: "strict" }, root);
    expect(invalid(strict)).toEqual([]);
    expect(unread(strict)).toEqual([
      ["error", "/edges/0/to", `agnt-c${MAX_DELEGATES}@1.0.0`, "limit", MAX_DELEGATES],
    ]);
  });
});
