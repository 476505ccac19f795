import ajvDraft04 from "ajv-draft-04";
import formatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic, Severity } from "../../src/model/index.js";
import { sha256 } from "../../src/model/index.js";
import type { CheckedFile, RuleDescriptor } from "../../src/report/index.js";
import {
  DOCS_BASE_URL,
  formatSarif,
  ruleHelpUri,
  SARIF_SCHEMA_URI,
} from "../../src/report/index.js";
import { artifactLocationOf, FINGERPRINT_KEY } from "../../src/report/sarif.js";
import schema from "../fixtures/sarif/sarif-schema-2.1.0.json" with { type: "json" };

// The real formats, not lenient stubs: `uri` and `uri-reference` are exactly what hostile file
// names would break.
const ajv = new ajvDraft04.default({ strict: false, allErrors: true, logger: false });
formatsModule.default(ajv);
const validateSarif = ajv.compile(schema);

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  fullDescription?: { text: string };
  defaultConfiguration: { level: string };
}
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: object; region: object };
    logicalLocations: object[];
  }[];
  partialFingerprints: Record<string, string>;
  properties: object;
}
interface SarifRun {
  tool: { driver: { name: string; semanticVersion?: string; rules: SarifRule[] } };
  artifacts: { location: { uri: string }; hashes?: unknown; properties: object }[];
  results: SarifResult[];
}

/** Validates a log against the official schema and returns its one run. */
function expectValid(text: string): SarifRun {
  const log = JSON.parse(text) as { runs: SarifRun[] };
  expect(validateSarif(log), JSON.stringify(validateSarif.errors, null, 2)).toBe(true);
  expect(log).toMatchObject({ $schema: SARIF_SCHEMA_URI, version: "2.1.0" });
  const [run, ...more] = log.runs;
  if (run === undefined || more.length > 0) throw new Error("expected exactly one run");
  expect(run.tool.driver.name).toBe("agentflow");
  return run;
}

const WORKFLOW = { target: { kind: "workflow" }, path: "", data: {} } as const;
function diag(code: string, severity: Severity, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { code, severity, message: `${code} happened.`, ...WORKFLOW, ...extra };
}

const MANY: CheckedFile[] = [
  {
    file: "examples/loop.json",
    kind: "AgentWorkflow",
    id: "loop",
    version: "1.0.0",
    contentHash: "sha256:" + "ab".repeat(32),
    diagnostics: [
      diag("RETRY_WITHOUT_MAX", "error", {
        target: { kind: "node", nodeId: "check" },
        path: "/nodes/2/config",
        location: { line: 14, column: 7 },
        remediation: "Set maxRetries.",
        data: { nodeId: "check" },
      }),
      diag("NODE_UNREACHABLE", "warning", { path: "/nodes/5" }),
      diag("AUTONOMY_SELF_MODIFYING", "info", { location: { line: 3, column: 1 } }),
    ],
  },
  { file: "./clean.yaml", kind: "AgentWorkflow", id: "clean", version: "2.0.0", diagnostics: [] },
  {
    file: "broken\\win.json",
    kind: "unknown",
    diagnostics: [diag("STRUCTURE_INVALID", "error", { path: "/kind" })],
  },
];

const HOSTILE = "a\"b'c<d>&e\u0000\u0007\u001b[31m\r\n::error::x\u2028\uD800 %25 ${x} </x>";
// A Windows path, POSIX and UNC absolute paths, a scheme-like `c:`, a lone surrogate, the empty path.
const HOSTILE_FILES: CheckedFile[] = [
  "dir with space/x#y?z%.json|C:\\work\\a.json|/abs/é.json|//srv/share/b.json",
  "c:rel.json|weird\uDC00\u0001name.json|",
]
  .flatMap((line) => line.split("|"))
  .map((file) => ({
    file,
    kind: "unknown" as const,
    diagnostics: [
      diag("BAD CODE <x>", "warning", {
        message: HOSTILE,
        remediation: HOSTILE,
        path: "/a~1b/" + HOSTILE,
        data: { text: HOSTILE },
      }),
    ],
  }));

