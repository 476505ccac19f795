/**
 * Fail closed (issue 38, item 1): a verdict never rests on a lookup that failed. A level-4 agent
 * that signs contracts (effect `external-commitment`) is blocked with the full registry; every
 * way its tool or delegate lookup can fail — absent, throwing, rejecting, never settling,
 * aborted, another tool's contract, an effect outside the six — blocks it too and says what
 * failed. Each case runs through `checkProcess` (async) and, where the resolver is synchronous,
 * `evaluateGatesSync`, which must agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GateDecision, GateOptions } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { contentHash } from "../../src/model/index.js";
import { decideBothWays, findings } from "./decide.js";
import {
  agent,
  agentWorkflow,
  chain,
  endEvent,
  HELPER,
  processXml,
  startEvent,
} from "./builders.js";

const DIR = "test/fixtures/fail-closed/";
const XML = readFileSync(`${DIR}contract-signing.bpmn`, "utf8");
const read = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`${DIR}registry/${name}`, "utf8")) as Record<string, unknown>;
const SIGNER = read("contract-signer.agent.json");
const CHECKER = read("terms-checker.agent.json");
const SIGN = read("sign-contract.tool.json");
const TOOL = "tool:sign-contract@1.0.0";

const DOCS: Readonly<Record<string, unknown>> = {
  "agnt-contract-signer@1.0.0": SIGNER,
  "agnt-terms-checker@1.0.0": CHECKER,
  [TOOL]: SIGN,
};
const workflows = (ref: string): unknown => (ref.startsWith("agnt-") ? DOCS[ref] : undefined);
const tools = (ref: string): unknown => (ref.startsWith("tool:") ? DOCS[ref] : undefined);

const both = (options: GateOptions, sync = true): Promise<GateDecision> =>
  decideBothWays(XML, options, sync);

describe("the full registry", () => {
  it("blocks the level-4 agent: its tool commits the bank and no gate follows", async () => {
    const decision = await both({ resolveWorkflow: workflows, resolveTool: tools });
    expect(decision.allowed).toBe(false);
    expect(findings(decision).map((f) => f.code)).toEqual([
      "TOOL_EFFECT_NEEDS_GATE",
      "AGENT_GATE_OPTIONAL",
    ]);
    expect(decision.agentTasks[0]?.dependencies).toEqual([
      {
        kind: "tool",
        ref: TOOL,
        nodeId: "sign",
        contentHash: contentHash(SIGN),
        effect: "external-commitment",
        authorization: "gate",
      },
      {
        kind: "delegate",
        ref: "agnt-terms-checker@1.0.0",
        nodeId: "draft",
        contentHash: contentHash(CHECKER),
      },
    ]);
  });
});

/** The tool lookup's failure as the decision must report it: blocked, and what failed. */
function expectUnknownTool(decision: GateDecision, failure: string, problem: string | RegExp) {
  expect(decision.allowed).toBe(false);
  const gate = decision.blocking.find((d) => d.code === "TOOL_EFFECT_NEEDS_GATE");
  expect(gate?.data).toMatchObject({ tool: TOOL, nodeId: "sign", effect: "unknown", failure });
  expect(String(gate?.data.problem)).toMatch(problem);
  const dependency = decision.agentTasks[0]?.dependencies.find((d) => d.ref === TOOL);
  expect(dependency).toMatchObject({ kind: "tool", failure: { reason: failure } });
  expect(dependency?.contentHash).toBeUndefined();
}

