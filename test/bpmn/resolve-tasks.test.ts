/**
 * Resolving an agent task fails closed on what it cannot read: a delegate past the bound of
 * MAX_DELEGATES, a tool or delegate ref that cannot be parsed (in a delegate's workflow, which
 * DELEGATE_INVALID judges too, but a tool left out of the dependencies would vanish from the
 * effects), and an element with two different embedded snapshots of its ref. Each case runs
 * through `checkProcess` (async) and `evaluateGatesSync`, which must agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GateDecision, GateOptions } from "../../src/bpmn/index.js";
import { contentHash } from "../../src/model/index.js";
import { decideBothWays, findings } from "./decide.js";
import { MAX_DELEGATES } from "../../src/validate/index.js";

const DIR = "test/fixtures/fail-closed/";
const XML = readFileSync(`${DIR}contract-signing.bpmn`, "utf8");
type Doc = Record<string, unknown> & { nodes: unknown[]; edges: unknown[] };
const read = (name: string): Doc =>
  JSON.parse(readFileSync(`${DIR}registry/${name}`, "utf8")) as Doc;
const SIGNER = read("contract-signer.agent.json");
const CHECKER = read("terms-checker.agent.json");
const SIGN = read("sign-contract.tool.json");
const TOOL = "tool:sign-contract@1.0.0";
const SIGNER_REF = "agnt-contract-signer@1.0.0";

/** A level-1 workflow with one llm node, and the nodes and edges given besides. */
function workflow(id: string, nodes: unknown[] = [], edges: unknown[] = []): Doc {
  return { ...CHECKER, id, name: id, nodes: [...CHECKER.nodes, ...nodes], edges };
}
const signNode = (usesTool = TOOL) => ({
  id: "sign",
  type: "tool",
  config: { usesTool, params: { dealId: "{{input.dealId}}" } },
});
const delegateTo = (ref: string) => ({ from: "compare", to: ref, edgeType: "delegate" });

function resolvers(docs: Readonly<Record<string, unknown>>): GateOptions {
  return {
    resolveWorkflow: (ref) => (ref.startsWith("agnt-") ? docs[ref] : undefined),
    resolveTool: (ref) => (ref.startsWith("tool:") ? docs[ref] : undefined),
  };
}

const both = (options: GateOptions, xml = XML): Promise<GateDecision> =>
  decideBothWays(xml, options);

/** The signer, delegating to `count` workflows; the last of them signs the contract. */
function fanOut(count: number): Record<string, unknown> {
  const ids = Array.from({ length: count }, (_, i) => `agnt-f${String(i + 1).padStart(4, "0")}`);
  const docs: Record<string, unknown> = { [TOOL]: SIGN };
  docs[SIGNER_REF] = {
    ...SIGNER,
    nodes: SIGNER.nodes.filter((n) => (n as { type: string }).type === "llm"),
    edges: ids.map((id) => ({ from: "draft", to: `${id}@1.0.0`, edgeType: "delegate" })),
  };
  ids.forEach((id, i) => {
    docs[`${id}@1.0.0`] = i === count - 1 ? workflow(id, [signNode()]) : workflow(id);
  });
  return docs;
}

describe("more delegates than MAX_DELEGATES", () => {
  it("resolves MAX_DELEGATES delegates and judges the tool of the last one", async () => {
    const decision = await both(resolvers(fanOut(MAX_DELEGATES)));
    expect(decision.allowed).toBe(false);
    expect(findings(decision).filter((f) => f.code === "TOOL_EFFECT_NEEDS_GATE")).toMatchObject([
      {
        code: "TOOL_EFFECT_NEEDS_GATE",
        severity: "error",
        data: {
          via: "agnt-f1000@1.0.0",
          elementId: "SignContract",
          ref: SIGNER_REF,
          tool: TOOL,
          effect: "external-commitment",
          nodeId: "sign",
          gate: "missing",
        },
      },
    ]);
  });

  it("keeps the delegate past the bound, unknown, and blocks on it (it was silently dropped)", async () => {
    const decision = await both(resolvers(fanOut(MAX_DELEGATES + 1)));
    expect(decision.allowed).toBe(false);
    const problem =
      "an agent task resolves at most 1000 delegates, so agnt-f1001@1.0.0 was not looked up";
    expect(findings(decision).filter((f) => f.code !== "AGENT_GATE_OPTIONAL")).toMatchObject([
      {
        code: "TOOL_EFFECT_NEEDS_GATE",
        severity: "error",
        data: {
          elementId: "SignContract",
          ref: SIGNER_REF,
          tool: "agnt-f1001@1.0.0",
          effect: "unknown",
          nodeId: "draft",
          gate: "missing",
          problem,
          failure: "failed",
        },
      },
      {
        code: "AGENT_DEPENDENCY_UNRESOLVED",
        severity: "warning",
        data: {
          elementId: "SignContract",
          ref: SIGNER_REF,
          dependency: "agnt-f1001@1.0.0",
          nodeId: "draft",
          failure: "failed",
          problem,
        },
      },
    ]);
    const dependencies = decision.agentTasks[0]?.dependencies ?? [];
    expect(dependencies).toHaveLength(1001);
    expect(dependencies[1000]).toEqual({
      kind: "delegate",
      ref: "agnt-f1001@1.0.0",
      nodeId: "draft",
      failure: { reason: "failed", detail: problem },
    });
  });
});

