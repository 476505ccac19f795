/**
 * Crafted cases that are JavaScript values rather than files: numbers JSON cannot hold, cycles,
 * own `__proto__` keys, frozen and prototype-less objects, hostile simulation options, FEEL and
 * refs at the length limits, and every interop fixture rewritten by each hostile mutation.
 */
import { readFileSync } from "node:fs";
import { parseWorkflowText } from "../../src/model/index.js";
import type { AdversarialCase } from "./build.js";
import { nested, template, value, withCondition, withToolConfig } from "./build.js";

const POLLUTE = (): unknown => JSON.parse('{"polluted":"yes"}');
const PROTO_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** Visits every object and array of `root` once, iteratively (no recursion on deep input). */
function eachObject(root: unknown, visit: (o: Record<string, unknown>) => void): void {
  const seen = new Set<unknown>();
  const pending = [root];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!isObject(next) || seen.has(next)) continue;
    seen.add(next);
    for (const child of Object.values(next)) pending.push(child);
    visit(next);
  }
}

function define(o: object, key: string, v: unknown): void {
  Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Adds own `__proto__` and `constructor.prototype` keys carrying `polluted` to every object. */
function protoEverywhere(doc: unknown): unknown {
  const objects: Record<string, unknown>[] = [];
  eachObject(doc, (o) => {
    if (!Array.isArray(o)) objects.push(o);
  });
  for (const o of objects) {
    define(o, "__proto__", POLLUTE());
    define(o, "constructor", { prototype: POLLUTE() });
  }
  return doc;
}

/** Renames the first ids (values of `id`/`name`, keys of a `nodes` map) to prototype members. */
function protoIds(doc: unknown): unknown {
  const ids = new Map<string, string>();
  eachObject(doc, (o) => {
    for (const key of ["id", "name", "source", "target", "start", "entrypoint"]) {
      const v = o[key];
      if (typeof v === "string" && !ids.has(v) && ids.size < PROTO_NAMES.length) {
        ids.set(v, PROTO_NAMES[ids.size] ?? "constructor");
      }
    }
  });
  const rename = (s: string): string => ids.get(s) ?? s;
  const copy = (v: unknown): unknown => {
    if (typeof v === "string") return rename(v);
    if (Array.isArray(v)) return v.map(copy);
    if (!isObject(v)) return v;
    const out = {};
    for (const [k, child] of Object.entries(v)) define(out, rename(k), copy(child));
    return out;
  };
  return copy(doc);
}

/** Every array of objects twice over: duplicate ids, nodes, edges and states everywhere. */
function duplicateArrays(doc: unknown): unknown {
  eachObject(doc, (o) => {
    for (const [k, v] of Object.entries(o)) {
      if (!Array.isArray(v)) continue;
      const list: readonly unknown[] = v;
      if (list.some(isObject)) o[k] = [...list, ...structuredClone(list)];
    }
  });
  return doc;
}

/** Every number replaced by NaN, Infinity or -Infinity in turn. */
function numbersNotFinite(doc: unknown): unknown {
  const odd = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  let i = 0;
  eachObject(doc, (o) => {
    for (const [k, v] of Object.entries(o)) if (typeof v === "number") o[k] = odd[i++ % 3];
  });
  return doc;
}

/** Every object gains a key holding one shared 10,000-deep chain. */
function deepEverywhere(doc: unknown): unknown {
  const deep = nested(10_000, 1, (x) => ({ x }));
  const objects: Record<string, unknown>[] = [];
  eachObject(doc, (o) => {
    if (!Array.isArray(o)) objects.push(o);
  });
  for (const o of objects) o.deep = deep;
  return doc;
}

/** Every string 100,000 characters longer (separators kept, so ids stay distinct). */
function longStrings(doc: unknown): unknown {
  const pad = "a".repeat(100_000);
  eachObject(doc, (o) => {
    for (const [k, v] of Object.entries(o)) if (typeof v === "string") o[k] = `${v}${pad}`;
  });
  return doc;
}

const FIXTURES: Readonly<Record<string, string>> = {
  "langgraph-subset": "agentflow/langgraph-subset-import-fixture.json",
  "langgraph-graph": "langgraph-graph/py-to_json-conditional-entrypoint.json",
  "langgraph-gen": "langgraph-gen/langgraph-gen-agentic_rag.spec.yml",
  openagentflow: "openagentflow/conditional_routing_ir.generated.json",
  agentos: "agentos/research-graph-routed.compiled-execution-graph.derived.json",
  agent2model: "agent2model/zoom_support.flowchart.yaml",
};

const MUTATIONS: Readonly<Record<string, (doc: unknown) => unknown>> = {
  "proto-keys": protoEverywhere,
  "proto-ids": protoIds,
  "duplicate-arrays": duplicateArrays,
  "numbers-not-finite": numbersNotFinite,
  "deep-10k-everywhere": deepEverywhere,
  "strings-1e5-longer": longStrings,
};

/** A decoded interop fixture, read as the CLI reads it. */
export function readFixture(path: string): unknown {
  const text = readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
  const read = parseWorkflowText(text, { format: /\.ya?ml$/.test(path) ? "yaml" : "json" });
  if (read.value === undefined) throw new Error(`${path} does not decode`);
  return read.value;
}

const IMPORTERS: AdversarialCase[] = Object.entries(FIXTURES).flatMap(([format, path]) =>
  Object.entries(MUTATIONS).map(([mutation, f]) =>
    value(`importer-${format}-${mutation}`, () => f(readFixture(path))),
  ),
);

function withDeepCondition(): unknown {
  const doc = readFixture(FIXTURES.openagentflow ?? "") as {
    graph: { edges: { condition: unknown }[] };
  };
  const first = doc.graph.edges[0];
  const literal = { type: "LiteralExpr", value: true };
  if (first !== undefined) {
    first.condition = nested(10_000, literal, (left) => ({
      type: "LogicalExpr",
      operator: "and",
      left,
      right: literal,
    }));
  }
  return doc;
}

function frozen<T>(v: T): T {
  eachObject(v, (o) => Object.freeze(o));
  return v;
}

function nullPrototype(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(nullPrototype);
  if (!isObject(v)) return v;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, child] of Object.entries(v)) out[k] = nullPrototype(child);
  return out;
}

