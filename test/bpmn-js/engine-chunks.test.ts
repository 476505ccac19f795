/**
 * What the module's engine leaves out: the YAML reader is fetched only for a YAML snapshot, and
 * the BPMN reader only for an import bpmn-moddle warned about (chunks behind a second `import()`,
 * not the first evaluation's); and what it keeps on purpose:
 * the parsers' checks compiled ahead of time, so that a first evaluation compiles no schema on
 * the page's main thread (a tenth of a second on a 2,000-node diagram) and a page whose content
 * security policy forbids generated code still parses workflows.
 */
import { describe, expect, it } from "vitest";
import { measureBundle } from "../../bench/bundle.js";

const ENTRY = 'export { default as Agentflow, BTV_PACKAGE } from "./src/bpmn-js/index.js";';
const YAML = ["src/model/text/yaml-support.ts", "src/model/text/yaml.ts"];
const IMPORT_READER = ["src/bpmn-js/import-reread.ts", "src/bpmn/read.ts"];

describe("the bpmn-js module's engine", () => {
  it("fetches the YAML reader, and the reader of a warned import, only on demand", async () => {
    const { first, engine, onDemand } = await measureBundle("module", ENTRY);
    const yamlPackage = (inputs: ReadonlySet<string>): string[] =>
      [...inputs].filter((file) => file.includes("node_modules/yaml/"));
    expect(engine.inputs.has("src/model/text/read.ts")).toBe(true);
    expect(YAML.filter((file) => first.inputs.has(file) || engine.inputs.has(file))).toEqual([]);
    expect(yamlPackage(first.inputs)).toEqual([]);
    expect(yamlPackage(engine.inputs)).toEqual([]);
    expect(YAML.filter((file) => !onDemand.inputs.has(file))).toEqual([]);
    expect(yamlPackage(onDemand.inputs).length).toBeGreaterThan(0);
    const early = IMPORT_READER.filter((file) => first.inputs.has(file) || engine.inputs.has(file));
    expect([early, IMPORT_READER.filter((file) => !onDemand.inputs.has(file))]).toEqual([[], []]);
  });

  it("ships the parsers' checks compiled ahead of time in the engine", async () => {
    const { first, engine } = await measureBundle("module", ENTRY);
    expect(engine.inputs.has("src/model/parse/generated/validators.ts")).toBe(true);
    expect(first.inputs.has("src/model/parse/generated/validators.ts")).toBe(false);
  });
});
