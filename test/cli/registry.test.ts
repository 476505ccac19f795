import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import { tempDir } from "../temp.js";

const tool = (version: string) => ({
  kind: "ToolContract",
  id: "tool:search",
  version,
  name: "Search",
  inputSchema: { q: "text" },
  outputSchema: { r: "text[]" },
  effect: "read",
  authorization: "automatic",
});

function folder(files: Record<string, string>): string {
  const dir = tempDir("agentflow-registry-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("loadFolderRegistry", () => {
  it("indexes the examples' tool contracts by id@version", async () => {
    const registry = await loadFolderRegistry("examples/registry");
    expect([...registry.tools.keys()]).toEqual([
      "tool:browser-search",
      "tool:credit-bureau-report",
      "tool:erp-purchase-order",
      "tool:payments-refund",
      "tool:send-loan-offer",
    ]);
    expect([...registry.workflows.keys()]).toEqual(["agnt-credit-risk", "agnt-offer-sender"]);
    expect(registry.resolvers.resolveTool?.("tool:browser-search@1.2.0")).toMatchObject({
      name: "Web search",
    });
    expect(registry.resolvers.resolveTool?.("tool:browser-search@1.2.1")).toBeUndefined();
    expect(registry.problems).toEqual([]);
  });

  it("resolves semver ranges to the highest match, exact refs exactly", async () => {
    const dir = folder({
      "a.json": JSON.stringify(tool("1.2.0")),
      "b.json": JSON.stringify(tool("1.4.1")),
      "c.yaml": `kind: ToolContract\nid: tool:search\nversion: 2.0.0\nname: S\ninputSchema: { q: text }\noutputSchema: { r: text }\neffect: read\nauthorization: automatic\n`,
    });
    const registry = await loadFolderRegistry(dir);
    const version = (ref: string) =>
      (registry.resolve(ref) as { version?: string } | undefined)?.version;
    expect(version("tool:search@^1.2.0")).toBe("1.4.1");
    expect(version("tool:search@>=2")).toBe("2.0.0");
    expect(version("tool:search@1.2.0")).toBe("1.2.0");
    expect(version("tool:search@~1.3.0")).toBeUndefined();
    expect(version("tool:other@^1.0.0")).toBeUndefined();
  });

  it("reports broken files and duplicate id@version, keeping the first", async () => {
    const dir = folder({
      "1.json": JSON.stringify({ ...tool("1.0.0"), name: "First" }),
      "2.json": JSON.stringify({ ...tool("1.0.0"), name: "Second" }),
      "3.json": "{ not json",
      "4.json": JSON.stringify({ kind: "AgentWorkflow", id: "agnt-x" }),
    });
    const registry = await loadFolderRegistry(dir);
    expect(
      registry.problems.map((p) => [p.file.slice(dir.length + 1), p.diagnostics[0]?.code]),
    ).toEqual([
      ["2.json", "REGISTRY_DUPLICATE"],
      ["3.json", "SYNTAX_ERROR"],
      ["4.json", "STRUCTURE_INVALID"],
    ]);
    expect(registry.resolve("tool:search@1.0.0")).toMatchObject({ name: "First" });
  });

  it("serves delegate workflows", async () => {
    const wf = {
      kind: "AgentWorkflow",
      id: "agnt-verify",
      version: "1.0.0",
      name: "Verify",
      autonomyLevel: 1,
      inputSchema: { claim: "text" },
      outputSchema: { ok: "bool" },
      nodes: [],
      edges: [],
    };
    const registry = await loadFolderRegistry(folder({ "verify.json": JSON.stringify(wf) }));
    expect(registry.resolvers.resolveDelegate?.("agnt-verify@1.0.0")).toEqual(wf);
    expect(registry.resolvers.resolveTool?.("agnt-verify@1.0.0")).toBeUndefined();
  });
});