const RETRY: RuleDescriptor = {
  code: "RETRY_WITHOUT_MAX",
  description: "A retry has no bound. Set maxRetries on the route.",
  defaultSeverity: "warning",
  helpUri: ruleHelpUri("RETRY_WITHOUT_MAX"),
};

describe("formatSarif: schema validity", () => {
  const cases: readonly [string, CheckedFile[], Parameters<typeof formatSarif>[1]][] = [
    ["no files", [], {}],
    ["clean files", [{ file: "a.json", kind: "AgentWorkflow", diagnostics: [] }], {}],
    ["all severities, with and without locations", MANY, {}],
    ["described rules and a tool version", MANY, { rules: [RETRY], toolVersion: "0.1.0" }],
    ["hostile messages, paths, codes and file names", HOSTILE_FILES, {}],
    ["a custom docs base", MANY, { docsBaseUrl: "https://example.com/r/" }],
  ];
  it.each(cases)("%s", (_name, files, options) => {
    const run = expectValid(formatSarif(files, options));
    expect(run.results).toHaveLength(files.flatMap((f) => f.diagnostics).length);
  });

  it("stays valid for arbitrary strings anywhere", () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme-ascii" }));
    fc.assert(
      fc.property(text, text, text, text, (file, code, message, path) => {
        const files: CheckedFile[] = [
          { file, kind: "unknown", diagnostics: [diag(code, "error", { message, path })] },
        ];
        expectValid(formatSarif(files));
      }),
      { numRuns: 200 },
    );
  });
});

