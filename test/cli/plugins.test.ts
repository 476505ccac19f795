/**
 * Loading a plugin module (src/cli/plugins.ts): the default export or the namespace, checked;
 * pinned by its file's bytes; and loaded again by a worker thread only if it is still the same.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPlugin, locatePlugins, reloadPlugin } from "../../src/cli/plugins.js";
import { tempDir } from "../temp.js";

const RULE = `{ meta: { code: "X", defaultSeverity: "warning", description: "x", docs: "https://example.com/x", messages: { default: "x" } }, check() {} }`;

function repoWith(files: Record<string, string>): string {
  const dir = tempDir("agentflow-plugins-");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("loading a plugin module", () => {
  it("takes the namespace when there is no default export, and namespaces its rules", async () => {
    const dir = repoWith({
      "ns.js": `export const meta = { name: "ns", version: "1.0.0" };\nexport const rules = { X: ${RULE} };\n`,
    });
    const [source] = locatePlugins({ acme: "./ns.js" }, "c.json", dir, dir);
    if (source === undefined) throw new Error("not located");
    const loaded = await loadPlugin(source, "c.json");
    expect(loaded.rules.map((r) => r.meta.code)).toEqual(["acme/X"]);
    expect(loaded.plugin.meta).toEqual({ name: "ns", version: "1.0.0" });
    expect(source.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("names what a module lacks when it exports no plugin", async () => {
    const dir = repoWith({ "empty.js": "export default { meta: { name: 'e' } };\n" });
    const [source] = locatePlugins({ e: "./empty.js" }, "c.json", dir, dir);
    if (source === undefined) throw new Error("not located");
    await expect(loadPlugin(source, "c.json")).rejects.toThrow(
      `c.json: plugin 'e' (${join(dir, "empty.js")}) has no meta.version`,
    );
  });

  it("a worker refuses a plugin whose file changed after the main thread loaded it", async () => {
    const dir = repoWith({
      "p.js": `export default { meta: { name: "p", version: "1.0.0" }, rules: { X: ${RULE} } };\n`,
    });
    const [located] = locatePlugins({ p: "./p.js" }, "c.json", dir, dir);
    if (located === undefined) throw new Error("not located");
    const { source } = await loadPlugin(located, "c.json");
    await expect(reloadPlugin(source)).resolves.toMatchObject({ source });
    writeFileSync(join(dir, "p.js"), "// changed\n", { flag: "a" });
    await expect(reloadPlugin(source)).rejects.toThrow(
      `plugin 'p' (${join(dir, "p.js")}) changed while the run was going on`,
    );
  });
});
