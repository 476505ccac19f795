/**
 * The `sarif` format: SARIF 2.1.0, the static-analysis log GitHub code scanning (and Azure DevOps,
 * GitLab, VS Code's SARIF viewer) ingest. One run, every code described with a link to its rule
 * page, and every result placed on a line so that code scanning can annotate it.
 */
import { pointerTokens, sha256 } from "../model/index.js";
import type { Diagnostic } from "../model/index.js";
import type { ToolExtension } from "./extension.js";
import type { ArtifactLocation } from "./sarif-uri.js";
import { artifactLocationOf, SRCROOT } from "./sarif-uri.js";
import { component, LEVELS, reportingDescriptor } from "./sarif-rules.js";
import type { RuleDescriptor } from "./rule-descriptor.js";
import { DOCS_BASE_URL } from "../rules/index.js";
import { collectRules } from "./rule-descriptor.js";
import type { CheckedFile } from "./types.js";

/** Options of {@link formatSarif}. */
export interface SarifFormatOptions {
  /** Descriptions of the codes; codes without one get a descriptor synthesised from the code. */
  readonly rules?: readonly RuleDescriptor[];
  /** agentflow's version, recorded as the driver's `semanticVersion`; omitted when not given. */
  readonly toolVersion?: string;
  /** Where synthesised descriptors link to; defaults to {@link DOCS_BASE_URL}. */
  readonly docsBaseUrl?: string;
  /**
   * The folder relative paths are relative to, as a `file:` URI (the CLI gives its working
   * directory). It defines `%SRCROOT%` in `originalUriBaseIds`; files below it get URIs relative
   * to it, files elsewhere absolute `file:` URIs without a base.
   */
  readonly srcRoot?: string;
  /**
   * `automationDetails.id` of the run: the category GitHub code scanning keeps apart from other
   * analyses of the same commit (`--sarif-category`). A trailing `/` is added when missing, so
   * that the whole value is the category and no run id is implied.
   */
  readonly category?: string;
  /**
   * The run's `properties`: what judged it (the config file and the rule set's digest), so a
   * reader of the log knows which settings the results come from.
   */
  readonly runProperties?: Readonly<Record<string, unknown>>;
  /**
   * The plugins and policy packs that judged: each is a `tool.extensions` component with its
   * version, `properties.sha256` and its rules, and their results point at it
   * (`rule.toolComponent`).
   */
  readonly extensions?: readonly ToolExtension[];
  /**
   * Whether a backslash in a file path separates folders, as on Windows; by default, whether
   * agentflow runs on Windows. Elsewhere a backslash is part of a file name, encoded `%5C`.
   */
  readonly windowsPaths?: boolean;
}

// The URI helpers live in sarif-uri.ts; their names stay exported here for existing callers.
export { artifactLocationOf, fileUriOf } from "./sarif-uri.js";

/** Where the SARIF 2.1.0 schema is published; viewers and editors use it to validate the log. */
export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** The home page recorded as the driver's `informationUri`. */
const INFORMATION_URI = "https://agentflow.dev/";

/**
 * The key of the fingerprint GitHub uses to recognise the same alert across runs. It is versioned,
 * as SARIF recommends for fingerprint keys, because changing what is hashed must not silently
 * merge or split alerts.
 */
export const FINGERPRINT_KEY = "agentflow/v1";

/**
 * A result's fingerprint: code, file and pointer; a repeat of those three (two unmapped tools of
 * one Camunda agent) adds its occurrence among them, as GitHub's `primaryLocationLineHash` and
 * `formatGitlab` count repeats, or code scanning merges them into one alert. Not `data`: it holds
 * wording and paths that change with unrelated edits. The first keeps the hash it always had.
 */
function fingerprint(key: string, occurrence: number): string {
  return sha256(occurrence === 0 ? key : JSON.stringify([key, occurrence]));
}

/**
 * The construct a JSON Pointer names, in SARIF's vocabulary for logical locations: the document
 * itself is an `object`, an array index a `value`, a member name a `property`.
 */
function pointerKind(tokens: readonly string[]): string {
  const last = tokens.at(-1);
  if (last === undefined) return "object";
  return /^(?:0|[1-9][0-9]*)$/.test(last) ? "value" : "property";
}

