import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { conflictOf, RegistryConflictError } from "../../src/bpmn/index.js";
import { UsageError } from "../../src/cli/io.js";
import { loadFolderRegistry } from "../../src/cli/registry.js";
import { contentHash } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { CAN_BE_DENIED, denied } from "./unprivileged.js";

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

  it("refuses a range whose highest match is two versions that differ in build metadata only", async () => {
    const dir = folder({
      "a.json": JSON.stringify(tool("1.0.0+a")),
      "b.json": JSON.stringify({ ...tool("1.0.0+b"), effect: "write-irreversible" }),
      "c.json": JSON.stringify(tool("0.9.0")),
    });
    const registry = await loadFolderRegistry(dir);
    // Neither ranks higher: the file read first would decide.
    const contested = [join(dir, "a.json"), join(dir, "b.json")];
    for (const ref of ["tool:search@^1.0.0", "tool:search@1.x"]) {
      let thrown: unknown;
      try {
        registry.resolve(ref);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RegistryConflictError);
      expect((thrown as RegistryConflictError).ref).toBe("tool:search@1.0.0");
      expect((thrown as RegistryConflictError).definitions.map((d) => d.source)).toEqual(contested);
    }
    expect(registry.resolve("tool:search@1.0.0+b")).toMatchObject({ effect: "write-irreversible" });
    expect(registry.resolve("tool:search@^0.9.0")).toMatchObject({ version: "0.9.0" });
  });

  it("reports broken files, and the same content twice as a duplicate, keeping the first", async () => {
    const dir = folder({
      "1.json": JSON.stringify({ ...tool("1.0.0"), name: "First" }),
      // The same document, formatted otherwise: the same canonical JSON, the same content hash.
      "2.yaml": `kind: ToolContract\nid: tool:search\nversion: 1.0.0\nname: First\ninputSchema: { q: text }\noutputSchema:\n  r: text[]\neffect: read\nauthorization: automatic\n`,
      "3.json": "{ not json",
      "4.json": JSON.stringify({ kind: "AgentWorkflow", id: "agnt-x" }),
    });
    const registry = await loadFolderRegistry(dir);
    expect(
      registry.problems.map((p) => [
        p.file.slice(dir.length + 1),
        p.diagnostics[0]?.code,
        p.diagnostics[0]?.severity,
      ]),
    ).toEqual([
      ["2.yaml", "REGISTRY_DUPLICATE", "warning"],
      ["3.json", "SYNTAX_ERROR", "error"],
      ["4.json", "STRUCTURE_INVALID", "error"],
    ]);
    expect(registry.problems[0]?.diagnostics[0]?.message).toMatch(
      new RegExp(
        `^tool:search@1\\.0\\.0 is defined again, with the same content as in '${dir}/1\\.json' \\(sha256:[0-9a-f]{64}\\)`,
      ),
    );
    expect(registry.resolve("tool:search@1.0.0")).toMatchObject({ name: "First" });
  });

  it("refuses an id@version defined with different content: an error naming both files and hashes", async () => {
    const first = { ...tool("1.0.0"), name: "Reviewed" };
    const impostor = { ...tool("1.0.0"), name: "Impostor", effect: "write-irreversible" };
    const dir = folder({
      "a.json": JSON.stringify(first),
      "b.json": JSON.stringify(impostor),
      "c.json": JSON.stringify(tool("1.1.0")),
    });
    const registry = await loadFolderRegistry(dir);
    const [problem] = registry.problems;
    expect(registry.problems).toHaveLength(1);
    expect(problem?.file).toBe(join(dir, "b.json"));
    const definitions = [
      { source: join(dir, "a.json"), contentHash: contentHash(first) },
      { source: join(dir, "b.json"), contentHash: contentHash(impostor) },
    ];
    expect(problem?.diagnostics).toEqual([
      expect.objectContaining({
        code: "REGISTRY_CONFLICT",
        severity: "error",
        message: `tool:search@1.0.0 is defined with different content in '${dir}/a.json' (${contentHash(first)}) and '${dir}/b.json' (${contentHash(impostor)}); the registry resolves it to neither, and every agent task that uses it is blocked`,
        data: { ref: "tool:search@1.0.0", definitions },
      }),
    ]);
    // Neither document is served, by exact ref or by a range whose best match is contested.
    for (const ref of ["tool:search@1.0.0", "tool:search@~1.0.0"]) {
      expect(() => registry.resolve(ref)).toThrow(RegistryConflictError);
      try {
        registry.resolvers.resolveTool?.(ref);
      } catch (error) {
        expect(conflictOf(error)).toEqual({ ref: "tool:search@1.0.0", definitions });
      }
    }
    expect(registry.resolve("tool:search@^1.0.0")).toMatchObject({ version: "1.1.0" });
  });

  it("follows symbolic links to files and folders; what it could not read is an error, what it read already a warning", async () => {
    const outside = folder({ "linked.json": JSON.stringify(tool("3.0.0")) });
    const dir = folder({ "a.json": JSON.stringify(tool("1.0.0")) });
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "b.json"), JSON.stringify(tool("2.0.0")));
    symlinkSync(join(outside, "linked.json"), join(dir, "file-link.json"));
    symlinkSync(outside, join(dir, "folder-link"), "dir");
    symlinkSync(dir, join(dir, "sub", "loop"), "dir");
    symlinkSync(join(dir, "sub"), join(dir, "zz-again"), "dir");
    symlinkSync(join(dir, "missing.json"), join(dir, "broken.json"));
    spawnSync("mkfifo", [join(dir, "pipe.json")]);
    const registry = await loadFolderRegistry(dir);
    expect([...(registry.tools.get("tool:search")?.keys() ?? [])].sort()).toEqual([
      "1.0.0",
      "2.0.0",
      "3.0.0",
    ]);
    expect(
      registry.problems.map((p) => [
        p.file.slice(dir.length + 1),
        p.diagnostics[0]?.code,
        p.diagnostics[0]?.data.reason,
      ]),
    ).toEqual([
      ["broken.json", "FILE_UNREADABLE", "a broken symbolic link"],
      ["pipe.json", "FILE_UNREADABLE", "a FIFO (named pipe), not a regular file"],
      ["sub/loop", "PATH_SKIPPED", `a symbolic link back to '${dir}', which holds it (a loop)`],
      ["zz-again", "PATH_SKIPPED", `the same folder as '${join(dir, "sub")}', read already`],
      // Two links to one file are two names for it: read once, under the first, with no
      // REGISTRY_DUPLICATE of itself.
    ]);
    expect(registry.problems.map((p) => p.diagnostics[0]?.severity)).toEqual([
      "error",
      "error",
      "warning",
      "warning",
    ]);
  });

  it.skipIf(!CAN_BE_DENIED)(
    "a folder or a file it cannot read is a FILE_UNREADABLE error on it; the rest is read",
    async () => {
      const dir = folder({
        "a.json": JSON.stringify(tool("1.0.0")),
        "c.json": JSON.stringify(tool("3.0.0")),
      });
      mkdirSync(join(dir, "locked"));
      writeFileSync(join(dir, "locked", "b.json"), JSON.stringify(tool("2.0.0")));
      chmodSync(dir, 0o755);
      const registry = await denied([join(dir, "locked"), join(dir, "c.json")], () =>
        loadFolderRegistry(dir),
      );
      expect([...(registry.tools.get("tool:search")?.keys() ?? [])]).toEqual(["1.0.0"]);
      const unreadable = (file: string) => ({
        file,
        diagnostics: [
          {
            code: "FILE_UNREADABLE",
            severity: "error",
            message: "cannot be read: permission denied; nothing in it was checked",
            target: { kind: "workflow" },
            path: "",
            data: { reason: "permission denied" },
          },
        ],
      });
      expect(registry.problems).toEqual([
        unreadable(join(dir, "c.json")),
        unreadable(join(dir, "locked")),
      ]);
    },
  );

  it("is a folder: a file given as the registry is a usage error", async () => {
    const dir = folder({ "a.json": JSON.stringify(tool("1.0.0")) });
    await expect(loadFolderRegistry(join(dir, "a.json"))).rejects.toThrow(
      new UsageError(
        `the registry '${dir}/a.json' (--registry) is not a folder; give the folder that holds the workflows and tool contracts`,
      ),
    );
  });

  it("reads a ref as a name, never as a path", async () => {
    // A document at the path the ref spells, relative to the registry, is still not found.
    const root = tempDir("agentflow-registry-root-");
    mkdirSync(join(root, "reg"));
    writeFileSync(join(root, "reg", "a.json"), JSON.stringify(tool("1.0.0")));
    mkdirSync(join(root, "etc"));
    writeFileSync(join(root, "etc", "passwd@1.0.0"), JSON.stringify(tool("1.0.0")));
    writeFileSync(join(root, "etc", "passwd"), JSON.stringify(tool("1.0.0")));
    const registry = await loadFolderRegistry(join(root, "reg"));
    for (const ref of ["../etc/passwd@1.0.0", "../../etc/passwd@1.0.0", "/etc/passwd@1.0.0"]) {
      expect(registry.resolve(ref)).toBeUndefined();
      expect(registry.resolvers.resolveTool?.(ref)).toBeUndefined();
      expect(registry.resolvers.resolveDelegate?.(ref)).toBeUndefined();
    }
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