describe("formatSarif: results", () => {
  // MANY's last file is a Windows path, read as Windows reads it.
  const run = expectValid(formatSarif(MANY, { windowsPaths: true }));
  const results = run.results;

  // ruleId, level, uri (all relative to %SRCROOT%), startLine, startColumn
  const expected: readonly [string, string, string, number, number | undefined][] = [
    ["RETRY_WITHOUT_MAX", "error", "examples/loop.json", 14, 7],
    ["NODE_UNREACHABLE", "warning", "examples/loop.json", 1, undefined],
    ["AUTONOMY_SELF_MODIFYING", "note", "examples/loop.json", 3, 1],
    ["STRUCTURE_INVALID", "error", "broken/win.json", 1, undefined],
  ];
  it.each(expected.map((row, i) => [i, ...row] as const))(
    "result %i is %s at level %s in %s:%i:%s",
    (i, ruleId, level, uri, startLine, startColumn) => {
      const result = results[i];
      expect(result).toMatchObject({ ruleId, level });
      const physical = result?.locations[0]?.physicalLocation;
      expect(physical?.artifactLocation).toEqual({
        uri,
        uriBaseId: "%SRCROOT%",
        index: i < 3 ? 0 : 2,
      });
      expect(physical?.region).toEqual(
        startColumn === undefined ? { startLine } : { startLine, startColumn },
      );
      expect(run.tool.driver.rules[result?.ruleIndex ?? -1]?.id).toBe(ruleId);
    },
  );

  it("appends the remediation to the message and keeps target and data", () => {
    expect(results[0]?.message.text).toBe("RETRY_WITHOUT_MAX happened.\n\nSet maxRetries.");
    expect(results[1]?.message.text).toBe("NODE_UNREACHABLE happened.");
    expect(results[0]?.properties).toEqual({
      target: { kind: "node", nodeId: "check" },
      pointer: "/nodes/2/config",
      data: { nodeId: "check" },
    });
  });

  it("names the node, the document or (without an id) the JSON Pointer as the logical location", () => {
    const logical = results.map((r) => r.locations[0]?.logicalLocations[0]);
    expect(logical).toEqual([
      { name: "check", fullyQualifiedName: "check", kind: "object" },
      { name: "loop", fullyQualifiedName: "loop", kind: "module" },
      { name: "loop", fullyQualifiedName: "loop", kind: "module" },
      { name: "kind", fullyQualifiedName: "/kind", kind: "property" },
    ]);
  });

  it("names a BPMN element by its id and an edge by its ends", () => {
    const run = expectValid(
      formatSarif([
        {
          file: "p.bpmn",
          kind: "BpmnProcess",
          diagnostics: [
            diag("AGENT_GATE_UNREACHABLE", "error", {
              target: { kind: "bpmn-element", elementId: "DraftOffer" },
            }),
            diag("EDGE_X", "warning", {
              target: { kind: "edge", index: 0, from: "a", to: "b" },
              path: "/edges/0",
            }),
          ],
        },
      ]),
    );
    expect(run.results.map((r) => r.locations[0]?.logicalLocations[0])).toEqual([
      { name: "DraftOffer", fullyQualifiedName: "DraftOffer", kind: "element" },
      { name: "a->b", fullyQualifiedName: "a->b", kind: "object" },
    ]);
  });

  it("fingerprints code, file and pointer, not the line", () => {
    expect(results[0]?.partialFingerprints).toEqual({
      [FINGERPRINT_KEY]: sha256(
        JSON.stringify(["RETRY_WITHOUT_MAX", "examples/loop.json", "/nodes/2/config"]),
      ),
    });
    const moved = MANY.map((f) => ({
      ...f,
      diagnostics: f.diagnostics.map((d) => ({ ...d, location: { line: 99, column: 9 } })),
    }));
    const again = expectValid(formatSarif(moved, { windowsPaths: true })).results;
    expect(again.map((r) => r.partialFingerprints)).toEqual(
      results.map((r) => r.partialFingerprints),
    );
    expect(new Set(results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).size).toBe(4);
  });

  // Two unmapped tools of one Camunda agent are two findings of one code on one element: each its
  // own alert, the first with the fingerprint it always had, later ones by their occurrence.
  const agent = { kind: "bpmn-element" as const, elementId: "Agent" };
  const unmapped = (toolId: string): Diagnostic =>
    diag("CAMUNDA_TOOL_EFFECT_UNMAPPED", "warning", {
      target: agent,
      path: "/rootElements/0/flowElements/2",
      data: { elementId: "Agent", toolId },
    });
  const fingerprints = (files: readonly CheckedFile[]): (string | undefined)[] =>
    expectValid(formatSarif(files)).results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
  const key = (uri: string): string =>
    JSON.stringify(["CAMUNDA_TOOL_EFFECT_UNMAPPED", uri, "/rootElements/0/flowElements/2"]);
  const file = (name: string, ...tools: string[]): CheckedFile => ({
    file: name,
    kind: "BpmnProcess",
    diagnostics: tools.map(unmapped),
  });
  it.each<[string, readonly CheckedFile[], readonly string[]]>([
    ["one", [file("p.bpmn", "CheckFraud")], [sha256(key("p.bpmn"))]],
    [
      "two on one element",
      [file("p.bpmn", "CheckFraud", "LegacyCheck")],
      [sha256(key("p.bpmn")), sha256(JSON.stringify([key("p.bpmn"), 1]))],
    ],
    [
      "three on one element",
      [file("p.bpmn", "A", "B", "C")],
      [
        sha256(key("p.bpmn")),
        sha256(JSON.stringify([key("p.bpmn"), 1])),
        sha256(JSON.stringify([key("p.bpmn"), 2])),
      ],
    ],
    [
      "one in each of two files",
      [file("p.bpmn", "A"), file("q.bpmn", "A")],
      [sha256(key("p.bpmn")), sha256(key("q.bpmn"))],
    ],
    [
      "a file given twice: the same findings, the same alerts",
      [file("p.bpmn", "A", "B"), file("p.bpmn", "A", "B")],
      [
        sha256(key("p.bpmn")),
        sha256(JSON.stringify([key("p.bpmn"), 1])),
        sha256(key("p.bpmn")),
        sha256(JSON.stringify([key("p.bpmn"), 1])),
      ],
    ],
  ])("fingerprints repeated findings apart: %s", (_, files, expected) => {
    expect(fingerprints(files)).toEqual(expected);
    expect(fingerprints(files)).toEqual(expected); // the same for the same input
  });
});