/**
 * What a result is about, by the name a reader knows it by: the BPMN element id (an XML
 * `element`), the workflow node id, an edge as `from->to`, or the document's own id. Only a
 * finding on a document without an id falls back to its JSON Pointer, which `properties.pointer`
 * always carries.
 */
function logicalLocation(d: Diagnostic, documentId: string | undefined): Record<string, string> {
  const target = d.target;
  switch (target.kind) {
    case "bpmn-element":
      return { name: target.elementId, fullyQualifiedName: target.elementId, kind: "element" };
    case "node":
      return { name: target.nodeId, fullyQualifiedName: target.nodeId, kind: "object" };
    case "edge": {
      const name = `${target.from}->${target.to}`;
      return { name, fullyQualifiedName: name, kind: "object" };
    }
    default: {
      if (documentId !== undefined) {
        return { name: documentId, fullyQualifiedName: documentId, kind: "module" };
      }
      const tokens = pointerTokens(d.path);
      const last = tokens.at(-1);
      return {
        ...(last === undefined ? {} : { name: last }),
        fullyQualifiedName: d.path,
        kind: pointerKind(tokens),
      };
    }
  }
}

function messageText(d: Diagnostic): string {
  return d.remediation === undefined || d.remediation === ""
    ? d.message
    : `${d.message}\n\n${d.remediation}`;
}

/**
 * One SARIF result. A diagnostic without a source position (a rule about the whole graph, or a
 * document that was not parsed from text) is placed on line 1, because GitHub code scanning
 * drops or hides results whose location has no region; the JSON Pointer in the logical location
 * still says exactly what it is about.
 */
/** Where a result's rule is described: the driver's rules, or an extension's (`component`). */
interface RulePlace {
  readonly index: number;
  readonly component?: { readonly name: string; readonly index: number };
}

