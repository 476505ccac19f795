/**
 * External agents kept in a folder registry as the exports their frameworks write (issue 39,
 * item 5): a LangGraph JSON graph, an OpenAgentFlow IR and an AgentOS graph, read through the
 * importers. `gate` resolves a Camunda external agent and an A2A client naming them, shows each
 * import's declared losses on its file, and decides on the imported workflow's level and tools;
 * a document no `id@version` names, or one the importer refuses, is a registry error.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import { identityFromFileName } from "../../src/cli/registry-foreign.js";
import { importDocument } from "../../src/interop/index.js";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const LANGGRAPH = "test/fixtures/langgraph-graph/py-to_json-conditional-entrypoint.json";
const LANGGRAPH_REACT =
  "test/fixtures/langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json";
const OAF = "test/fixtures/openagentflow/catalog_enrichment_ir.generated.json";
const OAF_UNVERSIONED = "test/fixtures/openagentflow/summarize_ir.json";
const AGENTOS = "test/fixtures/agentos/research-graph-routed.compiled-execution-graph.derived.json";
const AGENTOS_REFUSED =
  "test/fixtures/agentos/research-graph.compiled-execution-graph.generated.json";
const PROCESS = "test/fixtures/camunda/external-agents.bpmn";
const GATE = '<btv:gate approverRole="analyst" />';

/** A registry folder of copies (`name` → fixture), and the process beside it. */
function project(files: Record<string, string>, process = readFileSync(PROCESS, "utf8")) {
  const dir = tempDir("agentflow-registry-foreign-");
  const registry = join(dir, "registry");
  writeFileSync(join(dir, "package.json"), "{}");
  mkdirSync(registry);
  for (const [name, source] of Object.entries(files)) {
    if (source.startsWith("{")) writeFileSync(join(registry, name), source);
    else copyFileSync(source, join(registry, name));
  }
  const file = join(dir, "market.bpmn");
  writeFileSync(file, process);
  return { dir, registry, file };
}

/** The three exports, named as the process names them. */
const EXPORTS = {
  "agnt-react@1.2.0.langgraph.json": LANGGRAPH,
  "catalog-enrichment.json": OAF,
  "agnt-triage@2.0.0.agentos.json": AGENTOS,
};

interface JsonGate {
  readonly allowed: boolean;
  readonly blocking: readonly { code: string; data?: Record<string, unknown> }[];
  readonly warnings: readonly { code: string; data?: Record<string, unknown> }[];
  readonly agentTasks: readonly {
    elementId: string;
    source: string;
    ref: string | null;
    level: number | null;
    justifiedLevel: number | null;
    resolution: string;
    contentHash: string | null;
    requirement: string;
  }[];
  readonly registry: readonly {
    file: string;
    diagnostics: readonly { code: string; severity: string; path: string; data?: unknown }[];
  }[];
}

/**
 * `gate --format json` on `file` with `registry`, without a config unless `config` is given. The
 * OpenAgentFlow agent's tools and the AgentOS gmi nodes' tool loops are loops a model decides
 * (docs/interop): tests about something else turn the two loop rules off with
 * {@link LOOPS_ALLOWED}.
 */
async function gate(file: string, registry: string, config?: object) {
  let settings = ["--no-config"];
  if (config !== undefined) {
    const path = `${file}.config.json`;
    writeFileSync(path, JSON.stringify(config));
    settings = ["--config", path];
  }
  const result = await run("gate", file, "--registry", registry, ...settings, "--format", "json");
  return { code: result.code, json: JSON.parse(result.stdout) as JsonGate, stderr: result.stderr };
}

/** A config that turns off the loop rules, which the model-decided tool loops fail. */
const LOOPS_ALLOWED = { rules: { CYCLE_WITHOUT_STOP: "off", RETRY_WITHOUT_MAX: "off" } };

const imported = (fixture: string) =>
  importDocument(JSON.parse(readFileSync(fixture, "utf8")) as unknown)?.result;