describe("formatSarif: rules and artifacts", () => {
  it("describes every code that occurs and every rule given, sorted by code", () => {
    const given: RuleDescriptor = {
      code: "DUPLICATE_NODE_ID",
      description: "Two nodes share an id.",
      defaultSeverity: "error",
      helpUri: "https://example.com/dup",
    };
    const rules = expectValid(formatSarif(MANY, { rules: [given] })).tool.driver.rules;
    expect(rules.map((r) => r.id).join(" ")).toBe(
      "AUTONOMY_SELF_MODIFYING DUPLICATE_NODE_ID NODE_UNREACHABLE RETRY_WITHOUT_MAX STRUCTURE_INVALID",
    );
    expect(rules[1]).toMatchObject({ name: "DuplicateNodeId", helpUri: "https://example.com/dup" });
    expect(rules[4]).toMatchObject({
      name: "StructureInvalid",
      shortDescription: { text: "Structure invalid" },
      helpUri: "https://agentflow.dev/docs/rules/STRUCTURE_INVALID.md",
      defaultConfiguration: { level: "error" },
    });
    expect(rules[0]?.defaultConfiguration.level).toBe("note");
    const elsewhere = formatSarif(MANY, { docsBaseUrl: "https://x.test/r/" });
    expect(elsewhere).toContain('"helpUri": "https://x.test/r/NODE_UNREACHABLE.md"');
  });

  it("splits a long description into short and full", () => {
    const [described] = expectValid(formatSarif([], { rules: [RETRY] })).tool.driver.rules;
    expect(described?.shortDescription.text).toBe("A retry has no bound.");
    expect(described?.fullDescription?.text).toBe(RETRY.description);
    expect(described?.defaultConfiguration.level).toBe("warning");
  });

  it("records the tool version only when given", () => {
    expect(expectValid(formatSarif([])).tool.driver.semanticVersion).toBeUndefined();
    const driver = expectValid(formatSarif([], { toolVersion: "1.2.3" })).tool.driver;
    expect(driver.semanticVersion).toBe("1.2.3");
  });

  it("defines %SRCROOT%: by its URI with srcRoot, by a description without", () => {
    const rooted = JSON.parse(formatSarif(MANY, { srcRoot: "file:///work/repo" })) as {
      runs: { originalUriBaseIds: unknown }[];
    };
    expect(rooted.runs[0]?.originalUriBaseIds).toEqual({
      "%SRCROOT%": { uri: "file:///work/repo/" },
    });
    const bare = JSON.parse(formatSarif(MANY)) as { runs: { originalUriBaseIds: unknown }[] };
    expect(bare.runs[0]?.originalUriBaseIds).toEqual({
      "%SRCROOT%": { description: { text: "The folder agentflow was run in." } },
    });
    const none: unknown = JSON.parse(
      formatSarif([{ file: "/abs/a.json", kind: "unknown", diagnostics: [] }]),
    );
    expect(none).not.toHaveProperty(["runs", 0, "originalUriBaseIds"]);
  });

  it("records the category as automationDetails.id, ending with a slash", () => {
    const log = (category: string): unknown =>
      (JSON.parse(formatSarif([], { category })) as { runs: { automationDetails: unknown }[] })
        .runs[0]?.automationDetails;
    expect(log("agentflow")).toEqual({ id: "agentflow/" });
    expect(log("agentflow/processes/")).toEqual({ id: "agentflow/processes/" });
    expectValid(formatSarif(MANY, { category: "agentflow", srcRoot: "file:///w/" }));
  });

  it("lists each file once, with the content hash as a property, never as a file hash", () => {
    const twice = [...MANY, ...MANY.slice(0, 1)];
    const artifacts = expectValid(formatSarif(twice, { windowsPaths: true })).artifacts;
    const uris = artifacts.map((a) => a.location.uri);
    expect(uris).toEqual(["examples/loop.json", "clean.yaml", "broken/win.json"]);
    expect(artifacts[0]?.hashes).toBeUndefined();
    expect(artifacts[0]?.properties).toEqual({
      kind: "AgentWorkflow",
      id: "loop",
      version: "1.0.0",
      contentHash: "sha256:" + "ab".repeat(32),
    });
  });

  it("gives identical bytes across runs and rule orders", () => {
    const rules: RuleDescriptor[] = ["B_RULE", "A_RULE"].map((code) => ({
      code,
      description: code,
      defaultSeverity: "info",
      helpUri: ruleHelpUri(code),
    }));
    const first = formatSarif(MANY, { rules });
    expect(formatSarif(MANY, { rules })).toBe(first);
    expect(formatSarif(MANY, { rules: [...rules].reverse() })).toBe(first);
    expect(first).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(first).not.toContain(process.cwd());
    expect(first.endsWith("}\n")).toBe(true);
  });
});

