/**
 * The CLI as a careless or hostile user drives it (issue 17): random commands, options and
 * values, over files that are examples, broken copies of them, random text, folders, links,
 * loops and FIFOs. Whatever the argv, `main` ends with exit 0, 1 or 2 — never 3 — and nothing
 * it prints holds a stack trace or says "internal error"; an exit 2 says why on stderr. Every
 * path it could write is inside the case's own folder, removed after the case.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { tempDir } from "../temp.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty } from "./settings.js";

const FILE = "test/properties/cli.property.test.ts";

/** Documents written elsewhere and here: the material the mutations start from. */
const SOURCES = [
  "examples/workflows/market-research.agent.json",
  "examples/workflows/contract-review.agent.yaml",
  "examples/workflows/refund-autopilot.broken.agent.json",
  "examples/processes/loan-origination.bpmn",
  "examples/registry/send-loan-offer.tool.json",
  "examples/fixtures/market-research.fixtures.json",
  "examples/fixtures/contract-review.fixtures.yaml",
  "test/fixtures/langgraph-graph/py-to_json-human-agent-loop.json",
  "test/fixtures/openagentflow/conditional_routing_ir.generated.json",
  "test/fixtures/agentos/summarize-article.docs-workflow.yaml",
].map((path) => readFileSync(path, "utf8"));

/** Pieces that break parsers and reports when spliced into a document. */
const SPLICES = [
  "[[[[[[",
  "{",
  "}",
  '"',
  "\u0000",
  "\u202E",
  "\n## x\n",
  "```",
  "<script>",
  "&#x0;",
  "]]>",
  "- - - - -",
  '"__proto__": {',
  "\ud800",
  "\uFEFF",
  "\t",
];

const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SOURCES),
  fc
    .tuple(fc.constantFrom(...SOURCES), fc.nat(), fc.nat(), fc.constantFrom(...SPLICES, ""))
    .map(([text, a, b, piece]) => {
      const i = a % (text.length + 1);
      const j = Math.min(text.length, i + (b % 40));
      return text.slice(0, i) + piece + text.slice(j);
    }),
  fc.constantFrom(...SOURCES).chain((text) => fc.nat(text.length).map((n) => text.slice(0, n))),
  fc.json(),
  fc.string({ maxLength: 60 }),
  fc.constant(""),
);

/** Text spliced from one source (`index` into SOURCES), or random. */
function mutated(index: number): fc.Arbitrary<string> {
  const source = SOURCES[index] ?? "";
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(source) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.nat(source.length), fc.nat(40), fc.constantFrom(...SPLICES, ""))
        .map(([i, n, piece]) => source.slice(0, i) + piece + source.slice(i + n)),
    },
    { weight: 2, arbitrary: textArb },
  );
}

/** What one path of the case's folder is. */
type Entry =
  | { readonly kind: "file"; readonly text: string }
  | { readonly kind: "folder"; readonly texts: readonly string[] }
  | { readonly kind: "fifo" | "loop" | "broken-link" };

const file = (text: fc.Arbitrary<string>): fc.Arbitrary<Entry> =>
  text.map((t) => ({ kind: "file" as const, text: t }));

/**
 * The case's folder: a workflow in JSON and in YAML, a process, fixtures, a registry folder of
 * a few documents, and one odd path (a FIFO, a loop, a broken link, or a plain file).
 */
const entriesArb: fc.Arbitrary<readonly (readonly [string, Entry])[]> = fc
  .tuple(
    file(fc.oneof(mutated(0), mutated(2), mutated(7), mutated(8))),
    file(fc.oneof(mutated(1), mutated(9))),
    file(mutated(3)),
    file(fc.oneof(mutated(5), mutated(6))),
    fc
      .array(fc.oneof(mutated(4), mutated(0), mutated(2)), { maxLength: 3 })
      .map((texts) => ({ kind: "folder" as const, texts })),
    fc.oneof(
      fc
        .constantFrom("fifo" as const, "loop" as const, "broken-link" as const)
        .map((kind) => ({ kind })),
      file(textArb),
    ),
  )
  .map(([a, b, p, f, reg, odd]) => [
    ["a.json", a],
    ["b.yaml", b],
    ["p.bpmn", p],
    ["f.fixtures.json", f],
    ["reg", reg],
    ["odd.json", odd],
  ]);