describe("a ref that cannot be parsed", () => {
  // The signer calls nothing itself: it hands the work to the checker.
  const signer = {
    ...SIGNER,
    nodes: [SIGNER.nodes[0]],
    edges: [{ from: "draft", to: "agnt-terms-checker@1.0.0", edgeType: "delegate" }],
  };

  it("a delegate's tool without a version is kept, its effect unknown (it was dropped: ALLOWED)", async () => {
    const checker = workflow("agnt-terms-checker", [signNode("tool:sign-contract")]);
    const docs = { [SIGNER_REF]: signer, "agnt-terms-checker@1.0.0": checker, [TOOL]: SIGN };
    const decision = await both(resolvers(docs));
    expect(decision.allowed).toBe(false);
    expect(decision.agentTasks[0]?.dependencies).toEqual([
      {
        kind: "delegate",
        ref: "agnt-terms-checker@1.0.0",
        nodeId: "draft",
        contentHash: contentHash(checker),
      },
      {
        kind: "tool",
        ref: "tool:sign-contract",
        nodeId: "sign",
        via: "agnt-terms-checker@1.0.0",
        failure: {
          reason: "missing",
          detail:
            "'tool:sign-contract' has no '@version' (expected id@x.y.z); nothing was looked up",
        },
      },
    ]);
    // The delegate fails its own TOOL_REF_INVALID too (DELEGATE_INVALID, in the workflow).
    expect(decision.blocking.map((d) => [d.code, d.data.tool])).toEqual([
      ["AGENT_WORKFLOW_INVALID", undefined],
      ["TOOL_EFFECT_NEEDS_GATE", "tool:sign-contract"],
    ]);
  });

  it("a delegate's delegate ref without a version is kept, what it calls unknown", async () => {
    const checker = workflow("agnt-terms-checker", [], [delegateTo("agnt-payer")]);
    const docs = { [SIGNER_REF]: signer, "agnt-terms-checker@1.0.0": checker };
    const decision = await both(resolvers(docs));
    expect(decision.allowed).toBe(false);
    expect(decision.agentTasks[0]?.dependencies[1]).toEqual({
      kind: "delegate",
      ref: "agnt-payer",
      nodeId: "compare",
      via: "agnt-terms-checker@1.0.0",
      failure: {
        reason: "missing",
        detail: "'agnt-payer' has no '@version' (expected id@x.y.z); nothing was looked up",
      },
    });
  });
});

