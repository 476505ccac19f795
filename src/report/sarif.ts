/**
 * The `sarif` format: SARIF 2.1.0, the static-analysis log GitHub code scanning (and Azure DevOps,
 * GitLab, VS Code's SARIF viewer) ingest. One run, every code described with a link to its rule
 * page, and every result placed on a line so that code scanning can annotate it.
 */
import { pointerTokens, sha256 } from "../model/index.js";
import type { Diagnostic, Severity } from "../model/index.js";
import type { RuleDescriptor } from "./rule-descriptor.js";
import { collectRules, DOCS_BASE_URL, encodeUriSegment } from "./rule-descriptor.js";
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
}

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

/** The base that relative artifact URIs resolve against; GitHub maps it to the repository root. */
const SRCROOT = "%SRCROOT%";

const LEVELS: Readonly<Record<Severity, "error" | "warning" | "note">> = {
  error: "error",
  warning: "warning",
  info: "note",
};

interface ArtifactLocation {
  readonly uri: string;
  readonly uriBaseId?: string;
  readonly index?: number;
}

interface MessageString {
  readonly text: string;
  readonly markdown?: string;
}

function encodePath(path: string): string {
  return path.split("/").map(encodeUriSegment).join("/");
}

/** The `file:` URI of an absolute path (POSIX, a Windows drive, or UNC), or undefined. */
function absoluteUri(slashed: string): string | undefined {
  if (/^[A-Za-z]:\//.test(slashed)) {
    return `file:///${slashed.slice(0, 2)}${encodePath(slashed.slice(2))}`;
  }
  if (slashed.startsWith("//")) return `file:${encodePath(slashed)}`;
  if (slashed.startsWith("/")) return `file://${encodePath(slashed)}`;
  return undefined;
}

/**
 * The `file:` URI of an absolute path (POSIX, a Windows drive, or UNC), encoded as
 * `artifactLocationOf` encodes artifacts, so that a `srcRoot` made with it is a prefix of
 * the URIs of the files below it whatever characters the folder names hold (`workspace@2`).
 *
 * @example
 * ```ts
 * import { fileUriOf } from "agentflow/report";
 *
 * fileUriOf("/builds/workspace@2"); // → "file:///builds/workspace%402"
 * fileUriOf("C:\\ci\\my repo"); // → "file:///C:/ci/my%20repo"
 * fileUriOf("relative/path"); // → undefined
 * ```
 */
export function fileUriOf(absolutePath: string): string | undefined {
  return absoluteUri(absolutePath.replaceAll("\\", "/"));
}

/**
 * A file path as a SARIF URI. With `srcRoot` (a `file:` URI of a folder), a file below it gets a
 * URI relative to it with `uriBaseId: %SRCROOT%`, and any other file an absolute `file:` URI with
 * no base, so that no URI claims a base it is not in. Without it, absolute paths become `file:`
 * URIs, relative paths below the working directory stay relative to `%SRCROOT%`, and a path
 * that climbs out of it (`../`) stays a relative reference with no base. Backslashes become
 * slashes (Windows paths) and every segment is percent-encoded, because the schema requires a
 * valid URI reference and file names may hold spaces, `#`, `%` or a `:` that would otherwise
 * read as a scheme.
 */
export function artifactLocationOf(file: string, srcRoot?: string): ArtifactLocation {
  const slashed = file.replaceAll("\\", "/");
  const absolute = absoluteUri(slashed);
  let relative = slashed;
  while (relative.startsWith("./")) relative = relative.slice(2);
  if (srcRoot === undefined) {
    if (absolute !== undefined) return { uri: absolute };
    if (relative === ".." || relative.startsWith("../")) return { uri: encodePath(relative) };
    return { uri: encodePath(relative), uriBaseId: SRCROOT };
  }
  const root = srcRoot.endsWith("/") ? srcRoot : `${srcRoot}/`;
  const href = absolute ?? new URL(encodePath(relative), root).href;
  return href.startsWith(root) && href.length > root.length
    ? { uri: href.slice(root.length), uriBaseId: SRCROOT }
    : { uri: href };
}

/** The first sentence, for `shortDescription`, which viewers show where space is short. */
function firstSentence(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (
      (c === "." || c === "!" || c === "?") &&
      (i + 1 === text.length || /\s/.test(text[i + 1] ?? ""))
    ) {
      return text.slice(0, i + 1);
    }
  }
  return text;
}

/** Backslash-escapes Markdown punctuation so a description renders as the plain text it is. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, "\\$&");
}

function ruleName(code: string): string {
  const words = code.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("");
  return name === "" ? code : name;
}

function reportingDescriptor(rule: RuleDescriptor): Record<string, unknown> {
  const short = firstSentence(rule.description);
  const link = `[Documentation of ${escapeMarkdown(rule.code)}](<${rule.helpUri}>)`;
  const help: MessageString = {
    text: `${rule.description}\n\nDocumentation: ${rule.helpUri}`,
    markdown: `${escapeMarkdown(rule.description)}\n\n${link}`,
  };
  return {
    id: rule.code,
    name: ruleName(rule.code),
    shortDescription: { text: short },
    ...(short === rule.description ? {} : { fullDescription: { text: rule.description } }),
    helpUri: rule.helpUri,
    help,
    defaultConfiguration: { level: LEVELS[rule.defaultSeverity] },
  };
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
function result(
  d: Diagnostic,
  artifact: ArtifactLocation,
  ruleIndex: number,
  documentId: string | undefined,
): Record<string, unknown> {
  const region =
    d.location === undefined
      ? { startLine: 1 }
      : { startLine: d.location.line, startColumn: d.location.column };
  return {
    ruleId: d.code,
    ruleIndex,
    level: LEVELS[d.severity],
    message: { text: messageText(d) },
    locations: [
      {
        physicalLocation: { artifactLocation: artifact, region },
        logicalLocations: [logicalLocation(d, documentId)],
      },
    ],
    partialFingerprints: {
      [FINGERPRINT_KEY]: sha256(JSON.stringify([d.code, artifact.uri, d.path])),
    },
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
  const rules = collectRules(
    files.flatMap((f) => f.diagnostics),
    options.rules,
    base,
  );
  const ruleIndex = new Map(rules.map((rule, index) => [rule.code, index]));

  // The schema wants artifacts unique: a file given twice is one artifact.
  const artifacts: Record<string, unknown>[] = [];
  const artifactIndex = new Map<string, number>();
  const results: Record<string, unknown>[] = [];
  for (const file of files) {
    const location = artifactLocationOf(file.file, options.srcRoot);
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
      results.push(result(d, { ...location, index }, ruleIndex.get(d.code) ?? -1, file.id));
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
    tool: { driver },
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
