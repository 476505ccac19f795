/**
 * What the hand-written parts of `src/model/canonical/` are kept for, measured against the
 * libraries that would replace them. SHA-256: `node:crypto` (the path under Node) against
 * `@noble/hashes` (the path in browsers) on canonical documents of 1 KB, 1 MB and 15 MB. Canonical
 * JSON on the same documents and on the hostile ones of the adversarial corpus: `canonicalJson`
 * (the native writer over a sorted view), its iterative fallback writer (forced by nesting the
 * document 300 arrays deep) and the `canonicalize` package; one row has a key the native view
 * refuses (integer-like) in one node; then deep nesting, where
 * `canonicalize` overflows the stack. Each row is the median of its samples, measured within one
 * run. `node --import tsx bench/canonical.ts` prints the tables; `benchCanonical()` returns them.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import canonicalize from "canonicalize";
import { canonicalJson } from "../src/model/canonical/json.js";
import { sha256Portable } from "../src/model/canonical/sha256.js";
import { generateWorkflow } from "./generate.js";

/** One task on one input: the median time of each contender, `null` where it fails. */
export interface CanonicalBenchRow {
  readonly task: string;
  readonly input: string;
  readonly bytes: number;
  /** Contender → median milliseconds, or the error it throws. */
  readonly ms: Readonly<Record<string, number | string>>;
}

const round = (ms: number): number => Math.round(ms * 1_000) / 1_000;

/** The median of runs taking at least `minMs` together (and at least five), after two warm-ups. */
function median(run: () => unknown, minMs: number): number | string {
  try {
    run();
    run();
  } catch (error) {
    return error instanceof Error ? error.name : "error";
  }
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 5 || performance.now() - start < minMs) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return round(times[times.length >> 1] ?? NaN);
}

/** A generated workflow of about `bytes` of canonical text. */
function sized(bytes: number): unknown {
  return generateWorkflow(Math.max(1, Math.round(bytes / 154)), "loops");
}

function wrapped(value: unknown, depth: number): unknown {
  let out = value;
  for (let i = 0; i < depth; i += 1) out = [out];
  return out;
}

function nested(depth: number): unknown {
  let out: unknown = 0;
  for (let i = 0; i < depth; i += 1) out = i % 2 === 0 ? { d: out } : [out];
  return out;
}

const DOCUMENTS: readonly (readonly [string, () => unknown])[] = [
  ["workflow, 1 KB", () => sized(1_000)],
  ["workflow, 1 MB", () => sized(1_000_000)],
  ["workflow, 15 MB", () => sized(15_000_000)],
  [
    "workflow, 15 MB, a status-code map in one node",
    () => {
      const workflow = generateWorkflow(97_000, "loops");
      const nodes: unknown[] = [...workflow.nodes];
      nodes[0] = { ...workflow.nodes[0], codes: { "200": "ok", "404": "missing" } };
      return { ...workflow, nodes };
    },
  ],
  ["a 100,000-node chain", () => generateWorkflow(100_000, "chain")],
  [
    "adversarial array-1e5-chain-and-keys",
    () => ({
      ...generateWorkflow(100_000, "chain"),
      metadata: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${String(i)}`, i])),
    }),
  ],
];

/** Every row: SHA-256 and canonical JSON on the documents, then deep nesting. */
export function benchCanonical(): CanonicalBenchRow[] {
  const rows: CanonicalBenchRow[] = [];
  for (const [input, make] of DOCUMENTS) {
    const value = make();
    const text = canonicalJson(value);
    if (text !== canonicalize(value)) throw new Error(`${input}: the writers disagree`);
    const minMs = text.length > 5_000_000 ? 3_000 : 1_000;
    if (input.startsWith("workflow")) {
      rows.push({
        task: "sha256",
        input,
        bytes: text.length,
        ms: {
          "node:crypto": median(
            () => createHash("sha256").update(text, "utf8").digest("hex"),
            minMs,
          ),
          "@noble/hashes": median(() => sha256Portable(text), minMs),
        },
      });
    }
    const deep = wrapped(value, 300);
    rows.push({
      task: "canonical JSON",
      input,
      bytes: text.length,
      ms: {
        canonicalJson: median(() => canonicalJson(value), minMs),
        "fallback writer": median(() => canonicalJson(deep), minMs),
        canonicalize: median(() => canonicalize(value), minMs),
      },
    });
  }
  for (const depth of [1_000, 10_000, 100_000]) {
    const value = nested(depth);
    rows.push({
      task: "canonical JSON",
      input: `nesting, ${depth.toLocaleString("en")} levels`,
      bytes: canonicalJson(value).length,
      ms: {
        canonicalJson: median(() => canonicalJson(value), 500),
        canonicalize: median(() => canonicalize(value), 500),
      },
    });
  }
  return rows;
}

/** The rows as a table: one column per contender. */
export function canonicalTable(rows: readonly CanonicalBenchRow[]): Record<string, unknown>[] {
  return rows.map((row) => ({
    task: row.task,
    input: row.input,
    bytes: row.bytes,
    ...row.ms,
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(canonicalTable(benchCanonical()));
}
