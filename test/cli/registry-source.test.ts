/**
 * `FolderRegistry.sourceOf`: the file an exact `id@version` was read from, the first definition's
 * when several files define it, on the shelf of its kind; what an approval names as a subject.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import { tempDir } from "../temp.js";

const workflow = (description: string): string =>
  JSON.stringify({
    kind: "AgentWorkflow",
    id: "agnt-a",
    version: "1.0.0",
    name: "A",
    description,
    autonomyLevel: 1,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes: [{ id: "n", type: "llm", config: { model: "m", promptRef: "prm:p@1.0.0" } }],
    edges: [],
  });

const tool = JSON.stringify({
  kind: "ToolContract",
  id: "tool:search",
  version: "1.2.0",
  name: "Search",
  inputSchema: { q: "text" },
  outputSchema: { hits: "text[]" },
  effect: "read",
  authorization: "automatic",
});

describe("FolderRegistry.sourceOf", () => {
  it("names the file of an exact ref, the first definition's, on its kind's shelf", async () => {
    const dir = tempDir("agentflow-registry-source-");
    writeFileSync(join(dir, "b.agent.json"), workflow("second"));
    writeFileSync(join(dir, "a.agent.json"), workflow("first"));
    writeFileSync(join(dir, "search.tool.json"), tool);
    const registry = await loadFolderRegistry(dir);
    expect(registry.sourceOf("agnt-a@1.0.0", "workflow")).toBe(join(dir, "a.agent.json"));
    expect(registry.sourceOf("agnt-a@1.0.0")).toBe(join(dir, "a.agent.json"));
    expect(registry.sourceOf("tool:search@1.2.0", "tool")).toBe(join(dir, "search.tool.json"));
    expect(registry.sourceOf("tool:search@1.2.0", "workflow")).toBeUndefined();
    expect(registry.sourceOf("agnt-a@1.0.0", "tool")).toBeUndefined();
    // Only exact refs: a range names no one file.
    expect(registry.sourceOf("tool:search@^1.0.0")).toBeUndefined();
    expect(registry.sourceOf("agnt-a@2.0.0")).toBeUndefined();
  });
});