describe("artifactLocationOf", () => {
  const table: readonly [string, string, string | undefined][] = [
    ["examples/a.json", "examples/a.json", "%SRCROOT%"],
    ["./a.json", "a.json", "%SRCROOT%"],
    ["../up/a.json", "../up/a.json", undefined],
    ["with space#1%.json", "with%20space%231%25.json", "%SRCROOT%"],
    ["c:rel.json", "c%3Arel.json", "%SRCROOT%"],
    ["/abs/a.json", "file:///abs/a.json", undefined],
    ["C:\\x\\a.json", "file:///C:/x/a.json", undefined],
    ["//host/share/a.json", "file://host/share/a.json", undefined],
    ["é/\uD800.json", "%C3%A9/%EF%BF%BD.json", "%SRCROOT%"],
  ];
  it.each(table)("%j → %s", (file, uri, uriBaseId) => {
    for (const windows of [false, true]) {
      const location = artifactLocationOf(file, undefined, windows);
      expect(location.uri).toBe(uri);
      expect(location.uriBaseId).toBe(uriBaseId);
    }
  });

  // On Windows a backslash separates folders; elsewhere it is a character of the file's name.
  const backslashes: readonly [string, boolean, string, string | undefined][] = [
    ["dir\\sub\\a.json", true, "dir/sub/a.json", "%SRCROOT%"],
    ["dir\\sub\\a.json", false, "dir%5Csub%5Ca.json", "%SRCROOT%"],
    ["back\\slash.bpmn", false, "back%5Cslash.bpmn", "%SRCROOT%"],
    ["/abs/back\\slash.bpmn", false, "file:///abs/back%5Cslash.bpmn", undefined],
    ["\\\\host\\share\\a.json", true, "file://host/share/a.json", undefined],
    ["..\\up\\a.json", true, "../up/a.json", undefined],
    ["..\\up.json", false, "..%5Cup.json", "%SRCROOT%"],
  ];
  it.each(backslashes)("%j (windows: %s) → %s", (file, windows, uri, uriBaseId) => {
    const location = artifactLocationOf(file, undefined, windows);
    expect(location.uri).toBe(uri);
    expect(location.uriBaseId).toBe(uriBaseId);
  });

  it("keeps a POSIX file name's backslash in the log, and the log valid", () => {
    const log = (windowsPaths: boolean) =>
      expectValid(
        formatSarif([{ file: "back\\slash.bpmn", kind: "BpmnProcess", diagnostics: [] }], {
          windowsPaths,
        }),
      ).artifacts.map((a) => a.location.uri);
    expect(log(false)).toEqual(["back%5Cslash.bpmn"]);
    expect(log(true)).toEqual(["back/slash.bpmn"]);
  });

  const rooted: readonly [string, string, string | undefined][] = [
    ["examples/a.json", "examples/a.json", "%SRCROOT%"],
    ["./a b.json", "a%20b.json", "%SRCROOT%"],
    ["/work/repo/x/a.json", "x/a.json", "%SRCROOT%"],
    ["../up/a.json", "file:///work/up/a.json", undefined],
    ["/elsewhere/a.json", "file:///elsewhere/a.json", undefined],
  ];
  it.each(rooted)("with srcRoot file:///work/repo/, %j → %s", (file, uri, uriBaseId) => {
    const location = artifactLocationOf(file, "file:///work/repo/");
    expect(location.uri).toBe(uri);
    expect(location.uriBaseId).toBe(uriBaseId);
  });

  it("uses the default docs base", () => {
    expect(ruleHelpUri("X")).toBe(`${DOCS_BASE_URL}X.md`);
    expect(ruleHelpUri("A B", "https://d/")).toBe("https://d/A%20B.md");
  });
});
