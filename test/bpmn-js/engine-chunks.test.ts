/**
 * What the module's engine leaves out: the YAML reader is fetched only for a YAML snapshot (a
 * chunk behind a second `import()`, not the first evaluation's), and the parsers' validators are
 * compiled by the Ajv the engine holds anyway, not shipped a second time as generated code.
 */
import { describe, expect, it } from "vitest";
import { measureBundle } from "../../bench/bundle.js";

const ENTRY = 'export { default as Agentflow, BTV_PACKAGE } from "./src/bpmn-js/index.js";';
const YAML = ["src/model/text/yaml-support.ts", "src/model/text/yaml.ts"];

describe("the bpmn-js module's engine", () => {
  it("fetches the YAML reader only on demand", async () => {
    const { first, engine, onDemand } = await measureBundle("module", ENTRY);
    const yamlPackage = (inputs: ReadonlySet<string>): string[] =>
      [...inputs].filter((file) => file.includes("node_modules/yaml/"));
    expect(engine.inputs.has("src/model/text/read.ts")).toBe(true);
    expect(YAML.filter((file) => first.inputs.has(file) || engine.inputs.has(file))).toEqual([]);
    expect(yamlPackage(first.inputs)).toEqual([]);
    expect(yamlPackage(engine.inputs)).toEqual([]);
    expect(YAML.filter((file) => !onDemand.inputs.has(file))).toEqual([]);
    expect(yamlPackage(onDemand.inputs).length).toBeGreaterThan(0);
  });

  it("compiles the parsers' checks with Ajv instead of shipping them generated", async () => {
    const { lazy } = await measureBundle("module", ENTRY);
    expect(lazy.inputs.has("src/model/parse/validators.ts")).toBe(true);
    expect(lazy.inputs.has("src/model/parse/generated/validators.ts")).toBe(false);
  });
});