describe("gate with external agents kept as framework exports", () => {
  it("resolves the external agents and the A2A client, shows the losses, and allows behind a gate", async () => {
    const { file, registry } = project(EXPORTS);
    const { code, json } = await gate(file, registry, LOOPS_ALLOWED);
    expect([code, json.allowed]).toEqual([0, true]);
    expect(
      json.agentTasks.map((t) => [t.elementId, t.source, t.ref, t.level, t.resolution]),
    ).toEqual([
      ["ResearchAgent", "btv", "agnt-react@1.2.0", 3, "registry"],
      // Level 2: its agent's tools are a loop the model decides (docs/interop/openagentflow.md).
      ["PartnerAgent", "btv", "catalog-enrichment@1.4.2", 2, "registry"],
      ["TriageAgent", "btv", "agnt-triage@2.0.0", 3, "registry"],
    ]);
    // Every declared loss of each import is a warning on its file, none lost on the way.
    const byFile = new Map(json.registry.map((p) => [p.file.slice(registry.length + 1), p]));
    for (const [name, fixture] of Object.entries(EXPORTS)) {
      const warnings = imported(fixture)?.warnings ?? [];
      expect(warnings.length).toBeGreaterThan(0);
      expect(byFile.get(name)?.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual(
        warnings.map((w) => [w.code, "warning", w.path]),
      );
    }
  });

  it("lists each import's declared losses in the process report, under its workflow", async () => {
    const { dir, file, registry } = project(EXPORTS);
    const out = join(dir, "report.md");
    writeFileSync(join(dir, "loops.json"), JSON.stringify(LOOPS_ALLOWED));
    const config = join(dir, "loops.json");
    const result = await run("report", file, "-c", config, "-r", registry, "-o", out);
    expect(result.code).toBe(0);
    const markdown = readFileSync(out, "utf8");
    for (const fixture of Object.values(EXPORTS)) {
      const detected = importDocument(JSON.parse(readFileSync(fixture, "utf8")) as unknown);
      const warnings = detected?.result.warnings ?? [];
      const heading = `### Imported from ${detected?.format.title ?? ""}: ${String(warnings.length)} declared loss(es) or guess(es)`;
      expect(markdown).toContain(heading);
      expect(markdown).toContain(`- \`${warnings[0]?.code ?? ""}\``);
    }
  });

  it("hashes the imported workflow as indexed, under the file name's id@version", async () => {
    const { file, registry } = project(EXPORTS);
    const { json } = await gate(file, registry);
    const react = imported(LANGGRAPH)?.workflow;
    const triage = imported(AGENTOS)?.workflow;
    const oaf = imported(OAF)?.workflow;
    expect(react?.id).toBe("langgraph-graph"); // the importer's placeholder, which names nothing
    expect(json.agentTasks.map((t) => t.contentHash)).toEqual([
      react && contentHash({ ...react, id: "agnt-react", version: "1.2.0" }),
      oaf && contentHash(oaf),
      triage && contentHash({ ...triage, id: "agnt-triage", version: "2.0.0" }),
    ]);
  });

  it("decides on the imported workflow's level: without a gate each is blocked at its level", async () => {
    const { file, registry } = project(EXPORTS, readFileSync(PROCESS, "utf8").replace(GATE, ""));
    const { code, json } = await gate(file, registry);
    expect(code).toBe(1);
    const unreachable = json.blocking.filter((d) => d.code === "AGENT_GATE_UNREACHABLE");
    expect(unreachable.map((d) => [d.data?.elementId, d.data?.level])).toEqual([
      ["ResearchAgent", 3],
      ["PartnerAgent", 2],
      ["TriageAgent", 3],
    ]);
  });

  it("decides on the imported workflow's tools: an irreversible tool it cannot gate blocks", async () => {
    const contract = (effect: string) =>
      JSON.stringify({
        kind: "ToolContract",
        id: "tool:agentos.human",
        version: "1.0.0",
        name: "Human review",
        inputSchema: { q: "text" },
        outputSchema: { r: "text" },
        effect,
        authorization: "automatic",
      });
    const unknownTools = project(EXPORTS);
    const before = await gate(unknownTools.file, unknownTools.registry, LOOPS_ALLOWED);
    // Every tool an agent may call and no contract states: the LangGraph function nodes (code the
    // graph does not show), the OpenAgentFlow agent's own tools, each AgentOS gmi node's tool
    // loop, AgentOS's search and its human step.
    expect(
      before.json.warnings.map((d) => [d.code, d.data?.elementId, d.data?.dependency]),
    ).toEqual([
      ["AGENT_DEPENDENCY_UNRESOLVED", "ResearchAgent", "tool:langgraph.node.left@0.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "ResearchAgent", "tool:langgraph.node.right@0.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "PartnerAgent", "tool:web_search@0.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "PartnerAgent", "tool:catalog_lookup@0.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:agentos.tools@1.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:web_search@1.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:agentos.tools@1.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:agentos.tools@1.0.0"],
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:agentos.human@1.0.0"],
      // The step a route takes on to what AgentOS runs after the target it skips.
      ["AGENT_DEPENDENCY_UNRESOLVED", "TriageAgent", "tool:agentos.router@1.0.0"],
    ]);
    const committing = project({ ...EXPORTS, "human.json": contract("external-commitment") });
    const after = await gate(committing.file, committing.registry, LOOPS_ALLOWED);
    expect(after.code).toBe(1);
    expect(after.json.blocking.map((d) => [d.code, d.data?.elementId])).toEqual([
      ["AGENT_WORKFLOW_INVALID", "TriageAgent"],
    ]);
  });

  it("blocks an imported workflow that fails the workflow rules (an unbounded ReAct loop)", async () => {
    const { file, registry } = project({
      ...EXPORTS,
      "agnt-react@1.2.0.langgraph.json": LANGGRAPH_REACT,
    });
    const { code, json } = await gate(file, registry);
    expect(code).toBe(1);
    // The other two agents' tool loops are decided by their models, and fail the same rules.
    expect(json.blocking.map((d) => [d.code, d.data?.elementId])).toEqual([
      ["AGENT_WORKFLOW_INVALID", "ResearchAgent"],
      ["AGENT_WORKFLOW_INVALID", "PartnerAgent"],
      ["AGENT_WORKFLOW_INVALID", "TriageAgent"],
    ]);
    const loopsAllowed = await gate(file, registry, LOOPS_ALLOWED);
    expect(loopsAllowed.json.blocking).toEqual([]);
  });

  it("fails closed on a document no id@version names and on one the importer refuses", async () => {
    const { file, registry } = project({
      "catalog-enrichment.json": OAF,
      "agnt-triage@2.0.0.agentos.json": AGENTOS,
      // No id@version in the graph nor in its name: nothing can resolve to it.
      "react-agent.json": LANGGRAPH,
      "agnt-old@1.0.0.json": AGENTOS_REFUSED,
    });
    const { code, json } = await gate(file, registry);
    expect(code).toBe(1);
    const errors = json.registry.flatMap((p) =>
      p.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => [p.file.slice(registry.length + 1), d.code]),
    );
    expect(errors).toEqual([
      ["agnt-old@1.0.0.json", "IMPORT_FAILED"],
      ["react-agent.json", "REGISTRY_UNIDENTIFIED"],
    ]);
    const research = json.agentTasks.find((t) => t.elementId === "ResearchAgent");
    expect([research?.resolution, research?.requirement]).toEqual(["unresolved", "required"]);
  });

  it("blocks a reference two exports claim with different content", async () => {
    const { file, registry } = project({
      ...EXPORTS,
      "agnt-react@1.2.0.json": LANGGRAPH_REACT,
    });
    const { code, json } = await gate(file, registry);
    expect(code).toBe(1);
    expect(json.blocking.map((d) => [d.code, d.data?.elementId])).toContainEqual([
      "AGENT_REF_CONFLICT",
      "ResearchAgent",
    ]);
  });
});

describe("a registry's foreign documents", () => {
  it("takes the id@version from the file name, before one format word", () => {
    expect(identityFromFileName("/r/agnt-research@1.2.0.langgraph.json")).toEqual({
      id: "agnt-research",
      version: "1.2.0",
    });
    expect(identityFromFileName("agnt-research@1.2.0.json")).toEqual({
      id: "agnt-research",
      version: "1.2.0",
    });
    expect(identityFromFileName("agnt-research@1.2.0-rc.1.agentos.yaml")).toEqual({
      id: "agnt-research",
      version: "1.2.0-rc.1",
    });
    expect(identityFromFileName("agnt-research@2.1.json")).toEqual({
      id: "agnt-research",
      version: "2.1.0",
    });
    // Every format's own id is a format word, digits included.
    expect(identityFromFileName("agnt-multi@1.0.0.agent2model.yaml")).toEqual({
      id: "agnt-multi",
      version: "1.0.0",
    });
    expect(identityFromFileName("agnt-gen@0.3.0.langgraph-gen.json")).toEqual({
      id: "agnt-gen",
      version: "0.3.0",
    });
    // Any other word with a digit is not one: the version would end in it.
    expect(identityFromFileName("agnt-multi@1.0.0.v2.yaml")).toBeUndefined();
    expect(identityFromFileName("agnt-research@latest.json")).toBeUndefined();
    expect(identityFromFileName("graph.langgraph.json")).toBeUndefined();
    expect(identityFromFileName("bad id@1.0.0.json")).toBeUndefined();
  });

  it("keeps a document's own id@version and warns when its file name says another", async () => {
    const { registry } = project({ "catalog-enrichment@9.9.9.oaf.json": OAF });
    const loaded = await loadFolderRegistry(registry);
    expect([...(loaded.workflows.get("catalog-enrichment")?.keys() ?? [])]).toEqual(["1.4.2"]);
    expect(loaded.workflows.has("catalog-enrichment@9.9.9")).toBe(false);
    const codes = loaded.problems.flatMap((p) => p.diagnostics.map((d) => d.code));
    expect(codes).toContain("REGISTRY_NAME_MISMATCH");
  });

  it("names an IR without a version by its file, and refuses it without one", async () => {
    const named = await loadFolderRegistry(
      project({ "quick-summarize@3.0.0.json": OAF_UNVERSIONED }).registry,
    );
    expect(named.resolve("quick-summarize@3.0.0")).toMatchObject({
      id: "quick-summarize",
      version: "3.0.0",
    });
    // The importer's assumed 1.0.0 is no name of the document.
    expect(named.resolve("quick-summarize@1.0.0")).toBeUndefined();
    const bare = await loadFolderRegistry(project({ "summarize.json": OAF_UNVERSIONED }).registry);
    expect(bare.workflows.size).toBe(0);
    expect(bare.problems[0]?.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["HEURISTIC", "warning"],
      ["REGISTRY_UNIDENTIFIED", "error"],
    ]);
  });

  it("is a duplicate, not a conflict, when one export is there twice", async () => {
    const { registry } = project({
      "agnt-react@1.2.0.langgraph.json": LANGGRAPH,
      "agnt-react@1.2.0.copy.json": LANGGRAPH,
    });
    const loaded = await loadFolderRegistry(registry);
    const codes = loaded.problems.flatMap((p) => p.diagnostics.map((d) => d.code));
    expect(codes).toContain("REGISTRY_DUPLICATE");
    expect(codes).not.toContain("REGISTRY_CONFLICT");
    expect(loaded.resolve("agnt-react@1.2.0")).toMatchObject({ id: "agnt-react" });
  });

  it("names an agent2model chart by a file name that gives its format's id as the word", async () => {
    const chart = readFileSync("test/fixtures/agent2model/travel_booking.flowchart.yaml", "utf8");
    const dir = tempDir("agentflow-registry-foreign-");
    writeFileSync(join(dir, "agnt-travel@1.0.0.agent2model.yaml"), chart);
    writeFileSync(join(dir, "travel.v2.yaml"), chart);
    const loaded = await loadFolderRegistry(dir);
    expect(loaded.resolve("agnt-travel@1.0.0")).toMatchObject({
      id: "agnt-travel",
      version: "1.0.0",
    });
    const unnamed = loaded.problems
      .flatMap((p) => p.diagnostics)
      .filter((d) => d.code === "REGISTRY_UNIDENTIFIED");
    expect(unnamed.map((d) => [d.message, d.data])).toEqual([
      [
        "this agent2model flowchart (Flowchart IR) document states no id@version of its own (its importer would synthesise one), and its file name travel.v2.yaml gives none: 'travel.v2' has no '@version' (expected id@x.y.z); name the file <id>@<version>.<ext>, or <id>@<version>.<format word>.<ext> with a format id or a word of letters and dashes as the format word (e.g. agnt-research@1.2.0.yaml, agnt-research@1.2.0.agent2model.yaml), so that a reference can name it — until then no reference resolves to it",
        {
          format: "agent2model",
          file: "travel.v2.yaml",
          reason: "'travel.v2' has no '@version' (expected id@x.y.z)",
        },
      ],
    ]);
  });
});
