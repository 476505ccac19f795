/**
 * Properties of interop: every format's `detect` and `import` answer any value with a boolean and
 * with a result or an `ImportError` (also on its own fixture with one value replaced), every
 * `export` answers any workflow without throwing, with well-formed warnings and a JSON document,
 * and `importDocument` agrees with `detectFormat`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Format } from "../../src/interop/index.js";
import { detectFormat, FORMATS, ImportError, importDocument } from "../../src/interop/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { readFixture } from "../adversarial/crafted.js";
import { workflowArb } from "./arbitraries.js";
import { assertNoPollution, assertWarnings, importOrImportError } from "./checks.js";
import { hostileJsonArb } from "./json.js";
import type { PropertyDef } from "./settings.js";
import { property } from "./settings.js";

const FILE = "test/properties/interop.property.test.ts";

/** One fixture per format, decoded once. */
const FIXTURES: readonly unknown[] = [
  "agentflow/langgraph-subset-import-fixture.json",
  "langgraph-graph/py-to_json-human-agent-loop.json",
  "langgraph-gen/langgraph-gen-agentic_rag.spec.yml",
  "openagentflow/software_dev_ir.json",
  "agentos/research-graph-routed.compiled-execution-graph.derived.json",
  "agent2model/insurance_claims.flowchart.yaml",
].map(readFixture);

const formatArb = fc.constantFrom(...FORMATS);

/** A fixture with the value at a path of picks replaced (own keys only, `__proto__` included). */
export const mutatedFixtureArb: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.nat(FIXTURES.length - 1),
    fc.array(fc.oneof(fc.nat(20), fc.constantFrom("__proto__", "constructor", "id")), {
      minLength: 1,
      maxLength: 6,
    }),
    hostileJsonArb,
  )
  .map(([i, path, value]) => {
    const doc: unknown = structuredClone(FIXTURES[i]);
    let current: unknown = doc;
    for (const [depth, step] of path.entries()) {
      if (typeof current !== "object" || current === null) break;
      const keys = Object.keys(current);
      const key = typeof step === "number" ? keys[step % Math.max(keys.length, 1)] : step;
      if (key === undefined) break;
      const record = current as Record<string, unknown>;
      if (depth === path.length - 1 || !Object.hasOwn(record, key)) {
        Object.defineProperty(record, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        break;
      }
      current = record[key];
    }
    return doc;
  });

/** `detect` is a boolean; `import` is a result whose workflow parses, or an ImportError. */
export function importHolds([format, doc]: [Format, unknown]): void {
  assert.equal(typeof format.detect(doc), "boolean");
  importOrImportError(format, doc, `import:${format.id}`);
  assertNoPollution(`import:${format.id}`);
}

/** `importDocument` picks what `detectFormat` picks, and throws only that format's ImportError. */
export function registryHolds(doc: unknown): void {
  const format = detectFormat(doc);
  try {
    assert.equal(importDocument(doc)?.format, format);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    assert.equal(error.format, format?.id);
  }
  assertNoPollution("importDocument");
}

/** `export` never throws, declares well-formed warnings, and writes plain JSON. */
export function exportHolds([format, wf]: [Format, AgentWorkflow]): void {
  if (format.export === undefined) return;
  const { document, warnings } = format.export(wf);
  assertWarnings(warnings, `export:${format.id}`);
  assert.deepEqual(JSON.parse(JSON.stringify(document)), document);
  assertNoPollution(`export:${format.id}`);
}

const documentArb = fc.oneof(hostileJsonArb, mutatedFixtureArb);

/** The interop properties. */
export const INTEROP_PROPERTIES: readonly PropertyDef[] = [
  property(
    "every format: import any value",
    FILE,
    1_000,
    fc.tuple(formatArb, documentArb),
    importHolds,
  ),
  property("detectFormat, importDocument: agree", FILE, 1_000, documentArb, registryHolds),
  property(
    "every format: export any workflow",
    FILE,
    1_000,
    fc.tuple(formatArb, workflowArb),
    exportHolds,
  ),
];