describe("two embedded snapshots of one ref", () => {
  const harmless = { ...SIGNER, nodes: [SIGNER.nodes[0]], edges: [] };
  const snapshot = (doc: unknown, indent?: number) =>
    `<btv:agentWorkflowSnapshot version="1.0.0"><![CDATA[${JSON.stringify(doc, null, indent)}]]></btv:agentWorkflowSnapshot>`;
  const withSnapshots = (...bodies: string[]) =>
    XML.replace(/(<btv:agentTask [^>]*\/>)/, `$1\n${bodies.join("\n")}`);
  // The signer itself is not published: only its tool and checker are.
  const registry = resolvers({ [TOOL]: SIGN, "agnt-terms-checker@1.0.0": CHECKER });

  it.each([
    ["the harmless one first", [harmless, SIGNER]],
    ["the signing one first", [SIGNER, harmless]],
  ])(
    "with different content block as AGENT_REF_CONFLICT, %s (the first was used)",
    async (_, docs) => {
      const xml = withSnapshots(...docs.map((d) => snapshot(d)));
      const decision = await both(registry, xml);
      expect(decision.allowed).toBe(false);
      expect(decision.agentTasks[0]?.resolution).toBe("unresolved");
      expect(
        findings(decision)
          .filter((f) => f.code === "AGENT_REF_CONFLICT")
          .map((f) => [f.severity, f.data.sources, f.data.contentHashes]),
      ).toEqual([
        [
          "error",
          [
            "btv:agentWorkflowSnapshot at /extensionElements/values/1",
            "btv:agentWorkflowSnapshot at /extensionElements/values/2",
          ],
          docs.map((d) => contentHash(d)),
        ],
      ]);
      expect(findings(decision).map((f) => f.code)).not.toContain("AGENT_UNRESOLVED");
    },
  );

  it("with the same content twice (written differently) use it, as one snapshot is", async () => {
    const decision = await both(registry, withSnapshots(snapshot(SIGNER), snapshot(SIGNER, 2)));
    expect(decision.agentTasks[0]?.resolution).toBe("snapshot");
    expect(findings(decision).map((f) => f.code)).toEqual([
      "TOOL_EFFECT_NEEDS_GATE",
      "AGENT_UNRESOLVED",
      "AGENT_GATE_OPTIONAL",
    ]);
  });

  it("are not read when the registry knows the ref", async () => {
    const docs = { [SIGNER_REF]: SIGNER, [TOOL]: SIGN, "agnt-terms-checker@1.0.0": CHECKER };
    const xml = withSnapshots(snapshot(harmless), snapshot(SIGNER));
    const decision = await both(resolvers(docs), xml);
    expect(decision.agentTasks[0]?.resolution).toBe("registry");
    expect(findings(decision).map((f) => f.code)).toEqual([
      "TOOL_EFFECT_NEEDS_GATE",
      "AGENT_GATE_OPTIONAL",
    ]);
  });

  it("one of which cannot be used leaves the task unresolved, not the other one used", async () => {
    const other = { ...SIGNER, version: "2.0.0" };
    const decision = await both(registry, withSnapshots(snapshot(harmless), snapshot(other)));
    expect(decision.agentTasks[0]?.resolution).toBe("unresolved");
    expect(decision.warnings.find((d) => d.code === "AGENT_UNRESOLVED")?.data).toMatchObject({
      snapshotProblem: "the snapshot is agnt-contract-signer@2.0.0, not agnt-contract-signer@1.0.0",
    });
  });
});

describe("two btv:agentTask declarations on one element", () => {
  // The checker is harmless (level 1, no tool); the signer signs. Both are published.
  const docs = { [SIGNER_REF]: SIGNER, [TOOL]: SIGN, "agnt-terms-checker@1.0.0": CHECKER };
  const two = (first: string, second: string) =>
    XML.replace(
      /<btv:agentTask [^>]*\/>/,
      `<btv:agentTask agentWorkflowRef="${first}" autonomyLevel="1" /><btv:agentTask agentWorkflowRef="${second}" autonomyLevel="4" />`,
    );

  it.each([
    ["the harmless one first", "agnt-terms-checker@1.0.0", SIGNER_REF],
    ["the signing one first", SIGNER_REF, "agnt-terms-checker@1.0.0"],
  ])(
    "resolve to neither, %s, both ways alike (the first was resolved alone)",
    async (_, first, second) => {
      const decision = await both(resolvers(docs), two(first, second));
      expect(decision.agentTasks.map((t) => [t.resolution, t.level, t.dependencies])).toEqual([
        ["unresolved", null, []],
      ]);
      // A tool of a task whose workflow was read: none, so nothing of either was looked up.
      expect(findings(decision).map((f) => f.code)).toEqual([
        "AGENT_REF_CONFLICT",
        "AGENT_GATE_UNREACHABLE",
      ]);
    },
  );

  it("a task beside it with the first one's ref alone resolves as usual (no shared lookup)", async () => {
    const xml = two("agnt-terms-checker@1.0.0", SIGNER_REF).replace(
      "</bpmn:process>",
      `<bpmn:serviceTask id="Alone"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-terms-checker@1.0.0" autonomyLevel="1" /></bpmn:extensionElements></bpmn:serviceTask></bpmn:process>`,
    );
    const decision = await both(resolvers(docs), xml);
    expect(decision.agentTasks.map((t) => [t.elementId, t.resolution])).toEqual([
      ["SignContract", "unresolved"],
      ["Alone", "registry"],
    ]);
  });
});
