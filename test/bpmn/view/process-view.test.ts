/**
 * The readable view a plugin's process rule gets (`context.view`): the fact model's subjects
 * built from a real process with lanes and DI, and the flow questions, answered by element id.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import { gateOptions } from "../../../src/cli/gate-options.js";
import { loadFolderRegistry } from "../../../src/cli/registry.js";
import type { ProcessView } from "../../../src/policy/index.js";
import { viewOf } from "./view-of.js";

let view: ProcessView | undefined;

beforeAll(async () => {
  const registry = await loadFolderRegistry(
    ["examples/registry", "examples/policies/tests/registry"],
    "--registry",
  );
  const xml = readFileSync("examples/policies/tests/loan-lanes.bpmn", "utf8");
  ({ view } = await viewOf(xml, gateOptions(registry)));
});

describe("the process view", () => {
  it("gives each agent task its process, element, lane, tools and the gates after it", () => {
    const offer = view?.agentTasks.find((t) => t.element.id === "DraftAndSendOffer");
    expect(offer).toMatchObject({
      process: { id: "LoanOrigination" },
      element: { id: "DraftAndSendOffer", name: "Draft and send offer", type: "bpmn:ServiceTask" },
      lane: { id: "Lane_CreditOfficer", name: "credit-officer" },
      camunda: false,
      gateStatus: "reached",
      place: { elementId: "DraftAndSendOffer" },
    });
    expect(offer?.tools?.map((t) => [t.ref, t.effect])).toEqual([
      ["tool:send-loan-offer@1.1.0", "external-commitment"],
    ]);
    expect(offer?.gates.map((g) => [g.id, g.role])).toEqual([
      ["CreditOfficerSignOff", "credit-officer"],
      ["ComplianceSignOff", "compliance-officer"],
    ]);
    const risk = view?.agentTasks.find((t) => t.element.id === "AssessCreditRisk");
    expect(risk?.lane).toEqual({ id: "Lane_RiskAnalyst", name: "risk-analyst" });
    expect(risk?.level).toBe(2);
  });

  it("gives the process its agent tasks and gates, and each agent's workflow", () => {
    expect(view?.processes.map((p) => [p.id, p.agentTasks.length, p.gates.length])).toEqual([
      ["LoanOrigination", 2, 4],
    ]);
    expect(view?.workflows.map((w) => [w.place.elementId, w.id, w.models])).toEqual([
      ["AssessCreditRisk", "agnt-credit-risk", ["gpt-4o"]],
      ["DraftAndSendOffer", "agnt-offer-sender", expect.any(Array)],
    ]);
  });

  it("answers the flow by element id", () => {
    expect(view?.next("RiskBand")).toEqual(["UnderwriterReview", "SeniorReview"]);
    expect(view?.next("NoSuchElement")).toEqual([]);
    expect(view?.reaches("AssessCreditRisk", "OfferSent")).toBe(true);
    expect(view?.reaches("OfferSent", "AssessCreditRisk")).toBe(false);
    expect(view?.checkGatePath("DraftAndSendOffer", { distinctRoles: 2 })).toEqual({
      holds: true,
    });
    expect(view?.checkGatePath("RiskBand", { min: 1 })).toMatchObject({
      holds: false,
      failed: "undecidable",
    });
  });
});

const TOOLS_UNKNOWN =
  "which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)";
const MODELS_UNKNOWN =
  "which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)";

/** The facts of what an agent task calls, and of its level, where the input cannot be read. */
describe("facts the inputs leave unknown", () => {
  const DIR = "test/fixtures/fail-closed/";
  const XML = readFileSync(`${DIR}contract-signing.bpmn`, "utf8");
  type Doc = Record<string, unknown> & { nodes: unknown[] };
  const doc = (name: string): Doc =>
    JSON.parse(readFileSync(`${DIR}registry/${name}`, "utf8")) as Doc;
  const SIGNER = doc("contract-signer.agent.json");
  const CHECKER = doc("terms-checker.agent.json");
  const SIGN = doc("sign-contract.tool.json");
  const [DRAFT, SIGN_NODE] = SIGNER.nodes as [Record<string, unknown>, { config: object }];
  const PACK = {
    kind: "PolicyPack",
    name: "bank",
    version: "1",
    rules: [
      {
        id: "no-commitments",
        severity: "error",
        for: "agentTask",
        when: 'some t in tools satisfies t.effect = "external-commitment"',
      },
      {
        id: "approved-models",
        severity: "error",
        for: "agentTask",
        when: 'some m in models satisfies not(m in ["gpt-4o"])',
      },
      { id: "commit-tool", severity: "error", for: "tool", when: 'effect = "external-commitment"' },
      { id: "at-most-3", severity: "error", for: "agentTask", when: "level > 3" },
      {
        id: "declared-at-most-3",
        severity: "error",
        for: "agentTask",
        when: "declaredLevel != null and declaredLevel > 3",
      },
      { id: "declares-none", severity: "warning", for: "agentTask", when: "declaredLevel = null" },
    ],
  };

  /** The pack's findings: code, and what was assumed or why it is undecided. */
  async function packFindings(signer: unknown, xml = XML, checker?: unknown) {
    const docs: Record<string, unknown> = {
      "agnt-contract-signer@1.0.0": signer,
      "agnt-terms-checker@1.0.0": checker,
      "tool:sign-contract@1.0.0": SIGN,
    };
    const decision = await checkProcess(xml, {
      resolveWorkflow: (ref) => docs[ref],
      resolveTool: (ref) => docs[ref],
      policies: [PACK],
      rules: { AGENT_AUTONOMY_INVALID: "warning" },
    });
    return [...decision.blocking, ...decision.warnings]
      .filter((d) => d.code.startsWith("bank/"))
      .map((d) => ({
        code: d.code,
        ...(d.data.assumed === undefined ? {} : { assumed: d.data.assumed }),
        ...(d.data.reason === undefined ? {} : { reason: d.data.reason }),
        tools: d.data.tools,
        models: d.data.models,
      }));
  }

  it("an unresolved delegate makes the agent's tools and models unknown (they read as complete)", async () => {
    const reads = { ...SIGNER, nodes: [DRAFT] };
    const found = await packFindings(reads);
    const reason = (list: "tools" | "models") =>
      `it reads '${list}', ${list === "tools" ? TOOLS_UNKNOWN : MODELS_UNKNOWN}`;
    const lists = (f: { code: string }) =>
      ["bank/no-commitments", "bank/approved-models"].includes(f.code);
    expect(found.filter(lists)).toEqual([
      { code: "bank/no-commitments", reason: reason("tools"), tools: null, models: null },
      { code: "bank/approved-models", reason: reason("models"), tools: null, models: null },
    ]);
    // Resolved, the same agent passes both: what it calls is known.
    const known = await packFindings(reads, XML, CHECKER);
    expect(known.filter(lists)).toEqual([]);
  });

  it("a delegate's models are the agent's models: one not approved is found", async () => {
    const reads = { ...SIGNER, nodes: [DRAFT] };
    const [compare] = CHECKER.nodes as [{ config: object }];
    const checker = {
      ...CHECKER,
      nodes: [{ ...compare, config: { ...compare.config, model: "unvetted-model" } }],
    };
    const found = await packFindings(reads, XML, checker);
    expect(found.filter((f) => f.code === "bank/approved-models")).toEqual([
      { code: "bank/approved-models", tools: [], models: ["gpt-4o", "unvetted-model"] },
    ]);
  });

  it("the tools known to be called stay subjects when the list is unknown, beside an unknown one", async () => {
    const found = await packFindings(SIGNER);
    expect(found.map((f) => f.code)).toEqual([
      "bank/no-commitments",
      "bank/approved-models",
      // tool:sign-contract, and the tool of unknown identity the unread delegate stands for
      "bank/commit-tool",
      "bank/commit-tool",
      "bank/at-most-3",
      "bank/declared-at-most-3",
    ]);
  });

  it("a tool ref without a version is in tools with an unknown effect (it was dropped)", async () => {
    const unversioned = {
      ...SIGN_NODE,
      config: { ...SIGN_NODE.config, usesTool: "tool:sign-contract" },
    };
    const signer = { ...SIGNER, nodes: [DRAFT, unversioned] };
    const found = await packFindings(signer, XML, CHECKER);
    const tool = {
      ref: "tool:sign-contract",
      id: "tool:sign-contract",
      version: null,
      effect: null,
      authorization: null,
    };
    expect(found[0]).toEqual({
      code: "bank/no-commitments",
      assumed: { effect: "external-commitment" },
      tools: [tool],
      models: ["gpt-4o"],
    });
  });

  it("a declared level that is no level is unknown, not the workflow's, nor none", async () => {
    const seven = XML.replace('autonomyLevel="4"', 'autonomyLevel="7"');
    const signer = { ...SIGNER, autonomyLevel: 2, nodes: [DRAFT] };
    const found = await packFindings(signer, seven, CHECKER);
    expect(found.map((f) => [f.code, f.assumed])).toEqual([
      ["bank/at-most-3", { level: 4 }],
      ["bank/declared-at-most-3", { declaredLevel: 4 }],
    ]);
  });
});
