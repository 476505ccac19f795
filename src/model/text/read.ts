/**
 * Reading a JSON or YAML text into a JSON value, with every problem located. A document that has
 * a problem gets no value: a duplicate key, an unknown tag or a recovered syntax error would
 * otherwise let the reader silently pick one meaning for the author. JSON is read here, YAML
 * through the {@link YamlSupport} the caller passes: read-sync.ts imports it, read-async.ts loads
 * it for a YAML text only.
 */

import { escapePointerToken, jsonDataProblems, notJsonDataMessage } from "../json/index.js";
import { scanJson, skipJsonSpace } from "./json-scan.js";
import type { JsonScanVisitor } from "./json-scan.js";
import { keyCount, memberCount } from "./json-valid.js";
import { wideEncoding } from "./encoding.js";
import { stripBom } from "./lines.js";
import { duplicateKeyMessage, locateProblems, nonFiniteMessage, pointerOf } from "./problems.js";
import type { OffsetProblem, TextFormat, TextProblem } from "./problems.js";
import type { Locator, ReadKnowledge } from "./locate.js";
import { locatorFor } from "./locate.js";
import type { YamlSupport } from "./yaml-support.js";

/** Options of `readDocumentText`. */
export interface ReadOptions {
  /** Forces a format; otherwise it is detected (see {@link detectTextFormat}). */
  readonly format?: TextFormat;
}

/**
 * The outcome of `readDocumentText`. `ok` is true exactly when `problems` is empty; then
 * `value` is the document as plain JSON data (objects with own data properties, arrays, strings,
 * numbers, booleans, null).
 */
export type ReadResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly format: TextFormat;
      readonly problems: readonly TextProblem[];
    }
  | { readonly ok: false; readonly format: TextFormat; readonly problems: readonly TextProblem[] };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * JSON when the first character after a BOM and JSON whitespace is `{` or `[`, otherwise YAML.
 * (A YAML flow mapping such as `{a: 1}` is therefore read as JSON: pass `format` to override.)
 */
