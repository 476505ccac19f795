/**
 * What a page fetches before the modeller is built: the module, bundled by esbuild with
 * `splitting: true` as docs/modeler.md imports it, leaves what judges the diagram (the gate
 * evaluation, the BPMN and workflow rules, approval reading, the plugin and waiver checks) to a
 * chunk that only the service's `import()` reaches, and draws with what the first load holds.
 * The pack compiler (FEEL, its bounds and pattern checks) is a chunk further, which only the
 * engine's `import()` for a page with packs reaches. With the properties-panel group beside it,
 * the first load still reaches nothing of `model/` but `visibleText` (a leaf module, which the
 * markers need to show a role or a waiver's reason escaped): the ref field takes its parser from
 * that chunk.
 */
import { describe, expect, it } from "vitest";
import { measureBundle } from "../../bench/bundle.js";

const ENTRY = 'export { default as Agentflow, BTV_PACKAGE } from "./src/bpmn-js/index.js";';
const PANEL =
  'export { default as AgentflowPanel } from "./src/bpmn-js/properties-panel/index.js";';

const VIEW = [
  "src/bpmn-js/service.ts",
  "src/bpmn-js/draw.ts",
  "src/bpmn-js/badges.ts",
  "src/bpmn-js/bypass.ts",
  "src/bpmn-js/options.ts",
  "src/bpmn-js/policies.ts",
  "src/bpmn/resources/btv.ts",
];
const ENGINE = [
  "src/bpmn/evaluate-run.ts",
  "src/bpmn/rules/AGENT_GATE_BYPASS.ts",
  "src/bpmn/gate-reach.ts",
  "src/validate/rules/index.ts",
  "src/validate/engine.ts",
  "src/approval/check.ts",
  "src/bpmn-js/approval.ts",
  "src/bpmn-js/policy-checks.ts",
  "src/policy/shape.ts",
  "src/policy/waivers.ts",
  "src/rules/plugin.ts",
  "src/model/parse/generated/validators.ts",
];
/** What only a page that sets packs fetches: the pack compiler, behind the engine's `import()`. */
const PACK_COMPILER = [
  "src/bpmn-js/pack-compile.ts",
  "src/policy/read.ts",
  "src/policy/compile.ts",
  "src/policy/feel.ts",
  "src/policy/feel-patterns.ts",
  "node_modules/feelin/dist/index.js",
  "node_modules/redos-detector/dist/redos-detector.mjs",
];

describe("the bpmn-js module's chunks", () => {
  it("puts the view in the first load and the engine in a lazily loaded chunk", async () => {
    const { first, lazy } = await measureBundle("module", ENTRY);
    expect(VIEW.filter((file) => !first.inputs.has(file))).toEqual([]);
    expect(ENGINE.filter((file) => first.inputs.has(file))).toEqual([]);
    expect(ENGINE.filter((file) => !lazy.inputs.has(file))).toEqual([]);
  });

  it("leaves the pack compiler out of the first evaluation, to a chunk only packs fetch", async () => {
    const { first, engine, onDemand } = await measureBundle("module", ENTRY);
    const everywhere = new Set([...first.inputs, ...engine.inputs, ...onDemand.inputs]);
    expect(PACK_COMPILER.filter((file) => !everywhere.has(file))).toEqual([]);
    expect(
      PACK_COMPILER.filter((file) => first.inputs.has(file) || engine.inputs.has(file)),
    ).toEqual([]);
    expect(ENGINE.filter((file) => !engine.inputs.has(file))).toEqual([]);
  });

  it("keeps model/ out of the first load with the properties-panel group", async () => {
    const { first, lazy } = await measureBundle("module + group", `${ENTRY}\n${PANEL}`);
    const panel = ["src/bpmn-js/properties-panel/entries.ts", "src/bpmn-js/ref-words.ts"];
    expect([...VIEW, ...panel].filter((file) => !first.inputs.has(file))).toEqual([]);
    expect([...first.inputs].filter((file) => file.startsWith("src/model/"))).toEqual([
      "src/model/text/visible.ts",
    ]);
    expect(ENGINE.filter((file) => first.inputs.has(file))).toEqual([]);
    expect(lazy.inputs.has("src/model/ref.ts")).toBe(true);
  });
});