function result(
  d: Diagnostic,
  artifact: ArtifactLocation,
  rule: RulePlace,
  documentId: string | undefined,
  fingerprinted: string,
): Record<string, unknown> {
  const region =
    d.location === undefined
      ? { startLine: 1 }
      : { startLine: d.location.line, startColumn: d.location.column };
  const waiver = d.waived;
  return {
    ruleId: d.code,
    ruleIndex: rule.index,
    ...(rule.component === undefined
      ? {}
      : { rule: { id: d.code, index: rule.index, toolComponent: rule.component } }),
    level: LEVELS[d.severity],
    message: { text: messageText(d) },
    locations: [
      {
        physicalLocation: { artifactLocation: artifact, region },
        logicalLocations: [logicalLocation(d, documentId)],
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprinted },
    // Shown, not dropped: a viewer lists it as suppressed, with who accepted it until when.
    ...(waiver === undefined
      ? {}
      : {
          suppressions: [
            {
              kind: "external",
              status: "accepted",
              justification: `${waiver.reason} (granted by ${waiver.grantedBy}, expires ${waiver.expires})`,
            },
          ],
        }),
    properties: { target: d.target, pointer: d.path, data: d.data },
  };
}

function artifactProperties(file: CheckedFile): Record<string, string> {
  // contentHash is of the canonical JSON, not of the file's bytes, so it must not go in `hashes`,
  // which SARIF defines as digests of the artifact itself.
  return {
    kind: file.kind,
    ...(file.id === undefined ? {} : { id: file.id }),
    ...(file.version === undefined ? {} : { version: file.version }),
    ...(file.contentHash === undefined ? {} : { contentHash: file.contentHash }),
  };
}

/**
 * Renders checked files as a SARIF 2.1.0 log. The output is deterministic: no timestamps, no
 * absolute paths the user did not give, rules sorted by code, results in the order given.
 * A diagnostic without a source position is placed at line 1 (no column) so that GitHub code
 * scanning still shows it; its logical location (the JSON Pointer) says what it is about.
 *
 * @example
 * ```ts
 * import { formatSarif, type CheckedFile } from "agentflow/report";
 *
 * const files: CheckedFile[] = [
 *   {
 *     file: "agents/triage.agent.yaml",
 *     kind: "AgentWorkflow",
 *     diagnostics: [
 *       {
 *         code: "BUDGET_MISSING",
 *         severity: "warning",
 *         message: 'workflow "agnt-triage" runs at autonomy 2 but states no budget',
 *         target: { kind: "workflow" },
 *         path: "",
 *         data: { level: 2 },
 *         location: { line: 1, column: 1 },
 *       },
 *     ],
 *   },
 * ];
 * const log = JSON.parse(formatSarif(files, { toolVersion: "0.1.0" })) as {
 *   runs: { tool: { driver: { semanticVersion: string } }; results: { ruleId: string; level: string }[] }[];
 * };
 * log.runs[0]?.tool.driver.semanticVersion; // → "0.1.0"
 * log.runs[0]?.results.map((r) => `${r.level} ${r.ruleId}`); // → ["warning BUDGET_MISSING"]
 * ```
 */
export function formatSarif(
  files: readonly CheckedFile[],
  options: SarifFormatOptions = {},
): string {
  const base = options.docsBaseUrl ?? DOCS_BASE_URL;
  const extensions = options.extensions ?? [];
  const places = new Map<string, RulePlace>();
  extensions.forEach((extension, i) => {
    extension.rules.forEach((rule, index) => {
      places.set(rule.code, { index, component: { name: extension.name, index: i } });
    });
  });
  const rules = collectRules(
    files.flatMap((f) => f.diagnostics).filter((d) => !places.has(d.code)),
    options.rules,
    base,
  );
  rules.forEach((rule, index) => {
    if (!places.has(rule.code)) places.set(rule.code, { index });
  });

  // The schema wants artifacts unique: a file given twice is one artifact.
  const artifacts: Record<string, unknown>[] = [];
  const artifactIndex = new Map<string, number>();
  const results: Record<string, unknown>[] = [];
  for (const file of files) {
    // Counted within the file: a file given twice repeats its findings, which are the same ones.
    const seen = new Map<string, number>();
    const location = artifactLocationOf(file.file, options.srcRoot, options.windowsPaths);
    const key = `${location.uriBaseId ?? ""} ${location.uri}`;
    let index = artifactIndex.get(key);
    if (index === undefined) {
      index = artifacts.length;
      artifactIndex.set(key, index);
      artifacts.push({
        location,
        roles: ["analysisTarget"],
        properties: artifactProperties(file),
      });
    }
    for (const d of file.diagnostics) {
      const key = JSON.stringify([d.code, location.uri, d.path]);
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      const place = places.get(d.code) ?? { index: -1 };
      results.push(result(d, { ...location, index }, place, file.id, fingerprint(key, occurrence)));
    }
  }

  const driver = {
    name: "agentflow",
    informationUri: INFORMATION_URI,
    ...(options.toolVersion === undefined
      ? {}
      : { version: options.toolVersion, semanticVersion: options.toolVersion }),
    rules: rules.map(reportingDescriptor),
  };
  const based = artifacts.some(
    (a) => (a.location as ArtifactLocation | undefined)?.uriBaseId === SRCROOT,
  );
  // A base that a URI names must be defined (SARIF 3.14.14): by its URI when it is known.
  const originalUriBaseIds =
    options.srcRoot !== undefined
      ? {
          [SRCROOT]: {
            uri: options.srcRoot.endsWith("/") ? options.srcRoot : `${options.srcRoot}/`,
          },
        }
      : based
        ? { [SRCROOT]: { description: { text: "The folder agentflow was run in." } } }
        : undefined;
  const category = options.category;
  const run = {
    tool: { driver, ...(extensions.length === 0 ? {} : { extensions: extensions.map(component) }) },
    ...(category === undefined
      ? {}
      : { automationDetails: { id: category.endsWith("/") ? category : `${category}/` } }),
    ...(originalUriBaseIds === undefined ? {} : { originalUriBaseIds }),
    artifacts,
    results,
    columnKind: "utf16CodeUnits",
    ...(options.runProperties === undefined ? {} : { properties: options.runProperties }),
  };
  const log = { $schema: SARIF_SCHEMA_URI, version: "2.1.0", runs: [run] };
  return JSON.stringify(log, null, 2) + "\n";
}