const FILES = ["@a.json", "@b.yaml", "@p.bpmn", "@f.fixtures.json", "@reg", "@odd.json"];
const fileArb = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...FILES) },
  { weight: 1, arbitrary: fc.constantFrom("@missing.json", "examples", "examples/registry") },
);

const COMMANDS = ["check", "gate", "simulate", "convert", "report", "templates"];
const OPTIONS = [
  "--format",
  "-f",
  "--registry",
  "-r",
  "--preset",
  "-p",
  "--max-warnings",
  "--camunda-agents",
  "-o",
  "--output",
  "--fixtures",
  "--decide",
  "--explore",
  "--max-steps",
  "--to",
  "-t",
  "--force",
  "--help",
  "--version",
  "--bogus",
];
const VALUES = [
  "text",
  "json",
  "sarif",
  "junit",
  "github",
  "html",
  "recommended",
  "strict",
  "all",
  "-1",
  "0",
  "3",
  "1e9",
  "NaN",
  "agentflow",
  "mermaid",
  "langgraph",
  "langgraph-graph",
  "langgraph-gen",
  "oaf",
  "agent2model",
  "agentos",
  "gate-optional",
  "ignore",
  "constructor=onTrue",
  "__proto__=x",
  "dec-3=onFalse,onTrue",
  "confident-enough=onFalse,onFalse,onTrue",
  "=",
  "",
  "examples/registry",
  "examples",
  "research",
  "approval-gate",
];

const randomWord = fc
  .string({ maxLength: 12 })
  .filter((s) => !s.startsWith("-") && !s.includes("="));

/** A token of argv: a word, or `@name`, a path in the case's folder. */
const tokenArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...OPTIONS) },
  { weight: 4, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 5, arbitrary: fileArb },
  { weight: 1, arbitrary: fc.constant("@missing/out.md") },
  { weight: 1, arbitrary: randomWord },
);

/** An option and a value for it: mostly a meaningful one, sometimes any word. */
const pair = (flag: string, values: readonly string[]): fc.Arbitrary<string[]> =>
  fc
    .oneof(
      { weight: 5, arbitrary: fc.constantFrom(...values) },
      { weight: 1, arbitrary: randomWord },
    )
    .map((v) => [flag, v]);
const flag = (name: string): fc.Arbitrary<string[]> => fc.constant([name]);

const FORMATS = ["text", "json", "sarif", "junit", "github", "html"];
const REGISTRIES = ["@reg", "examples/registry", "@a.json", "@missing", "@odd.json"];
const OUTPUTS = ["@r.md", "@r.html", "@missing/out.md", "@a.json", "@reg", "@r.txt", "@odd.json"];

/** Options each command knows, with values worth trying. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly fc.Arbitrary<string[]>[]>> = {
  check: [
    pair("--format", FORMATS),
    pair("--preset", ["recommended", "strict", "all", "none"]),
    pair("--registry", REGISTRIES),
    pair("--max-warnings", ["0", "1", "-1", "1.5", "x"]),
  ],
  gate: [
    pair("--format", FORMATS),
    pair("--registry", REGISTRIES),
    pair("--camunda-agents", ["gate-required", "gate-optional", "ignore", "never"]),
  ],
  simulate: [
    pair("--format", ["text", "json", "sarif"]),
    pair("--fixtures", ["@f.fixtures.json", "@a.json", "@odd.json", "@missing.json", "@reg"]),
    pair("--decide", [
      "constructor=onTrue",
      "__proto__=onFalse",
      "confident-enough=onFalse,onTrue",
      "dec-validate=onTrue",
      "x=",
      "=onTrue",
      "a=b=c",
    ]),
    flag("--explore"),
    pair("--max-steps", ["1", "0", "-3", "1e9", "2.5", "x"]),
  ],
  convert: [pair("-o", OUTPUTS), flag("--force")],
  report: [pair("--registry", REGISTRIES), pair("--fixtures", ["@f.fixtures.json", "@odd.json"])],
  templates: [],
};

const TARGETS = [
  "agentflow",
  "mermaid",
  "langgraph",
  "oaf",
  "agent2model",
  "agentos",
  "langgraph-gen",
  "x",
];

/** A command line shaped like a real one: the command, its arguments, some of its options. */
const shapedArgvArb: fc.Arbitrary<string[]> = fc.constantFrom(...COMMANDS).chain((command) => {
  const options = fc
    .subarray([...(COMMAND_OPTIONS[command] ?? [])])
    .chain((chosen) =>
      chosen.length === 0 ? fc.constant<string[][]>([]) : fc.tuple(...chosen).map((p) => [...p]),
    )
    .map((pairs) => pairs.flat());
  const args: fc.Arbitrary<string[]> =
    command === "check"
      ? fc.array(fileArb, { minLength: 1, maxLength: 3 })
      : command === "templates"
        ? fc.oneof(
            fc.constant<string[]>([]),
            fc.constantFrom("research", "approval-gate", "nope").map((t) => [t]),
          )
        : command === "convert"
          ? fc.tuple(fileArb, fc.constantFrom(...TARGETS)).map(([f, t]) => [f, "--to", t])
          : command === "report"
            ? fc.tuple(fileArb, fc.constantFrom(...OUTPUTS)).map(([f, o]) => [f, "-o", o])
            : fileArb.map((f) => [f]);
  return fc.tuple(args, options).map(([a, o]) => [command, ...a, ...o]);
});