describe("a tool lookup that fails blocks as the most demanding effect", () => {
  it("a contract the registry does not hold", async () => {
    const decision = await both({ resolveWorkflow: workflows, resolveTool: () => undefined });
    expectUnknownTool(decision, "missing", `no tool contract ${TOOL} was found`);
    expect(decision.warnings.map((d) => d.code)).toContain("AGENT_DEPENDENCY_UNRESOLVED");
  });

  it("no resolveTool at all", async () => {
    const decision = await both({ resolveWorkflow: workflows });
    expectUnknownTool(decision, "missing", `no tool contract ${TOOL} was found`);
  });

  it("a resolver that throws", async () => {
    const resolveTool = () => {
      throw new Error("contract store offline");
    };
    const decision = await both({ resolveWorkflow: workflows, resolveTool });
    expectUnknownTool(decision, "failed", "the registry failed: contract store offline");
    expect(findings(decision)).toContainEqual({
      code: "AGENT_DEPENDENCY_UNRESOLVED",
      severity: "warning",
      data: expect.objectContaining({ dependency: TOOL, failure: "failed" }) as unknown,
    });
  });

  it("a resolver whose promise rejects", async () => {
    const resolveTool = () => Promise.reject(new Error("503 from the registry"));
    const decision = await both({ resolveWorkflow: workflows, resolveTool }, false);
    expectUnknownTool(decision, "failed", "the registry failed: 503 from the registry");
  });

  it("a resolver that never settles times out instead of hanging the check", async () => {
    const resolveTool = () => new Promise<never>(() => undefined);
    const decision = await both(
      { resolveWorkflow: workflows, resolveTool, lookupTimeoutMs: 20 },
      false,
    );
    expectUnknownTool(decision, "failed", "the registry failed: no answer within 20 ms");
  });

  it("an aborted check fails every pending lookup, and the resolver's own signal aborts", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const resolveTool = (_ref: string, context?: { signal: AbortSignal }) => {
      seen = context?.signal;
      setTimeout(() => {
        controller.abort(new Error("deploy cancelled"));
      }, 5);
      return new Promise<never>(() => undefined);
    };
    const decision = await both(
      { resolveWorkflow: workflows, resolveTool, signal: controller.signal },
      false,
    );
    expectUnknownTool(
      decision,
      "failed",
      "the registry failed: the check was aborted (deploy cancelled)",
    );
    expect(seen?.aborted).toBe(true);
  });

  it("another tool's contract for the ref asked is an error, and the effect stays unknown", async () => {
    const search = { ...SIGN, id: "tool:search", effect: "read", authorization: "automatic" };
    const decision = await both({ resolveWorkflow: workflows, resolveTool: () => search });
    expectUnknownTool(decision, "mismatch", `the registry returned tool:search@1.0.0 for ${TOOL}`);
    expect(decision.blocking.map((d) => d.code)).toContain("AGENT_LOOKUP_INVALID");
  });

  it("an effect that is not one of the six is an error, never read as no effect", async () => {
    const odd = { ...SIGN, effect: "harmless" };
    const decision = await both({ resolveWorkflow: workflows, resolveTool: () => odd });
    expectUnknownTool(decision, "invalid", /not a valid tool contract .*\/effect/);
    const invalid = decision.blocking.find((d) => d.code === "AGENT_LOOKUP_INVALID");
    expect(invalid?.data).toMatchObject({ dependency: TOOL, nodeId: "sign", failure: "invalid" });
  });
});

/** `doc` with a getter for `key` that throws, as a host's lazy or proxied answer may have. */
function throwingAt(doc: Record<string, unknown>, key: string): Record<string, unknown> {
  const out = { ...doc };
  Object.defineProperty(out, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} is not loaded`);
    },
  });
  return out;
}

describe("an answer that cannot be read is an invalid answer, said on the element", () => {
  it.each(["id", "effect"])("a tool contract whose %s throws", async (key) => {
    const decision = await both({
      resolveWorkflow: workflows,
      resolveTool: () => throwingAt(SIGN, key),
    });
    expectUnknownTool(decision, "invalid", `the registry's answer for ${TOOL} could not be read`);
    expect(decision.blocking.map((d) => d.code)).toContain("AGENT_LOOKUP_INVALID");
  });

  it("an answer read once: a getter that throws only when read again is never read again", async () => {
    let reads = 0;
    const flaky = { ...SIGN };
    Object.defineProperty(flaky, "effect", {
      enumerable: true,
      get() {
        reads += 1;
        if (reads > 1) throw new Error("effect read twice");
        return SIGN.effect;
      },
    });
    const decision = await checkProcess(XML, {
      resolveWorkflow: workflows,
      resolveTool: () => flaky,
    });
    expect(findings(decision).map((f) => f.code)).toEqual([
      "TOOL_EFFECT_NEEDS_GATE",
      "AGENT_GATE_OPTIONAL",
    ]);
  });

  it.each(["version", "nodes"])("the agent's workflow whose %s throws", async (key) => {
    const resolveWorkflow = (ref: string) =>
      ref === "agnt-contract-signer@1.0.0" ? throwingAt(SIGNER, key) : workflows(ref);
    const decision = await both({ resolveWorkflow, resolveTool: tools });
    expect(decision.allowed).toBe(false);
    const invalid = decision.blocking.find((d) => d.code === "AGENT_LOOKUP_INVALID");
    expect(String(invalid?.message)).toContain(
      "the registry's answer for agnt-contract-signer@1.0.0 could not be read",
    );
  });
});

