import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";

describe("README", () => {
  it("shows the real output of the demo command", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /npx agentflow check examples\n```\n\n```text\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    let stdout = "";
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
    expect(await main(["check", "examples"], io)).toBe(1);
    expect(stdout).toBe(block?.[1]);
  });

  it("shows the real output of the simulation demo", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block =
      /npx agentflow simulate (\S+) --fixtures (\S+)\n```\n\n```text\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    let stdout = "";
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => undefined, isTTY: false };
    const [, workflow = "", fixtures = "", shown] = block ?? [];
    expect(await main(["simulate", workflow, "--fixtures", fixtures], io)).toBe(0);
    expect(stdout).toBe(shown);
  });
});