/** One case: the folder's entries by name, and the argv. */
export interface CliCase {
  readonly entries: readonly (readonly [string, Entry])[];
  readonly argv: readonly string[];
}

/** Cases: mostly command lines shaped like real ones, some of random tokens. */
export const cliCaseArb: fc.Arbitrary<CliCase> = fc.record({
  entries: entriesArb,
  argv: fc.oneof(
    { weight: 4, arbitrary: shapedArgvArb },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...COMMANDS, "chek", ""), fc.array(tokenArb, { maxLength: 7 }))
        .map(([command, rest]) => [command, ...rest]),
    },
  ),
});

function write(dir: string, name: string, entry: Entry): void {
  const path = join(dir, name);
  switch (entry.kind) {
    case "file":
      writeFileSync(path, entry.text);
      return;
    case "folder":
      mkdirSync(path);
      entry.texts.forEach((text, i) => {
        writeFileSync(join(path, `doc-${String(i)}.json`), text);
      });
      return;
    case "fifo":
      spawnSync("mkfifo", [path]);
      return;
    case "loop":
      symlinkSync(dir, path, "dir");
      return;
    case "broken-link":
      symlinkSync(join(dir, "nowhere.json"), path);
  }
}

/**
 * The argv with `@name` made a path in `dir`, and what follows `-o` / `--output` kept there too:
 * no case may write outside its folder, whatever word it drew.
 */
export function resolveArgv(argv: readonly string[], dir: string): string[] {
  const out = argv.map((t) => (t.startsWith("@") ? join(dir, t.slice(1)) : t));
  for (let i = 0; i < out.length - 1; i++) {
    const value = out[i + 1] ?? "";
    if ((out[i] === "-o" || out[i] === "--output") && !value.startsWith(dir)) {
      out[i + 1] = join(dir, `out-${value.replace(/[^A-Za-z0-9.]/g, "_")}`);
    }
  }
  return out;
}

/** A stack trace line as V8 writes one. */
const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/** The most a case may take before it counts as a hang. */
const HANG_MS = 60_000;

let root: string | undefined;
let cases = 0;

/** Runs one case and checks the exit code and the output. */
export async function cliHolds(c: CliCase): Promise<void> {
  root ??= tempDir("agentflow-cli-fuzz-");
  const dir = join(root, `case-${String(cases++)}`);
  mkdirSync(dir);
  try {
    for (const [name, entry] of c.entries) write(dir, name, entry);
    const argv = resolveArgv(c.argv, dir);
    let stdout = "";
    let stderr = "";
    const io: CliIo = {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      isTTY: false,
    };
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no exit after ${String(HANG_MS)} ms: ${JSON.stringify(argv)}`));
      }, HANG_MS);
    });
    const code = await Promise.race([main(argv, io), hang]).finally(() => {
      clearTimeout(timer);
    });
    const said = `argv ${JSON.stringify(argv)}\nstderr ${stderr.slice(0, 2000)}`;
    assert.ok(code === 0 || code === 1 || code === 2, `exit ${String(code)}\n${said}`);
    assert.doesNotMatch(stdout, STACK_LINE, said);
    assert.doesNotMatch(stderr, STACK_LINE, said);
    assert.ok(!stderr.includes("internal error"), said);
    if (code === 2) assert.notEqual(stderr.trim(), "", `exit 2 without a word\n${said}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The CLI property. */
export const CLI_PROPERTIES: readonly PropertyDef[] = [
  asyncProperty("main(argv): exit 0, 1 or 2, no stack trace", FILE, 100, cliCaseArb, cliHolds),
];
