/**
 * Reading and writing BPMN XML with bpmn-moddle (SPEC 7). Every moddle warning becomes a
 * `BPMN_PARSE` diagnostic with the element id and a 1-based position; a document moddle cannot
 * read at all gives an error diagnostic, never an exception.
 */
import type { Diagnostic } from "../model/index.js";
import { wideEncoding } from "../model/internal.js";
import type { ModdleExtensions, ModdleObject } from "./moddle.js";
import {
  BTV_URI,
  elementKind,
  idOf,
  isModdleObject,
  moddleNamespaces,
  sharedModdle,
} from "./moddle.js";
import type { ParseIssue } from "./types.js";
import { parseIssueDiagnostics } from "./rules/BPMN_PARSE.js";
import { duplicateAttributes } from "./duplicate-attributes.js";
import type { SourceIndex } from "./source-index.js";
import { createSourceIndex, undeclaredPrefixes } from "./source-index.js";

/** Options of {@link readProcess}. */
export interface ReadOptions {
  /** Extra moddle packages, e.g. `{ zeebe }` from zeebe-bpmn-moddle. */
  readonly moddleExtensions?: ModdleExtensions;
  /** Longest document accepted, in characters (default 64 MiB). */
  readonly maxLength?: number;
}

/** What {@link readProcess} returns. */
export interface ReadResult {
  /** The `bpmn:Definitions` root; `undefined` when the document could not be read. */
  readonly definitions: ModdleObject | undefined;
  /** `BPMN_PARSE` diagnostics, in document order of discovery. */
  readonly diagnostics: readonly Diagnostic[];
  /** Positions of element ids in the text, for diagnostics reported later. */
  readonly source: SourceIndex;
}

const DEFAULT_MAX_LENGTH = 64 * 1024 * 1024;
const POSITION = /line: (\d+)\s+column: (\d+)/;
const NESTED = /nested error: ([^\n]*)/;
const ANGLE = /<([^>\n]{0,200})>/;

function messageOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.message;
  return String(value);
}

/**
 * Classifies one moddle warning; `source` turns an id or moddle's 0-based position into ours.
 * `undefined` for an unknown attribute in the btv namespace (moddle writes its own `btv` prefix
 * for it, whatever the document's) or of a btv element: nothing reads it, so the gate check
 * reports it as an error that blocks (BTV_NAMESPACE_MISMATCH), not as one more kept attribute.
 */
function issueOf(warning: unknown, source: SourceIndex): ParseIssue | undefined {
  const record = (typeof warning === "object" && warning !== null ? warning : {}) as Record<
    string,
    unknown
  >;
  const text = messageOf(record.message ?? warning);
  const element = isModdleObject(record.element) ? record.element : undefined;
  const elementId = element === undefined ? undefined : idOf(element);
  const position = POSITION.exec(text);
  const location =
    position === null
      ? elementId === undefined
        ? undefined
        : source.locateId(elementId)
      : source.locateReported(Number(position[1]), Number(position[2]));
  const subject = tagName(ANGLE.exec(text)?.[1] ?? "");
  const base = { ...(elementId === undefined ? {} : { elementId }), location };
  if (text.startsWith("unparsable content")) {
    const reason = NESTED.exec(text)?.[1] ?? "unreadable";
    // A dropped duplicate names its id only in the reason; it is the element concerned.
    const duplicate = /^duplicate ID <([^>]{1,200})>/.exec(reason)?.[1];
    const target = duplicate === undefined ? {} : { elementId: duplicate };
    return { ...base, ...target, kind: "dropped", subject, reason };
  }
  if (text.startsWith("unresolved reference")) {
    const property = typeof record.property === "string" ? record.property : "";
    return { ...base, kind: "unresolved-reference", subject, reason: property };
  }
  if (text.startsWith("unknown attribute")) {
    const btv =
      subject.startsWith("btv:") ||
      (element !== undefined && elementKind(element).namespace === BTV_URI);
    return btv ? undefined : { ...base, kind: "unknown-attribute", subject, reason: "" };
  }
  if (text.startsWith("unsupported document encoding")) {
    return { kind: "encoding", subject, reason: "", location: { line: 1, column: 1 } };
  }
  return { ...base, kind: "other", subject, reason: text };
}

const FIRST_ELEMENT = /<([A-Za-z_][\w.:-]{0,100})/;

/** The name in `<name attr="…"/>` as moddle quotes it: no attributes, no closing slash. */
function tagName(quoted: string): string {
  const trimmed = quoted.trim().replace(/\/$/, "");
  const space = trimmed.search(/\s/);
  return space < 0 ? trimmed : trimmed.slice(0, space);
}

function fatal(error: unknown, xml: string, source: SourceIndex): ParseIssue {
  const text = messageOf(error);
  const position = POSITION.exec(text);
  const location =
    position === null
      ? { line: 1, column: 1 }
      : source.locateReported(Number(position[1]), Number(position[2]));
  if (text.startsWith("failed to parse document as")) {
    // moddle names no position: the root element's own is the one to show.
    const first = FIRST_ELEMENT.exec(xml);
    const at = first === null ? location : source.locateOffset(first.index);
    return { kind: "unknown-root", subject: first?.[1] ?? "", reason: text, location: at };
  }
  return {
    kind: "unreadable",
    subject: tagName(ANGLE.exec(text)?.[1] ?? ""),
    reason: NESTED.exec(text)?.[1] ?? text.split("\n")[0] ?? text,
    location,
  };
}

