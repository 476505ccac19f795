/**
 * The one contract suite every interop format runs (SPEC 6): each fixture imports to a workflow
 * that parses, warnings are well-formed and stable, the round trip is deep-equal, and no input
 * makes `detect` or `import` throw anything but an ImportError.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minCoherentLevel } from "../../src/autonomy/index.js";
import type { Format, InteropWarning } from "../../src/interop/index.js";
import { detectFormat, FORMATS, ImportError, importDocument } from "../../src/interop/index.js";
import { getTemplate, listTemplates, parseWorkflow } from "../../src/model/index.js";
import { createValidator, RULE_CRASHED } from "../../src/validate/index.js";
import { readFixture } from "./helpers.js";

/** Declared warnings per fixture, pinned so that a change in what an importer drops is seen. */
const WARNING_COUNTS: Readonly<Record<string, number>> = {
  "agentflow/langgraph-subset-import-fixture.json": 0,
  "langgraph-gen/langgraph-gen-agentic_rag.spec.yml": 8,
  // a function node declares one warning, at its type (a tool of unknown effect), none at /data
  "langgraph-graph/py-to_json-conditional-entrypoint.json": 5,
  "langgraph-graph/py-to_json-human-agent-loop.json": 5,
  "langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json": 6,
  // its three node names (`write_draft`, ...) are agentflow ids and are no longer renamed
  "langgraph-graph/js-getGraphAsync-toJSON-interrupt-before.generated.json": 7,
  "langgraph-graph/platform-get_graph-sdk-docstring-example.json": 2,
  "openagentflow/hello_ir.json": 1,
  "openagentflow/summarize_ir.json": 1,
  "openagentflow/software_dev_ir.json": 2,
  "openagentflow/conditional_routing_ir.generated.json": 4,
  "openagentflow/ticket_triage_ir.generated.json": 4,
  "openagentflow/review_loop_ir.generated.json": 4,
  "openagentflow/catalog_enrichment_ir.generated.json": 6,
  "openagentflow/precedence_probe_ir.generated.json": 3,
  "agentos/research-graph-routed.compiled-execution-graph.derived.json": 29,
  "agent2model/travel_booking.flowchart.yaml": 15,
  "agent2model/zoom_support.flowchart.yaml": 16,
  "agent2model/insurance_claims.flowchart.yaml": 60,
  "agent2model/travel_booking.flowchart.json": 15,
  "agent2model/zoom_support.flowchart.json": 16,
  "agent2model/insurance_claims.flowchart.json": 60,
};

/** Format id → fixture paths under `test/fixtures/`. A new format must list at least one. */
const FIXTURES_BY_FORMAT: Readonly<Record<string, readonly string[]>> = {
  "langgraph-subset": ["agentflow/langgraph-subset-import-fixture.json"],
  "langgraph-graph": [
    "langgraph-graph/py-to_json-conditional-entrypoint.json",
    "langgraph-graph/py-to_json-human-agent-loop.json",
    "langgraph-graph/py-to_json-prebuilt-react-agent-toolnode.json",
    "langgraph-graph/js-getGraphAsync-toJSON-interrupt-before.generated.json",
    "langgraph-graph/platform-get_graph-sdk-docstring-example.json",
  ],
  "langgraph-gen": ["langgraph-gen/langgraph-gen-agentic_rag.spec.yml"],
  openagentflow: [
    "openagentflow/hello_ir.json",
    "openagentflow/summarize_ir.json",
    "openagentflow/software_dev_ir.json",
    "openagentflow/conditional_routing_ir.generated.json",
    "openagentflow/ticket_triage_ir.generated.json",
    "openagentflow/review_loop_ir.generated.json",
    "openagentflow/catalog_enrichment_ir.generated.json",
    "openagentflow/precedence_probe_ir.generated.json",
  ],
  agentos: ["agentos/research-graph-routed.compiled-execution-graph.derived.json"],
  agent2model: [
    "agent2model/travel_booking.flowchart.yaml",
    "agent2model/zoom_support.flowchart.yaml",
    "agent2model/insurance_claims.flowchart.yaml",
    "agent2model/travel_booking.flowchart.json",
    "agent2model/zoom_support.flowchart.json",
    "agent2model/insurance_claims.flowchart.json",
  ],
};

function fixturesOf(format: Format): readonly string[] {
  return FIXTURES_BY_FORMAT[format.id] ?? [];
}