describe("a delegate lookup that fails", () => {
  it("counts what the delegate calls as needing a gate", async () => {
    const resolveWorkflow = (ref: string) =>
      ref === "agnt-terms-checker@1.0.0" ? undefined : workflows(ref);
    const decision = await both({ resolveWorkflow, resolveTool: tools });
    expect(decision.allowed).toBe(false);
    expect(
      decision.blocking.find((d) => d.message.includes("agnt-terms-checker"))?.data,
    ).toMatchObject({
      tool: "agnt-terms-checker@1.0.0",
      nodeId: "draft",
      effect: "unknown",
      failure: "missing",
    });
  });
});

describe("one answer per ref", () => {
  it("asks each ref once, so the workflow rules and the gate cannot see different documents", async () => {
    const asked = new Map<string, number>();
    const count = (lookup: (ref: string) => unknown) => (ref: string) => {
      asked.set(ref, (asked.get(ref) ?? 0) + 1);
      return lookup(ref);
    };
    await checkProcess(XML, { resolveWorkflow: count(workflows), resolveTool: count(tools) });
    expect(Object.fromEntries(asked)).toEqual({
      "agnt-contract-signer@1.0.0": 1,
      "agnt-terms-checker@1.0.0": 1,
      [TOOL]: 1,
    });
  });
});

describe("every input that decides is named by its hash", () => {
  it("changing only the tool's effect changes the verdict and the hashes the decision shows", async () => {
    const read = { ...SIGN, effect: "read", authorization: "automatic" };
    const before = await both({ resolveWorkflow: workflows, resolveTool: tools });
    const after = await both({ resolveWorkflow: workflows, resolveTool: () => read });
    expect(before.allowed).toBe(false);
    expect(after.allowed).toBe(true);
    const hashes = (d: GateDecision) =>
      d.agentTasks.flatMap((t) => [t.contentHash, ...t.dependencies.map((x) => x.contentHash)]);
    expect(hashes(after)).not.toEqual(hashes(before));
    expect(hashes(after)).toContain(contentHash(read));
  });

  it("names the rule set by a digest that changes with any setting", async () => {
    const base = await both({ resolveWorkflow: workflows, resolveTool: tools });
    const softened = await both({
      resolveWorkflow: workflows,
      resolveTool: tools,
      rules: { TOOL_EFFECT_NEEDS_GATE: "warning" },
    });
    expect(softened.allowed).toBe(true);
    expect(softened.ruleSet.digest).not.toBe(base.ruleSet.digest);
    expect(softened.ruleSet.changed).toEqual([
      { code: "TOOL_EFFECT_NEEDS_GATE", preset: "error", setting: "warning" },
    ]);
    expect(base.ruleSet).toMatchObject({
      preset: "recommended",
      changed: [],
      camundaAgents: "gate-required",
    });
  });
});

describe("what a lookup's failure may not turn into", () => {
  const snapshotted = (level: string) =>
    XML.replace(
      '<btv:agentTask agentWorkflowRef="agnt-contract-signer@1.0.0" autonomyLevel="4" />',
      `<btv:agentTask agentWorkflowRef="agnt-contract-signer@1.0.0" autonomyLevel="${level}" /><btv:agentWorkflowSnapshot version="1.0.0">${JSON.stringify(
        { ...SIGNER, autonomyLevel: 5, nodes: [(SIGNER.nodes as unknown[])[0]], edges: [] },
      )
        .replaceAll("&", "&amp;")
        .replaceAll("<", "&lt;")}</btv:agentWorkflowSnapshot>`,
    );

  it("the strict preset makes agentflow's warnings of what is unproven errors, as it does for workflows", async () => {
    const options = { resolveWorkflow: () => undefined, resolveTool: tools } as const;
    const xml = snapshotted("5");
    const recommended = await checkProcess(xml, options);
    const strict = await checkProcess(xml, {
      ...options,
      workflowValidation: { preset: "strict" },
    });
    const unresolved = (d: GateDecision) =>
      findings(d)
        .filter((f) => f.code === "AGENT_UNRESOLVED")
        .map((f) => f.severity);
    expect(unresolved(recommended)).toEqual(["warning"]);
    expect(unresolved(strict)).toEqual(["error"]);
    expect(strict.blocking.map((d) => d.code)).toContain("AGENT_UNRESOLVED");
    expect(strict.allowed).toBe(false);
    expect(strict.ruleSet.digest).not.toBe(recommended.ruleSet.digest);
  });

  it("a registry that fails is not 'not found': the embedded snapshot does not stand in", async () => {
    const xml = snapshotted("5");
    const missing = await checkProcess(xml, {
      resolveWorkflow: () => undefined,
      resolveTool: tools,
    });
    expect(missing.agentTasks[0]?.resolution).toBe("snapshot");
    const failing = await checkProcess(xml, {
      resolveWorkflow: () => {
        throw new Error("registry down");
      },
      resolveTool: tools,
    });
    expect(failing.agentTasks[0]?.resolution).toBe("unresolved");
    expect(failing.allowed).toBe(false);
    expect(failing.warnings.find((d) => d.code === "AGENT_UNRESOLVED")?.data).toMatchObject({
      registryProblem: "the registry failed: registry down",
    });
  });

  it("a rejection that cannot be printed still fails the lookup, and the check ends", async () => {
    const decision = await checkProcess(XML, {
      resolveWorkflow: workflows,
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the hostile case itself
      resolveTool: () => Promise.reject(Object.create(null) as object),
      lookupTimeoutMs: 1_000,
    });
    expect(decision.allowed).toBe(false);
    expect(decision.agentTasks[0]?.dependencies[0]?.failure).toEqual({
      reason: "failed",
      detail: "the registry failed: the resolver failed with a value that cannot be printed",
    });
  });

  it.each([Number.NaN, -1])(
    "lookupTimeoutMs %s is a TypeError, not a wait without end",
    async (ms) => {
      await expect(
        checkProcess(XML, { resolveWorkflow: workflows, lookupTimeoutMs: ms }),
      ).rejects.toThrow(
        "evaluateGates: lookupTimeoutMs must be a number of milliseconds ≥ 0 (or Infinity)",
      );
    },
  );

  it("XML that cannot be read is never allowed, whatever BPMN_PARSE is set to", async () => {
    for (const setting of ["off", "warning"] as const) {
      const decision = await checkProcess("<bpmn:definitions", { rules: { BPMN_PARSE: setting } });
      expect(decision.allowed).toBe(false);
      expect(decision.blocking.map((d) => d.code)).toContain("BPMN_PARSE");
    }
  });
});

