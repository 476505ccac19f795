/**
 * Resolution edge cases found in review: a registry that throws or answers with another
 * workflow, a mislabelled snapshot, tools reached through delegation, severity caps for parse
 * problems, the shortest bypass path, and positions of a truncated document.
 */
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import {
  checkProcess,
  evaluateGates,
  evaluateGatesSync,
  readProcess,
} from "../../src/bpmn/index.js";
import { edge, llm, workflow } from "../validate/builders.js";
import {
  agent,
  agentWorkflow,
  boundaryEvent,
  chain,
  endEvent,
  gate,
  processXml,
  snapshot,
  startEvent,
  subProcess,
  toolCaller,
  toolContract,
} from "./builders.js";

const REF = "agnt-a@1.0.0";
const gated = processXml(
  agent("A", { ref: REF, level: "2" }),
  gate("G"),
  endEvent("E"),
  chain("A", "G", "E"),
);
const ungated = processXml(agent("A", { ref: REF, level: "2" }), endEvent("E"), chain("A", "E"));

function codes(result: {
  blocking: readonly { code: string }[];
  warnings: readonly { code: string }[];
}): string[] {
  return [...result.blocking, ...result.warnings].map((d) => d.code);
}

describe("a failing or wrong registry", () => {
  it("a resolver that throws is AGENT_UNRESOLVED with the failure, not an exception", async () => {
    const result = await checkProcess(gated, {
      resolveWorkflow: () => {
        throw new Error("registry down");
      },
    });
    expect(result.warnings).toMatchObject([
      {
        code: "AGENT_UNRESOLVED",
        data: { fallback: "none", registryProblem: "the registry failed: registry down" },
      },
    ]);
    expect(result.warnings[0]?.message).toContain(
      "could not be resolved: the registry failed: registry down",
    );
  });

  it("a rejected promise is the same", async () => {
    const result = await checkProcess(gated, {
      resolveWorkflow: () => Promise.reject(new Error("timeout")),
    });
    expect(result.warnings[0]?.data.registryProblem).toBe("the registry failed: timeout");
  });

  it("a throwing tool resolver leaves the workflow checked and the tool's effect unknown, read as needing a gate", async () => {
    const result = await checkProcess(ungated, {
      resolveWorkflow: () => toolCaller(REF, "tool:pay@1.0.0", 2),
      resolveTool: () => {
        throw new Error("contracts down");
      },
    });
    expect(codes(result)).toEqual([
      "AGENT_GATE_UNREACHABLE",
      "TOOL_EFFECT_NEEDS_GATE",
      "AGENT_DEPENDENCY_UNRESOLVED",
    ]);
    expect(result.warnings[0]?.data).toMatchObject({
      dependency: "tool:pay@1.0.0",
      failure: "failed",
      problem: "the registry failed: contracts down",
    });
  });

  it("an answer for another id@version is an error, and its hash is not reported", async () => {
    const result = await checkProcess(gated, {
      resolveWorkflow: () => agentWorkflow("agnt-zzz@9.0.0", 2),
    });
    expect(result.allowed).toBe(false);
    expect(result.blocking).toMatchObject([
      {
        code: "AGENT_LOOKUP_INVALID",
        data: {
          failure: "mismatch",
          problem: "the registry returned agnt-zzz@9.0.0 for agnt-a@1.0.0",
        },
      },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.agentTasks[0]).toMatchObject({ resolution: "unresolved", contentHash: null });
  });

  it("a snapshot whose version label disagrees with its body is refused", async () => {
    const xml = processXml(
      agent("A", { ref: REF, level: "2", ext: [snapshot("9.9.9", agentWorkflow(REF, 2))] }),
      gate("G"),
      endEvent("E"),
      chain("A", "G", "E"),
    );
    const result = await checkProcess(xml, { resolveWorkflow: () => undefined });
    expect(result.warnings).toMatchObject([
      {
        code: "AGENT_UNRESOLVED",
        data: { snapshotProblem: "the snapshot is labelled version 9.9.9 but holds agnt-a@1.0.0" },
      },
    ]);
  });
});

describe("a YAML snapshot", () => {
  // evaluateGates reads it after loading the YAML reader; evaluateGatesSync has it loaded.
  // Put in after the builders indent the XML, which would shift the YAML's lines.
  const withYamlSnapshot = (body: unknown): string =>
    processXml(
      agent("A", { ref: REF, level: "2", ext: ["<!--snapshot-->"] }),
      gate("G"),
      endEvent("E"),
      chain("A", "G", "E"),
    ).replace(
      "<!--snapshot-->",
      `<btv:agentWorkflowSnapshot version="1.0.0"><![CDATA[${stringify(body)}]]></btv:agentWorkflowSnapshot>`,
    );

  it("stands in for a missing registry entry, read alike by both drivers", async () => {
    const { definitions } = await readProcess(withYamlSnapshot(agentWorkflow(REF, 2)));
    if (definitions === undefined) throw new Error("unreadable");
    const options = { resolveWorkflow: () => undefined };
    const lazy = await evaluateGates(definitions, options);
    expect(lazy.agentTasks[0]).toMatchObject({ resolution: "snapshot", gate: "reached" });
    expect(lazy.allowed).toBe(true);
    expect(evaluateGatesSync(definitions, options)).toEqual(lazy);
  });

  it("that is no workflow leaves the task unresolved, with the parse problem", async () => {
    const xml = withYamlSnapshot({ kind: "AgentWorkflow" });
    const result = await checkProcess(xml, { resolveWorkflow: () => undefined });
    expect(result.agentTasks[0]).toMatchObject({ resolution: "unresolved" });
    expect(result.warnings.map((d) => d.code)).toEqual(["AGENT_UNRESOLVED"]);
    const data = result.warnings[0]?.data as { readonly snapshotProblem?: unknown } | undefined;
    expect(String(data?.snapshotProblem)).toMatch(/^the snapshot is not a valid workflow \(/);
  });
});

describe("tools reached through delegation", () => {
  it("a level-4 agent whose delegate pays cannot skip the gate", async () => {
    // its output covers the delegate's input, so the delegation itself is valid
    const delegating = workflow([llm("a")], [edge("a", "agnt-payer@1.0.0", "delegate")], {
      id: "agnt-a",
      version: "1.0.0",
      autonomyLevel: 4,
      budget: { maxSteps: 10 },
      outputSchema: { q: "text" },
    });
    const registry = new Map<string, unknown>([
      [REF, delegating],
      ["agnt-payer@1.0.0", toolCaller("agnt-payer@1.0.0", "tool:pay@1.0.0")],
      ["tool:pay@1.0.0", toolContract("tool:pay@1.0.0", "external-commitment")],
    ]);
    const xml = processXml(agent("A", { ref: REF, level: "4" }), endEvent("E"), chain("A", "E"));
    const result = evaluateGatesSync((await readProcess(xml)).definitions ?? { $type: "none" }, {
      resolveWorkflow: (ref) => registry.get(ref),
      resolveTool: (ref) => registry.get(ref),
    });
    expect(result.blocking).toMatchObject([
      {
        code: "TOOL_EFFECT_NEEDS_GATE",
        data: { via: "agnt-payer@1.0.0", tool: "tool:pay@1.0.0", nodeId: "t", gate: "missing" },
      },
    ]);
    expect(result.blocking[0]?.message).toContain("delegates to agnt-payer@1.0.0, which calls");
  });
});

describe("review fixes", () => {
  it("rules: { BPMN_PARSE: 'warning' } caps parse errors at warning", async () => {
    const xml = processXml('<bpmn:fancyTask id="F" />');
    const strict = await checkProcess(xml);
    expect(strict.allowed).toBe(false);
    const relaxed = await checkProcess(xml, { rules: { BPMN_PARSE: "warning" } });
    expect(relaxed.allowed).toBe(true);
    expect(relaxed.warnings.map((d) => [d.code, d.severity])).toEqual([["BPMN_PARSE", "warning"]]);
  });

  it("a self-closing unknown element is named without its slash", async () => {
    const { diagnostics } = await readProcess(processXml("<bpmn:fancyTask/>"));
    expect(diagnostics[0]?.data.subject).toBe("bpmn:fancyTask");
  });

  it("the bypass path reported is the shortest one", async () => {
    const work = subProcess("Work", [
      startEvent("WS"),
      agent("A", { ref: REF, level: "2" }),
      endEvent("WE"),
      chain("WS", "A", "WE"),
    ]);
    const xml = processXml(
      startEvent("S"),
      work,
      boundaryEvent("B", "Work"),
      gate("G"),
      endEvent("E1"),
      endEvent("E2"),
      chain("S", "Work", "G", "E1"),
      chain("B", "E2"),
    );
    const result = await checkProcess(xml);
    const bypass = result.blocking.find((d) => d.code === "AGENT_GATE_BYPASS");
    expect(bypass?.data.pathIds).toEqual(["A", "B", "E2"]);
  });

  it("a truncated document is located at its end, not on line 1", async () => {
    const lines = ungated.split("\n");
    const truncated = lines.slice(0, -1).join("\n");
    const { diagnostics } = await readProcess(truncated);
    expect(diagnostics[0]?.location?.line).toBe(lines.length - 1);
  });
});
