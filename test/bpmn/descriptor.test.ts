/**
 * The `btv` descriptor ships twice: as code (`btv.ts`, what agentflow imports, so that bundlers
 * need no JSON plugin) and as `btv.json` for modellers. They must be the same descriptor.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BTV_PACKAGE } from "../../src/bpmn/index.js";
import { BTV_DESCRIPTOR } from "../../src/bpmn/resources/btv.js";

const json = JSON.parse(
  readFileSync(new URL("../../src/bpmn/resources/btv.json", import.meta.url), "utf8"),
) as unknown;

describe("the btv descriptor", () => {
  it("is the same as code and as JSON", () => {
    expect(BTV_DESCRIPTOR).toEqual(json);
    expect(BTV_PACKAGE).toEqual(json);
  });

  it("is imported as a module, with no JSON import attribute left in src/", () => {
    const moddle = readFileSync(new URL("../../src/bpmn/moddle.ts", import.meta.url), "utf8");
    expect(moddle).toContain('from "./resources/btv.js"');
    expect(moddle).not.toMatch(/with \{ type: "json" \}/);
  });
});