export function detectTextFormat(text: string): TextFormat {
  const body = stripBom(text);
  const first = body.charCodeAt(skipJsonSpace(body, 0));
  return first === OPEN_BRACE || first === OPEN_BRACKET ? "json" : "yaml";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reports what `JSON.parse` silently resolves: a repeated key (it keeps the last value) and a
 * number beyond a double's range (it becomes ±Infinity, which canonical JSON cannot write).
 */
function jsonChecks(text: string, problems: OffsetProblem[]): JsonScanVisitor {
  // Parallel stacks per open container: its token, and the keys seen when it is an object.
  const tokens: (string | number)[] = [];
  const seen: (Set<string> | undefined)[] = [];
  let pending: string | number = "";
  // tokens[0] belongs to the root, which has no token of its own.
  const containerPath = (): string => pointerOf(tokens.slice(1));
  return {
    value: (_offset, token) => {
      pending = token ?? "";
    },
    open: (kind) => {
      tokens.push(pending);
      seen.push(kind === "object" ? new Set<string>() : undefined);
    },
    close: () => {
      tokens.pop();
      seen.pop();
    },
    member: (name, offset) => {
      const keys = seen[seen.length - 1];
      if (keys === undefined) return;
      if (!keys.has(name)) {
        keys.add(name);
        return;
      }
      const objectPath = containerPath();
      const message = duplicateKeyMessage(name, objectPath);
      const path = objectPath + "/" + escapePointerToken(name);
      problems.push({ code: "DUPLICATE_KEY", message, path, offset });
    },
    number: (start, end) => {
      const literal = text.slice(start, end);
      // Only an exponent or some 309 digits can leave a double's range.
      if (end - start < 309 && !/[eE]/.test(literal)) return;
      if (Number.isFinite(Number(literal))) return;
      const path = tokens.length === 0 ? "" : containerPath() + "/" + escapePointerToken(pending);
      problems.push({
        code: "SYNTAX_ERROR",
        message: nonFiniteMessage(literal),
        path,
        offset: start,
      });
    },
  };
}

const V8_POSITION = /at position (\d+)/;

function readJson(text: string): { value: unknown; problems: OffsetProblem[] } {
  const problems: OffsetProblem[] = [];
  let value: unknown;
  let failure: unknown;
  let parsed = false;
  try {
    // The native parser builds the value; the scanner only finds what JSON.parse does not report.
    value = JSON.parse(text);
    parsed = true;
  } catch (error) {
    failure = error;
  }
  // On a text JSON.parse accepted, the scan can only find a repeated key or a number out of
  // range; when the members written are the keys parsed and every number is finite, there is none.
  if (parsed && keyCount(value) === memberCount(text)) return { value, problems };
  const syntax = scanJson(text, jsonChecks(text, problems));
  if (!parsed) {
    if (syntax !== undefined) {
      problems.push({
        code: "SYNTAX_ERROR",
        message: syntax.message,
        path: "",
        offset: syntax.offset,
      });
    } else {
      // Only if the scanner and JSON.parse ever disagree: fall back on the engine's own position.
      const reported = V8_POSITION.exec(messageOf(failure))?.[1];
      const offset = reported === undefined ? 0 : Number(reported);
      problems.push({
        code: "SYNTAX_ERROR",
        message: `The text is not valid JSON: ${messageOf(failure)}`,
        path: "",
        offset,
      });
    }
  }
  return { value, problems };
}

/** What a reader found, and what its locator can reuse. */
interface Outcome {
  readonly value: unknown;
  readonly problems: OffsetProblem[];
  readonly known: ReadKnowledge;
}

/** A surrogate code unit, raw or as a JSON/YAML escape: only then can a string be ill-formed. */
const SURROGATE_HINT = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;

/**
 * Strings holding a lone surrogate. Both syntaxes accept `"\ud800"`, but it is not Unicode and
 * the document could not be hashed (RFC 8785). One native scan of the text rules it out for
 * almost every document, so the value is walked only when a surrogate appears.
 */
function surrogateProblems(value: unknown, locate: Locator, body: string): TextProblem[] {
  if (!SURROGATE_HINT.test(body)) return [];
  const found = jsonDataProblems(value);
  if (found.length === 0) return [];
  const located = locate(found.map((p) => p.path));
  return found.map((p, i) => ({
    code: "NOT_JSON_DATA",
    message: notJsonDataMessage(p),
    path: p.path,
    location: located[i] ?? { line: 1, column: 1 },
  }));
}

/**
 * The text after its BOM and its format, the one asked for or the one detected.
 *
 * @throws TypeError on misuse: `text` not a string, an unknown `format`.
 */
export function textFormat(
  text: string,
  options: ReadOptions,
): { readonly body: string; readonly format: TextFormat } {
  if (typeof text !== "string") throw new TypeError("readDocumentText: text must be a string.");
  const requested: unknown = options.format;
  if (requested !== undefined && requested !== "json" && requested !== "yaml") {
    const shown = typeof requested === "string" ? JSON.stringify(requested) : typeof requested;
    throw new TypeError(`readDocumentText: format must be "json" or "yaml", not ${shown}.`);
  }
  const body = stripBom(text);
  return { body, format: options.format ?? detectTextFormat(body) };
}

function readOutcome(body: string, format: TextFormat, yaml: YamlSupport | undefined): Outcome {
  if (format === "json") {
    const { value, problems } = readJson(body);
    return { value, problems, known: { validJson: problems.length === 0 } };
  }
  if (yaml === undefined) throw new TypeError("reading a YAML text needs the YAML support");
  const read = yaml.read(body);
  return { value: read.value, problems: read.problems, known: { yamlOffsets: read.offsets } };
}

/** The problem of a text in a wide encoding: what it is, and what to do. */
const wideMessage = (encoding: string): string =>
  `The text is encoded as ${encoding}; agentflow reads documents as UTF-8 only: save it as UTF-8.`;

/**
 * Reads `body` (a text after its BOM, see {@link textFormat}) in `format`, with a locator for the
 * same text that reuses what the read parsed. Never throws on a string: every problem (syntax
 * error with its position, duplicate key with its pointer, unknown tag, second document, alias
 * bomb) is returned. `yaml` reads a YAML text; for JSON it may be `undefined`.
 */
export function readBody(
  body: string,
  format: TextFormat,
  yaml: YamlSupport | undefined,
): { readonly result: ReadResult; readonly locate: Locator } {
  if (format === "yaml" && yaml === undefined) {
    throw new TypeError("reading a YAML text needs the YAML support");
  }
  let outcome: Outcome;
  const wide = wideEncoding(body);
  try {
    outcome =
      wide === undefined
        ? readOutcome(body, format, yaml)
        : {
            value: undefined,
            problems: [{ code: "SYNTAX_ERROR", message: wideMessage(wide), path: "", offset: 0 }],
            known: {},
          };
  } catch (error) {
    // A reader bug or an exhausted engine (a string too long to build) is still a result.
    const message = `The text could not be read: ${messageOf(error)}`;
    outcome = {
      value: undefined,
      problems: [{ code: "SYNTAX_ERROR", message, path: "", offset: 0 }],
      known: {},
    };
  }
  const locate = locatorFor(body, format, outcome.known, yaml);
  const problems =
    outcome.problems.length === 0
      ? surrogateProblems(outcome.value, locate, body)
      : locateProblems(body, outcome.problems);
  const result: ReadResult =
    problems.length === 0
      ? { ok: true, value: outcome.value, format, problems }
      : { ok: false, format, problems };
  return { result, locate };
}
