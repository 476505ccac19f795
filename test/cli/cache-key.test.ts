/**
 * The cache's run key (cache-key.ts): a policy pack rule that calls `today()` or `now()` decides
 * by the moment of the run, so the key holds that moment and no result is reused at another.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runKey } from "../../src/cli/cache-key.js";
import type { RunSettings } from "../../src/cli/settings.js";
import { resolveSettings } from "../../src/cli/settings.js";
import { tempDir } from "../temp.js";

/** The settings of a repository whose config names one pack whose rule reads `when`. */
async function settingsWithPack(when: string): Promise<RunSettings> {
  const dir = tempDir("agentflow-cache-key-");
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, "agentflow.config.json"), JSON.stringify({ policies: ["dated.yaml"] }));
  writeFileSync(
    join(dir, "dated.yaml"),
    [
      "kind: PolicyPack",
      "name: dated",
      'version: "1"',
      "rules:",
      "  - id: level-2-banned",
      "    severity: error",
      "    for: agentTask",
      `    when: ${when}`,
      "",
    ].join("\n"),
  );
  return resolveSettings({ format: "text" }, dir);
}

const MORNING = new Date("2026-12-06T08:00:00.000Z");
const EVENING = new Date("2026-12-06T20:57:20.000Z");

describe("runKey", () => {
  it.each([
    ['level >= 2 and now() >= date and time("2026-12-06T20:57:19Z")'],
    ['level >= 2 and today() >= date("2026-12-07")'],
  ])("a pack rule that reads the clock keys the run by its moment: %s", async (when) => {
    const settings = await settingsWithPack(when);
    expect(settings.readsClock).toBe(true);
    expect(runKey("gate", "/repo", settings, MORNING)).not.toBe(
      runKey("gate", "/repo", settings, EVENING),
    );
    expect(runKey("gate", "/repo", settings, MORNING)).toBe(
      runKey("gate", "/repo", settings, new Date("2026-12-06T08:00:00.000Z")),
    );
  });

  it("a pack whose rules do not read the clock keeps one key all day", async () => {
    const settings = await settingsWithPack("level >= 2");
    expect(settings.readsClock).toBeUndefined();
    expect(runKey("gate", "/repo", settings, MORNING)).toBe(
      runKey("gate", "/repo", settings, EVENING),
    );
  });
});
