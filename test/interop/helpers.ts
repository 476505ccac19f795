/** Shared test helpers for the interop tests: fixtures and writable views of subset documents. */
import { readFileSync } from "node:fs";
import type { InteropWarning } from "../../src/interop/index.js";
import { parseWorkflowText } from "../../src/model/index.js";

const FIXTURES = new URL("../fixtures/", import.meta.url);

/**
 * Reads and decodes a JSON or YAML fixture, by path under `test/fixtures/`, with the same reader
 * the CLI uses before it asks the importers.
 */
export function readFixture(path: string): unknown {
  const text = readFileSync(new URL(path, FIXTURES), "utf8");
  const read = parseWorkflowText(text, { format: /\.ya?ml$/.test(path) ? "yaml" : "json" });
  if (read.value === undefined) throw new Error(`${path} does not decode`);
  return read.value;
}

/** A loose object, for mutations in tests. */
export type Obj = Record<string, unknown>;

/** Writable view of the LangGraph subset fixture. */
export interface Doc extends Obj {
  nodes: [Obj & { data: Obj }, Obj & { data: Obj & { onTrue: Obj } }];
  edges: [Obj & { data?: unknown }];
}

/** The seed's LangGraph subset fixture, freshly decoded. */
export const SUBSET_FIXTURE = "agentflow/langgraph-subset-import-fixture.json";

/** A fresh copy of the subset fixture. */
export function fixture(): Doc {
  return readFixture(SUBSET_FIXTURE) as Doc;
}

/** A fresh copy of the subset fixture, edited. */
export function mutate(edit: (doc: Doc) => void): Doc {
  const doc = fixture();
  edit(doc);
  return doc;
}

/** Warnings as `[code, path]` pairs, what the tables compare. */
export function codes(warnings: readonly InteropWarning[]): [string, string][] {
  return warnings.map((w) => [w.code, w.path]);
}