const research = (): Record<string, unknown> => template();
const json = (text: string) => (): unknown => JSON.parse(text);

const VALUES: AdversarialCase[] = [
  value("importer-openagentflow-deep-10k-condition", withDeepCondition),
  value("value-not-finite-numbers", () => ({
    ...research(),
    autonomyLevel: Number.NaN,
    budget: { maxSteps: Number.POSITIVE_INFINITY, maxCostUSD: Number.NEGATIVE_INFINITY },
  })),
  value("value-not-finite-in-free-fields", () => ({
    ...withToolConfig({
      usesTool: "tool:browser-search@1.2.0",
      params: { n: Number.NaN, i: Number.POSITIVE_INFINITY, z: -0 },
    }),
    inputSchema: { q: { type: "number", maximum: Number.POSITIVE_INFINITY, multipleOf: 0 } },
    metadata: { nan: Number.NaN, inf: Number.NEGATIVE_INFINITY, zero: -0 },
  })),
  value("value-cyclic-metadata", () => {
    const metadata: Record<string, unknown> = {};
    metadata.self = metadata;
    return { ...research(), metadata };
  }),
  value("value-bigint-and-objects", () => ({
    ...research(),
    metadata: { big: 10n ** 30n, when: new Date(0), map: new Map([["a", 1]]), re: /(a+)+$/ },
  })),
  value("value-own-proto-keys", () => protoEverywhere(research())),
  value("value-null-prototype", () => nullPrototype(research())),
  value("value-frozen", () => frozen(research())),
  value("value-sparse-and-undefined", () => {
    const wf = research();
    const nodes = [...(wf.nodes as unknown[])];
    nodes[5] = undefined;
    return { ...wf, description: undefined, nodes, edges: new Array(3) };
  }),
  value("feel-at-length-limit", () => withCondition(`output.${"a".repeat(9_993)}`)),
  value("feel-long-string-literal", () => withCondition(`output.a = "${'\\"'.repeat(4_990)}"`)),
  value("feel-many-operators", () => withCondition(`${"output.a + ".repeat(900)}1 > 0`)),
  value("feel-long-path", () => withCondition(`output${".a".repeat(4_990)} = 1`)),
  value("feel-dots-and-digits", () => withCondition(`${"1.".repeat(4_990)} > .${".".repeat(9)}`)),
  value("refs-backtracking-10k", () => {
    const wf = withToolConfig({ usesTool: `tool:${"a-".repeat(5_000)}@${"1.".repeat(5_000)}` });
    const edges = [
      { from: "llm-1", to: `agnt-x@${"1.0.0".repeat(2_000)}`, edgeType: "delegate" },
      { from: "llm-1", to: `agnt-${"a".repeat(10_000)}!`, edgeType: "delegate" },
      {
        from: "llm-1",
        to: `a${"-".repeat(10_000)}@1.0.0-${"0a.".repeat(3_000)}+!`,
        edgeType: "delegate",
      },
    ];
    return { ...wf, version: `1.0.0-${"0a.".repeat(3_000)}+${"b.".repeat(3_000)}!`, edges };
  }),
];

/** Hostile options for `simulate` and `explore`, each with the research template. */
const option = (name: string, options: () => unknown): AdversarialCase =>
  value(name, research, { asText: false, options });

const OPTIONS: AdversarialCase[] = [
  option(
    "options-proto-fixtures",
    json(
      '{"fixtures":{"__proto__":{"outputs":[{"polluted":"yes"}]},"constructor":{"outputs":[]},"llm-1":{"outputs":[{"__proto__":{"polluted":"yes"},"is_complete":true}]}}}',
    ),
  ),
  option(
    "options-proto-decide",
    json('{"decide":{"__proto__":["onTrue"],"dec-3":["__proto__","constructor","onFalse"]}}'),
  ),
  option("options-proto-input", json('{"input":{"__proto__":{"polluted":"yes"},"query":"q"}}')),
  option("options-not-finite", () => ({
    maxSteps: Number.NaN,
    budget: {
      maxSteps: Number.POSITIVE_INFINITY,
      maxTokens: Number.NaN,
      maxCostUSD: Number.NEGATIVE_INFINITY,
    },
  })),
  option("options-huge-max-steps", () => ({ maxSteps: 1e308 })),
  option("options-wrong-types", () => ({ fixtures: "x", decide: 5, input: [], costModel: "y" })),
  option("options-deep-10k-fixture-output", () => ({
    fixtures: { "llm-1": { outputs: [nested(10_000, true, (d) => ({ is_complete: d }))] } },
  })),
  option("options-1e5-fixture-outputs", () => ({
    fixtures: {
      "llm-1": {
        outputs: Array.from({ length: 100_000 }, () => ({ is_complete: false })),
        fails: 1e9,
      },
    },
  })),
  option("options-1e6-input", () => ({ input: { query: "q".repeat(1_000_000) } })),
];

/** Every crafted value case. */
export const CRAFTED: readonly AdversarialCase[] = [...IMPORTERS, ...VALUES, ...OPTIONS];
