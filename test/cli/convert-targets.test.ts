/** The `--to` list `--help` shows without loading the exporters is the one `convert` accepts. */
import { describe, expect, it } from "vitest";
import { convertTargets } from "../../src/cli/convert.js";
import { CONVERT_TARGETS } from "../../src/cli/convert-targets.js";
import { run } from "./run.js";

describe("convert targets", () => {
  it("equal what the format registry can export", () => {
    expect([...CONVERT_TARGETS]).toEqual(convertTargets());
  });

  it("are what convert --help lists", async () => {
    const { stdout } = await run("convert", "--help");
    // commander wraps the description: compare it with the whitespace collapsed
    expect(stdout.replace(/\s+/g, " ")).toContain(`target: ${CONVERT_TARGETS.join(", ")}`);
  });
});
