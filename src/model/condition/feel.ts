/**
 * The full analysis of a FEEL condition: rewrite the JavaScript operators, parse with lezer-feel,
 * check syntax, collect the names read, check the S-FEEL allow-list, and keep the compiled
 * comparison so that evaluation needs no second parse. `analyze.ts` caches the results and tries
 * the parser-free fast path (`simple.ts`) first.
 */
import { compileTree } from "./compile.js";
import { parseFeelExpression } from "./parser.js";
import { collectNameReads } from "./names.js";
import { originalOffset, rewriteJsDialect, rewriteJsOperators } from "./rewrite.js";
import type { OperatorRewrite } from "./rewrite.js";
import { quote } from "./tree.js";
import type { FeelTree } from "./tree.js";
import type { CompiledComparison, ConditionAnalysis, ConditionProblem } from "./types.js";

/**
 * Longer conditions are a syntax problem and are never parsed: lezer's error recovery on hostile
 * input of this size already takes a noticeable fraction of a second.
 */
export const MAX_CONDITION_LENGTH = 10_000;

/**
 * Deeper trees are not simulable. The allow-list walk and the evaluator recurse, and no real
 * condition nests anywhere near this deep.
 */
export const MAX_CONDITION_DEPTH = 200;

/** Beyond this many problems a condition is simply broken; more would only flood a report. */
const MAX_PROBLEMS = 20;

/** A condition's analysis, with its compiled comparison when (and only when) it is simulable. */
export interface FeelAnalysis {
  readonly analysis: ConditionAnalysis;
  readonly comparison?: CompiledComparison;
}

/** The analysis of a condition that does not parse. */
export function syntaxOnly(
  message: string,
  offset: number,
  rewrites: readonly OperatorRewrite[] = [],
): ConditionAnalysis {
  return {
    ok: false,
    simulable: false,
    structured: false,
    fields: [],
    rewrites,
    problems: [{ kind: "syntax", message, offset }],
  };
}

/** Explains a parse error at `from` in the terms an author of JS-style conditions needs. */
function syntaxMessage(text: string, from: number, to: number): string {
  if (from >= text.length || text.slice(from).trim() === "") {
    return "the condition ends too early: an operand or a closing ')' is missing";
  }
  const two = text.slice(from, from + 2);
  if (two === "&&") return "'&&' is not FEEL; write 'and' (valid FEEL, though not simulable)";
  if (two === "||") return "'||' is not FEEL; write 'or' (valid FEEL, though not simulable)";
  const first = text.charAt(from);
  if (first === "!") return "'!' is not FEEL; compare with '= false' instead";
  if (first === "'") return "FEEL strings are written in double quotes";
  if (first === '"') return "the string starting here is not closed on its line";
  // lezer marks some errors with an empty node before whitespace; quote what follows instead.
  let start = from;
  while (start < text.length && " \t\r\n".includes(text.charAt(start))) start += 1;
  return `unexpected '${quote(text.slice(start, Math.max(to, start + 1)), 20)}'`;
}

/** The first error node (smallest offset) and the maximum nesting depth of the tree. */
function scanTree(tree: FeelTree): {
  readonly error?: { from: number; to: number };
  readonly depth: number;
} {
  let error: { from: number; to: number } | undefined;
  let depth = 0;
  let maxDepth = 0;
  tree.iterate({
    enter(node) {
      depth += 1;
      if (depth > maxDepth) maxDepth = depth;
      if (node.type.isError && (error === undefined || node.from < error.from)) {
        error = { from: node.from, to: node.to };
      }
    },
    leave() {
      depth -= 1;
    },
  });
  return error === undefined ? { depth: maxDepth } : { error, depth: maxDepth };
}

/**
 * Analyses a FEEL condition with the lezer-feel parser. Conditions over
 * {@link MAX_CONDITION_LENGTH} characters are refused before parsing.
 */
export function parseFeel(original: string): FeelAnalysis {
  if (original.length > MAX_CONDITION_LENGTH) {
    return {
      analysis: syntaxOnly(
        `the condition is too long (${original.length} characters; the limit is ${MAX_CONDITION_LENGTH})`,
        MAX_CONDITION_LENGTH,
      ),
    };
  }
  if (original.trim() === "") return { analysis: syntaxOnly("the condition is empty", 0) };
  let { text, rewrites } = rewriteJsOperators(original);
  let tree: FeelTree;
  try {
    tree = parseFeelExpression(text);
  } catch {
    return { analysis: syntaxOnly("the FEEL parser could not read the condition", 0, rewrites) };
  }
  let scan = scanTree(tree);
  if (scan.error !== undefined) {
    // Not FEEL as it stands: read the seed's JavaScript-like dialect (quotes, &&, ||, !), and
    // keep that reading if it parses. A text that is FEEL never gets here, so never changes.
    const dialect = rewriteJsDialect(original);
    if (dialect.text !== text) {
      try {
        const again = parseFeelExpression(dialect.text);
        const rescan = scanTree(again);
        if (rescan.error === undefined) {
          ({ text, rewrites } = dialect);
          tree = again;
          scan = rescan;
        }
      } catch {
        // The first reading's error is the one reported.
      }
    }
  }
  const toOriginal = (offset: number): number => originalOffset(rewrites, offset);
  if (scan.error !== undefined) {
    const { from, to } = scan.error;
    return { analysis: syntaxOnly(syntaxMessage(text, from, to), toOriginal(from), rewrites) };
  }

  const problems: ConditionProblem[] = [];
  const fields: string[] = [];
  const seen = new Set<string>();
  let structured = false;
  for (const read of collectNameReads(tree, text)) {
    // `output` alone is the whole object, not a field; the allow-list reports it.
    if (read.root === "output" && read.path.length === 0) continue;
    if (read.root === "output") structured = true;
    if (seen.has(read.name)) continue;
    seen.add(read.name);
    fields.push(read.name);
    if (read.root !== "output") {
      const suggestion = read.path.length === 0 ? ` (did you mean output.${read.name}?)` : "";
      problems.push({
        kind: "unknown-name",
        message: `'${quote(read.name)}' does not exist when the condition runs: conditions read the outputs as output.<field>${suggestion}`,
        offset: toOriginal(read.from),
      });
    }
  }

  let comparison: CompiledComparison | undefined;
  if (scan.depth > MAX_CONDITION_DEPTH) {
    problems.push({
      kind: "not-simulable",
      message: `the condition nests more than ${MAX_CONDITION_DEPTH} levels deep`,
      offset: 0,
      construct: "Nesting",
    });
  } else {
    comparison = compileTree(tree.topNode, { text, original, toOriginal, problems });
  }
  // Stable sort: problems at one offset keep the order they were found in.
  const sorted = problems.sort((a, b) => a.offset - b.offset).slice(0, MAX_PROBLEMS);
  const simulable = comparison !== undefined && sorted.length === 0;
  const analysis: ConditionAnalysis = {
    ok: true,
    simulable,
    structured,
    fields,
    rewrites,
    problems: sorted,
  };
  return simulable && comparison !== undefined ? { analysis, comparison } : { analysis };
}
