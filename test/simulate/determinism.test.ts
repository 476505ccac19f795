/**
 * Determinism (SPEC 5): the same run is byte-identical 100 times and in another process, and the
 * simulator's source reads no clock and no random source.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { explore } from "../../src/simulate/index.js";
import { template } from "./builders.js";
import { scenario } from "./scenario.js";

const root = new URL("../../", import.meta.url);

describe("determinism", () => {
  it("gives byte-identical JSON on 100 runs", () => {
    const first = JSON.stringify(scenario());
    for (let i = 0; i < 100; i++) expect(JSON.stringify(scenario())).toBe(first);
    expect(first).toContain('"logicalTime":1');
  });

  it("gives the same bytes in a second Node process", () => {
    const script = new URL("test/simulate/print-run.ts", root);
    const stdout = execFileSync(process.execPath, ["--import", "tsx", script.pathname], {
      cwd: new URL(".", root),
      encoding: "utf8",
      env: { ...process.env, TSX_DISABLE_CACHE: "1" }, // tsx would leave a cache in the temp folder
    });
    expect(stdout).toBe(JSON.stringify(scenario()));
  });

  it("explore is byte-identical too", () => {
    const wf = template("research");
    const options = { fixtures: { "llm-1": { outputs: [{ query: "q" }] } } };
    expect(JSON.stringify(explore(wf, options))).toBe(JSON.stringify(explore(wf, options)));
  });
});

describe("purity of src/simulate", () => {
  const dir = new URL("src/simulate/", root);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort();
  const forbidden = [
    /\bDate\b/,
    /\bMath\.random\b/,
    /\bsetTimeout\b/,
    /\bsetInterval\b/,
    /\bperformance\b/,
    /\bcrypto\b/,
  ];

  it("has files to check", () => {
    expect(files).toContain("simulate.ts");
    expect(files).toContain("machine.ts");
  });

  it.each(files)(
    "%s reads no clock and no random source, and imports nothing from node:",
    (file) => {
      const text = readFileSync(new URL(file, dir), "utf8");
      for (const pattern of forbidden) expect(text).not.toMatch(pattern);
      expect(text).not.toMatch(/from "node:/);
    },
  );
});