/**
 * Parses BPMN XML. Never throws for bad input: an unreadable document gives `definitions:
 * undefined` and an error diagnostic saying what and where.
 *
 * @example
 * ```ts
 * import { readProcess } from "agentflow/bpmn";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions, diagnostics, source } = await readProcess(xml);
 * definitions?.$type; // → "bpmn:Definitions"
 * diagnostics; // → []
 * source.locateId("Review"); // → { line: 8, column: 20 }
 *
 * // bad input is a diagnostic, never an exception
 * const broken = await readProcess("not xml");
 * broken.definitions; // → undefined
 * broken.diagnostics.map((d) => `${d.code}: ${d.message}`);
 * // → ["BPMN_PARSE: the XML cannot be read: missing start tag"]
 * ```
 */
export async function readProcess(xml: string, options: ReadOptions = {}): Promise<ReadResult> {
  const source = createSourceIndex(xml);
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  if (xml.length > maxLength) {
    const issue: ParseIssue = {
      kind: "too-large",
      subject: "",
      reason: `${xml.length} characters, more than the ${maxLength} accepted`,
      location: { line: 1, column: 1 },
    };
    return { definitions: undefined, diagnostics: parseIssueDiagnostics([issue]), source };
  }
  const wide = wideEncoding(xml);
  if (wide !== undefined) {
    const issue: ParseIssue = {
      kind: "unreadable",
      subject: "",
      reason: `the document is encoded as ${wide}; agentflow reads BPMN as UTF-8 only: save it as UTF-8`,
      location: { line: 1, column: 1 },
    };
    return { definitions: undefined, diagnostics: parseIssueDiagnostics([issue]), source };
  }
  const prefixIssues = undeclaredPrefixes(xml).map((u): ParseIssue => ({
    kind: "undeclared-prefix",
    subject: u.element,
    reason: u.prefix,
    location: source.locateOffset(u.offset),
  }));
  // moddle keeps the last of two attributes it reads as one and says nothing: the one a check
  // reads may not be the one a namespace-aware engine would (or it rejects the document).
  const moddle = sharedModdle(options.moddleExtensions);
  for (const d of duplicateAttributes(xml, moddleNamespaces(moddle))) {
    const both = d.first.includes(":")
      ? `both in ${d.namespace}`
      : `which bpmn-moddle reads as one property of ${d.namespace}, keeping the last`;
    prefixIssues.push({
      kind: "unreadable",
      subject: d.element,
      reason: `<${d.element}> gives attribute <${d.name}> twice: as <${d.first}> and as <${d.name}>, ${both}`,
      ...(d.elementId === undefined ? {} : { elementId: d.elementId }),
      location: source.locateOffset(d.offset),
    });
  }
  let parsed;
  try {
    parsed = await moddle.fromXML(xml);
  } catch (error) {
    const issues = [...prefixIssues, fatal(error, xml, source)];
    return { definitions: undefined, diagnostics: parseIssueDiagnostics(issues), source };
  }
  const root = parsed.rootElement;
  const issues = [...prefixIssues];
  for (const warning of parsed.warnings) {
    const issue = issueOf(warning, source);
    if (issue !== undefined) issues.push(issue);
  }
  if (!isModdleObject(root)) {
    issues.push({
      kind: "unknown-root",
      subject: "",
      reason: "no root element",
      location: { line: 1, column: 1 },
    });
    return { definitions: undefined, diagnostics: parseIssueDiagnostics(issues), source };
  }
  return { definitions: root, diagnostics: parseIssueDiagnostics(issues), source };
}

/**
 * Serialises definitions back to XML (moddle keeps unknown extension elements and attributes).
 *
 * @example
 * ```ts
 * import { readProcess, writeProcess } from "agentflow/bpmn";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="MarketStudy" targetNamespace="https://example.com">
 *   <bpmn:process id="Study" isExecutable="true">
 *     <bpmn:startEvent id="Start" />
 *     <bpmn:serviceTask id="Research">
 *       <bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" /></bpmn:extensionElements>
 *     </bpmn:serviceTask>
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements><btv:gate approverRole="analyst" /></bpmn:extensionElements>
 *     </bpmn:userTask>
 *     <bpmn:endEvent id="End" />
 *     <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Research" />
 *     <bpmn:sequenceFlow id="F2" sourceRef="Research" targetRef="Review" />
 *     <bpmn:sequenceFlow id="F3" sourceRef="Review" targetRef="End" />
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * if (definitions === undefined) throw new Error("unreadable");
 * const written = await writeProcess(definitions);
 * written.startsWith('<?xml version="1.0" encoding="UTF-8"?>'); // → true
 * // the btv extension elements survive the round trip
 * written.includes('<btv:agentTask agentWorkflowRef="agnt-rsch@2.1.0" />'); // → true
 * written.includes('<btv:gate approverRole="analyst" />'); // → true
 * ```
 */
export async function writeProcess(
  definitions: ModdleObject,
  options: { readonly moddleExtensions?: ModdleExtensions } = {},
): Promise<string> {
  const { xml } = await sharedModdle(options.moddleExtensions).toXML(definitions, { format: true });
  return xml;
}
