/**
 * A pattern that climbs out of the working directory matches the working directory's own files
 * too: tinyglobby 0.2 leaves them out (SuperchupuDev/tinyglobby#128), so `gate '../*\/*.bpmn'`
 * run in `processes/` judged every folder but its own.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isProcessName } from "../../src/cli/file-kinds.js";
import { expandGlob } from "../../src/cli/glob.js";
import { tempDir } from "../temp.js";

/** `flows/a.bpmn`, `processes/b.bpmn`, `processes/sub/c.bpmn`; the working directory is `processes`. */
function tree(): { root: string; cwd: string } {
  const root = tempDir("agentflow-glob-");
  mkdirSync(join(root, "flows"));
  mkdirSync(join(root, "processes/sub"), { recursive: true });
  for (const file of ["flows/a.bpmn", "processes/b.bpmn", "processes/sub/c.bpmn"]) {
    writeFileSync(join(root, file), "<x/>");
  }
  return { root, cwd: join(root, "processes") };
}

describe("expandGlob from below the folder a pattern starts in", () => {
  it.each([
    ["../*/*.bpmn", ["../flows/a.bpmn", "../processes/b.bpmn"]],
    ["../**/*.bpmn", ["../flows/a.bpmn", "../processes/b.bpmn", "../processes/sub/c.bpmn"]],
    ["../processes/*.bpmn", ["../processes/b.bpmn"]],
    // Climbing in the middle of the static part is climbing too.
    ["sub/../../*/*.bpmn", ["../flows/a.bpmn", "../processes/b.bpmn"]],
    ["*.bpmn", ["b.bpmn"]],
    ["**/*.bpmn", ["b.bpmn", "sub/c.bpmn"]],
  ])("%s", async (pattern, expected) => {
    const { cwd } = tree();
    expect(await expandGlob(pattern, isProcessName, { cwd })).toEqual(expected);
  });

  it("a climbing pattern whose folder name needs escaping (a glob character in it)", async () => {
    const root = tempDir("agentflow-glob-");
    const cwd = join(root, "Fin (EU)", "processes");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(root, "Fin (EU)", "drafts"));
    writeFileSync(join(cwd, "pay.bpmn"), "<x/>");
    writeFileSync(join(root, "Fin (EU)", "drafts", "ok.bpmn"), "<x/>");
    expect(await expandGlob("../../Fin \\(EU\\)/*/*.bpmn", isProcessName, { cwd })).toEqual([
      "../../Fin (EU)/drafts/ok.bpmn",
      "../../Fin (EU)/processes/pay.bpmn",
    ]);
  });

  it("an absolute pattern above the working directory", async () => {
    const { root, cwd } = tree();
    expect(await expandGlob(`${root}/*/*.bpmn`, isProcessName, { cwd })).toEqual([
      join(root, "flows/a.bpmn"),
      join(root, "processes/b.bpmn"),
    ]);
    expect(await expandGlob(`${root}/**/*.bpmn`, isProcessName, { cwd })).toHaveLength(3);
  });
});
