/**
 * YAML through `yaml` (eemeli/yaml), kept to the JSON data model and to what its recursive
 * composer can take. The value itself is built in `yaml-build.ts`.
 */

import { CST, Composer, Lexer, Parser, isNode, isScalar } from "yaml";
import type { Document, ErrorCode, Pair, YAMLError } from "yaml";
import type { OffsetProblem } from "./problems.js";

/**
 * How deeply collections may nest in a YAML text. yaml's composer recurses once per level: near
 * the end of the call stack it fails unpredictably (a different error per run) and V8 can even
 * abort the process when a regular expression is compiled there ("RegExpCompiler Allocation
 * failed"), which a 20 kB `[[[…]]]` triggers. Its CST parser is iterative, so depth is measured
 * there: while it reads (its stack of open collections), so that a text a million levels deep is
 * refused after the first few hundred instead of after building a million-level tree, and on the
 * finished CST for the exact offset. JSON has no such limit.
 */
export const MAX_YAML_DEPTH = 256;

/** The YAML 1.2 core schema only: every scalar a JSON value, every key a string. */
const YAML_OPTIONS = {
  version: "1.2",
  schema: "core",
  // `!!binary`, `!!set`, `!!omap`, `!!pairs`, `!!timestamp` would give bytes, Sets, Maps, Dates.
  resolveKnownTags: false,
  merge: false,
  stringKeys: true,
  // Checked here in linear time; yaml's own check compares each key with all earlier ones.
  uniqueKeys: false,
  prettyErrors: false,
  // Keeps yaml from writing to the console (a collection used as a key would be logged).
  logLevel: "error",
  strict: true,
} as const;

/** The offset of the first collection nested deeper than {@link MAX_YAML_DEPTH}, if any. */
function tooDeep(tokens: readonly CST.Token[]): number | undefined {
  const pending: [CST.Token, number][] = [];
  for (const token of tokens) {
    if (token.type === "document" && token.value !== undefined) pending.push([token.value, 1]);
  }
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const [token, depth] = entry;
    if (!CST.isCollection(token)) continue;
    if (depth > MAX_YAML_DEPTH) return token.offset;
    // Reverse order, so that the walk (and the offset reported) follows the document.
    for (let i = token.items.length - 1; i >= 0; i -= 1) {
      const item = token.items[i];
      if (item?.value) pending.push([item.value, depth + 1]);
      if (item?.key) pending.push([item.key, depth + 1]);
    }
  }
  return undefined;
}

/**
 * Open tokens the parser's stack may hold besides collections: the document, and a scalar or
 * a pair being read at its top.
 */
const STACK_SLACK = 2;

/**
 * The CST of `text`, as `new Parser().parse(text)` gives it, or where it was given up: as soon
 * as the parser's stack holds more open collections than {@link MAX_YAML_DEPTH}. Checked per
 * lexeme, in constant time, so refusing a deep text costs time linear in what was read.
 */
function readTokens(text: string): { readonly tokens: CST.Token[]; readonly deepAt?: number } {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > MAX_YAML_DEPTH + STACK_SLACK) {
      // The stack holds the document, then one collection per level: report the first too deep.
      const first = parser.stack.filter((t) => CST.isCollection(t))[MAX_YAML_DEPTH];
      return { tokens, deepAt: first?.offset ?? parser.offset };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return { tokens };
}

/** A parsed YAML document (absent when the text could not be composed) and its syntax problems. */
export interface YamlParse {
  readonly doc: Document.Parsed | undefined;
  readonly problems: OffsetProblem[];
}

/** Below this many characters a comment header is left as it is. */
const FOLD_FROM = 4_096;

/**
 * The text with its leading comment lines (each starting with `#` at column 0) and empty lines
 * turned into one comment line of the same length. The YAML parser spends microseconds per line, so
 * a header of hundreds of thousands of comment lines costs it a second; folded, every offset after
 * it is unchanged (locations are counted on the original text), and nothing before the first other
 * line can be anything but a comment: no scalar, directive or document has started yet.
 */
export function foldCommentHeader(text: string): string {
  let end = 0;
  for (;;) {
    const first = text.charCodeAt(end);
    if (first !== 0x23 && first !== 0x0a) break; // "#" or "\n"
    const newline = text.indexOf("\n", end);
    if (newline < 0) break;
    end = newline + 1;
  }
  if (end < FOLD_FROM) return text;
  return "#" + " ".repeat(end - 2) + "\n" + text.slice(end);
}

/**
 * Parses one YAML document with the options every reader in this folder shares. As
 * `parseDocument` does, but measuring depth between its two stages and owning the error for a
 * second document.
 */
export function parseYaml(text: string): YamlParse {
  const { tokens, deepAt } = readTokens(foldCommentHeader(text));
  const deep = deepAt ?? tooDeep(tokens);
  if (deep !== undefined) {
    const message = `The YAML text nests collections more than ${MAX_YAML_DEPTH} levels deep, which this reader does not accept.`;
    return {
      doc: undefined,
      problems: [{ code: "SYNTAX_ERROR", message, path: "", offset: deep }],
    };
  }
  let doc: Document.Parsed | undefined;
  const problems: OffsetProblem[] = [];
  for (const next of new Composer(YAML_OPTIONS).compose(tokens, true, text.length)) {
    if (doc === undefined) {
      doc = next;
      continue;
    }
    const message =
      "The text holds more than one YAML document; an agentflow file (a workflow, a tool contract, a policy pack) holds exactly one.";
    problems.push({ code: "SYNTAX_ERROR", message, path: "", offset: next.range[0] });
    break;
  }
  if (doc !== undefined) {
    const version = doc.directives.yaml.version;
    if (version !== "1.2") {
      // Read as 1.2, a 1.1 document would mean something else than to its author's tools
      // (`yes`, `010`, merge keys): refused rather than read one way or the other.
      const message = `The text declares YAML ${version}; agentflow reads YAML 1.2 only, where some values (yes/no, 010, merge keys) mean something else.`;
      problems.push({
        code: "SYNTAX_ERROR",
        message,
        path: "",
        offset: Math.max(0, text.indexOf("%YAML")),
      });
    }
    for (const error of doc.errors) problems.push(yamlProblem(error));
    for (const warning of doc.warnings) problems.push(yamlProblem(warning));
  }
  return { doc, problems };
}

/** The offset where a node starts, when it has one. */
export function startOf(node: unknown): number | undefined {
  return isNode(node) ? (node.range?.[0] ?? undefined) : undefined;
}

/** The property name a pair's key becomes; `undefined` when the key is not a scalar. */
export function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (key === null || key === undefined) return "";
  if (!isScalar(key)) return undefined;
  const value = key.value;
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

const EXPLAINED: Partial<Record<ErrorCode, string>> = {
  NON_STRING_KEY:
    "A mapping key must be a string; a mapping, a sequence or an alias cannot be one.",
  RESOURCE_EXHAUSTION: "The YAML text is nested too deeply to be read.",
};

/** Turns one of yaml's errors or warnings into a problem; every one is fatal (see `read.ts`). */
function yamlProblem(error: YAMLError): OffsetProblem {
  let message = EXPLAINED[error.code] ?? error.message;
  if (!message.endsWith(".")) message += ".";
  if (error.code === "TAG_RESOLVE_FAILED") {
    message +=
      " Only the YAML 1.2 core schema is read: explicit types such as !!binary or !!set, and application tags, are not resolved.";
  }
  return { code: "SYNTAX_ERROR", message, path: "", offset: error.pos[0] };
}
