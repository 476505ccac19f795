/**
 * The `btv` descriptor ships twice: as code (`btv.ts`, what agentflow imports, so that bundlers
 * need no JSON plugin) and as `btv.json` for modellers. They must be the same descriptor.
 */
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

const json = JSON.parse(
  readFileSync(new URL("../../src/bpmn/resources/btv.json", import.meta.url), "utf8"),
) as unknown;

describe("the btv descriptor", () => {
  it("is the same as code and as JSON", () => {
    // Read from the source, not the loaded module: bpmn-moddle annotates a descriptor it is
    // given (prefixed names, `ns`), and other test files share this worker's modules.
    const source = readFileSync(
      new URL("../../src/bpmn/resources/btv.ts", import.meta.url),
      "utf8",
    );
    const literal = /BTV_DESCRIPTOR = (\{[\s\S]*\}) as const;/.exec(source)?.[1];
    expect(literal).toBeDefined();
    expect(runInNewContext(`(${literal ?? ""})`)).toEqual(json);
  });

  it("is imported as a module, with no JSON import attribute left in src/", () => {
    const moddle = readFileSync(new URL("../../src/bpmn/moddle.ts", import.meta.url), "utf8");
    expect(moddle).toContain('from "./resources/btv.js"');
    expect(moddle).not.toMatch(/with \{ type: "json" \}/);
  });
});