describe("the rule set's digest", () => {
  it("is the same for a setting that repeats a default and for none", async () => {
    const plain = await checkProcess(XML, { resolveWorkflow: workflows, resolveTool: tools });
    const repeated = await checkProcess(XML, {
      resolveWorkflow: workflows,
      resolveTool: tools,
      rules: { AGENT_GATE_BYPASS: "error" },
      workflowValidation: { rules: { BUDGET_MISSING: "warning" } },
    });
    expect(repeated.ruleSet.digest).toBe(plain.ruleSet.digest);
  });

  it("says when a host's own isGate decided the gates", async () => {
    const plain = await checkProcess(XML, { resolveWorkflow: workflows, resolveTool: tools });
    const custom = await checkProcess(XML, {
      resolveWorkflow: workflows,
      resolveTool: tools,
      isGate: () => false,
    });
    expect(custom.ruleSet.digest).not.toBe(plain.ruleSet.digest);
    expect(custom.ruleSet.customGatePredicate).toBe(true);
  });
});

describe("a declared level that is no level", () => {
  it("requires a gate, even where AGENT_AUTONOMY_INVALID was lowered to a warning", async () => {
    // A level-4 workflow needs no gate after it (AGENT_GATE_OPTIONAL only warns).
    const fourth = agentWorkflow("agnt-fourth@1.0.0", 4);
    const byRef: Readonly<Record<string, unknown>> = {
      "agnt-fourth@1.0.0": fourth,
      "agnt-helper@1.0.0": HELPER,
    };
    const xml = processXml(
      startEvent("s"),
      agent("A", { ref: "agnt-fourth@1.0.0", level: "7" }),
      endEvent("e"),
      chain("s", "A", "e"),
    );
    const options = {
      resolveWorkflow: (ref: string) => byRef[ref],
      rules: { AGENT_AUTONOMY_INVALID: "warning" },
    } as const;
    const invalid = await checkProcess(xml, options);
    expect(invalid.agentTasks[0]?.requirement).toBe("required");
    const gateCodes = (d: GateDecision) =>
      [...d.blocking, ...d.warnings].map((f) => f.code).filter((c) => c.startsWith("AGENT_GATE"));
    expect(gateCodes(invalid)).toEqual(["AGENT_GATE_UNREACHABLE"]);
    expect(invalid.allowed).toBe(false);
    // The same task declaring the workflow's own level needs none.
    const valid = await checkProcess(
      xml.replace('autonomyLevel="7"', 'autonomyLevel="4"'),
      options,
    );
    expect(valid.agentTasks[0]?.requirement).toBe("optional");
    expect(gateCodes(valid)).toEqual(["AGENT_GATE_OPTIONAL"]);
  });
});