function expectWellFormed(warnings: readonly InteropWarning[]): void {
  for (const w of warnings) {
    expect(w.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(typeof w.message).toBe("string");
    expect(w.message.length).toBeGreaterThan(0);
    expect(w.path === "" || w.path.startsWith("/")).toBe(true);
    if (w.data !== undefined) expect(typeof w.data).toBe("object");
  }
}

function expectNoErrors(value: unknown): void {
  const errors = parseWorkflow(value).diagnostics.filter((d) => d.severity === "error");
  expect(errors).toEqual([]);
}

/** Runs `f`; anything thrown must be an ImportError of this format. */
function importOrImportError(format: Format, doc: unknown): void {
  try {
    const result = format.import(doc);
    expectNoErrors(result.workflow);
    expectWellFormed(result.warnings);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    expect(error.format).toBe(format.id);
    expect(error.path === "" || error.path.startsWith("/")).toBe(true);
  }
}

it("every format lists fixtures, and every listed format exists", () => {
  const ids = FORMATS.map((f) => f.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const format of FORMATS) expect(fixturesOf(format).length).toBeGreaterThan(0);
  expect(Object.keys(FIXTURES_BY_FORMAT).sort()).toEqual([...ids].sort());
});

describe.each(FORMATS.map((f): [string, Format] => [f.id, f]))("format %s", (_id, format) => {
  describe.each(fixturesOf(format))("%s", (path) => {
    it("is detected by this format, and it is the one the registry picks", () => {
      const doc = readFixture(path);
      expect(format.detect(doc)).toBe(true);
      expect(detectFormat(doc)).toBe(format);
    });

    it("imports to a workflow that parses with no error, at its justified level", () => {
      const { workflow, warnings } = format.import(readFixture(path));
      expectNoErrors(workflow);
      expectWellFormed(warnings);
      expect(workflow.autonomyLevel).toBe(minCoherentLevel(workflow));
    });

    it("declares exactly its pinned number of warnings, and validates without a rule crash", () => {
      const { workflow, warnings } = format.import(readFixture(path));
      expect(warnings).toHaveLength(WARNING_COUNTS[path] ?? -1);
      const found = createValidator().validateSync(workflow);
      expect(found.filter((d) => d.code === RULE_CRASHED)).toEqual([]);
    });

    it("imports the same way twice (warnings stable)", () => {
      const first = format.import(readFixture(path));
      const second = format.import(readFixture(path));
      expect(second).toStrictEqual(first);
    });

    it.runIf(format.export !== undefined)(
      "round trip import → export → import is deep-equal",
      () => {
        const first = format.import(readFixture(path));
        const exported = format.export?.(first.workflow);
        if (exported === undefined) throw new Error("no export");
        expectWellFormed(exported.warnings);
        expect(format.detect(exported.document)).toBe(true);
        expect(format.import(exported.document).workflow).toStrictEqual(first.workflow);
      },
    );
  });

  it("detect and import never throw anything but an ImportError, on any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        expect(typeof format.detect(doc)).toBe("boolean");
        importOrImportError(format, doc);
      }),
      { numRuns: 300 },
    );
  });

  it("nor on its fixtures with one value replaced by arbitrary JSON", () => {
    // Each fixture is decoded once and each run mutates a copy of it: decoding it again per run
    // (a YAML fixture takes ~15 ms) was most of the property's time. The copy is what a fresh
    // decode gives, plain JSON data.
    const decoded = new Map(fixturesOf(format).map((path) => [path, readFixture(path)]));
    for (const [path, value] of decoded)
      expect(structuredClone(value)).toStrictEqual(readFixture(path));
    const token = fc.oneof(
      fc.nat({ max: 3 }),
      fc.constantFrom(
        "nodes",
        "edges",
        "data",
        "type",
        "id",
        "source",
        "target",
        "edgeType",
        "when",
        "version",
        "name",
        "input_schema",
        "onTrue",
        "next",
        "model",
        "__proto__",
      ),
    );
    const mutation = fc.tuple(
      fc.constantFrom(...fixturesOf(format)),
      fc.array(token, { minLength: 1, maxLength: 4 }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(mutation, ([path, tokens, value]) => {
        const doc = structuredClone(decoded.get(path));
        setAt(doc, tokens, value);
        expect(typeof format.detect(doc)).toBe("boolean");
        importOrImportError(format, doc);
      }),
      { numRuns: 300 },
    );
  });
});

/** Sets a value at a path whose parent exists, as a data property (so `__proto__` is a key). */
function setAt(doc: unknown, tokens: readonly (string | number)[], value: unknown): void {
  let current: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    // Own properties only: stepping through `__proto__` would edit Object.prototype itself.
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, token)) return;
    current = (current as Record<string, unknown>)[String(token)];
  }
  const last = tokens.at(-1);
  if (typeof current !== "object" || current === null || last === undefined) return;
  Object.defineProperty(current, String(last), {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

describe("the registry", () => {
  const agentflowFixtures = readdirSync(new URL("../fixtures/agentflow/", import.meta.url))
    .filter((f) => f.endsWith(".json"))
    .map((f) => `agentflow/${f}`)
    .filter((f) => !Object.values(FIXTURES_BY_FORMAT).some((list) => list.includes(f)));

  it.each(agentflowFixtures)("no format claims the AgentWorkflow %s", (path) => {
    expect(detectFormat(readFixture(path))).toBeUndefined();
    expect(importDocument(readFixture(path))).toBeUndefined();
  });

  it("no format claims a template, even one without kind checks in its detect", () => {
    for (const t of listTemplates()) expect(detectFormat(getTemplate(t.id))).toBeUndefined();
  });

  it("importDocument returns the claiming format and its result", () => {
    const [format] = FORMATS;
    const [path] = format === undefined ? [] : fixturesOf(format);
    if (format === undefined || path === undefined) throw new Error("no format");
    const detected = importDocument(readFixture(path));
    expect(detected?.format).toBe(format);
    expect(detected?.result).toStrictEqual(format.import(readFixture(path)));
  });

  it("returns undefined for what no format claims", () => {
    for (const doc of [null, 1, "x", [], {}, { nodes: [] }]) {
      expect(detectFormat(doc)).toBeUndefined();
      expect(importDocument(doc)).toBeUndefined();
    }
  });
});
