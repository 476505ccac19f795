/**
 * FEEL syntax errors and built-in function names, as feelin (which evaluates `when`) sees them:
 * the tree is feelin's own parse, and a name is a built-in when feelin resolves it to a function.
 */
import { evaluate, parseExpression } from "feelin";
import { visibleText } from "../model/index.js";

type Tree = ReturnType<typeof parseExpression>;

/** A syntax error at an offset into the expression. */
export interface SyntaxProblem {
  readonly from: number;
  readonly message: string;
}

/** Quoted source text for a message, short and with invisible characters shown. */
function shown(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `'${visibleText(cut)}'`;
}

/**
 * The first syntax error of a parsed expression, worded as feelin's interpreter finds it (an
 * unexpected token, or the text ending inside a construct), or `undefined` when there is none.
 */
export function syntaxError(tree: Tree, text: string): SyntaxProblem | undefined {
  let found: SyntaxProblem | undefined;
  tree.iterate({
    enter(ref) {
      if (found !== undefined) return false;
      if (!ref.type.isError) return undefined;
      const node = ref.node;
      const open = openBrackets(text, node.from);
      if (open >= DEEP) {
        found = {
          from: node.from,
          message: `FEEL syntax error: nested too deeply for feelin's parser (${open.toLocaleString("en-US")} brackets are open here)`,
        };
        return false;
      }
      if (node.to > node.from) {
        found = {
          from: node.from,
          message: `FEEL syntax error: unexpected ${shown(text.slice(node.from, node.to))}`,
        };
        return false;
      }
      for (let at: typeof node | null = node; at !== null; at = at.parent) {
        const next = at.nextSibling;
        if (next !== null && next.to > next.from) {
          found = {
            from: next.from,
            message: `FEEL syntax error: unexpected ${shown(text.slice(next.from, next.to))}`,
          };
          return false;
        }
      }
      const inside = node.parent?.name ?? "Expression";
      // Incomplete, yet text follows: feelin's parser gave up on a long chain, not the author.
      if (text.slice(node.from).trim() !== "") {
        found = { from: node.from, message: chainMessage(inside) };
        return false;
      }
      found = {
        // At the last token, not after the blank lines a block scalar ends with.
        from: Math.min(node.from, text.trimEnd().length),
        message: `FEEL syntax error: the expression is incomplete${inside === "Expression" ? "" : ` (it ends inside ${words(inside)})`}`,
      };
      return false;
    },
  });
  return found;
}

/** Terms a group in parentheses may hold, for the advice on a chain feelin cannot parse. */
const GROUP = 100;

/**
 * feelin's parser (lezer) stops reading a long flat chain of `or`, `and` or arithmetic — from
 * about 170 terms of `element.id = "…"`, 500 of bare names — and reports the rest as missing,
 * though the expression is sound. Grouped in parentheses the same terms parse. Only that stop (a
 * forced exit from a left-recursive production, past 2,000 characters and 300 reductions from
 * one start: `or`, `and`, comparisons, arithmetic, paths, filters, calls) leaves an empty error
 * with text after it and nothing after it in the tree; any other error is followed by a token
 * of its own, which `syntaxError` names (test/policy/feel-syntax.test.ts).
 */
function chainMessage(inside: string): string {
  const what =
    inside === "Disjunction" ? "'or'" : inside === "Conjunction" ? "'and'" : words(inside);
  return `FEEL syntax error: feelin's parser stops reading here, inside a chain of ${what} too long for it (a few hundred terms), though the rest of the expression follows: group the terms in parentheses of at most ${GROUP}, or test one fact against many values with 'in' (element.id in ["a", "b"])`;
}

/** The most characters a rule's `when` may have. */
export const MAX_WHEN_CHARS = 10_000;

/** The most commas outside string literals (list items, context entries, arguments) it may have. */
export const MAX_WHEN_ITEMS = 1_000;

/**
 * A `when` too large to parse, found before parsing: feelin parses it again on every evaluation,
 * and its parser's time and memory grow faster than the text (a list of 20,000 ids took a minute
 * and 3 GB, a chain of 20,000 `or` exhausted the heap and aborted the process); with many
 * names bound (context entries, `some` clauses) a thousand already take most of a second.
 */
export function sizeProblem(text: string): SyntaxProblem | undefined {
  if (text.length > MAX_WHEN_CHARS) {
    return {
      from: 0,
      message: `this 'when' is ${text.length.toLocaleString("en-US")} characters long; a rule's 'when' may have at most ${MAX_WHEN_CHARS.toLocaleString("en-US")} (feelin parses it on every evaluation, in time and memory that grow faster than the text): test a naming pattern (matches()) or a lane instead of listing every name`,
    };
  }
  let items = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i += 1;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "," && ++items > MAX_WHEN_ITEMS) {
      return {
        from: i,
        message: `this 'when' has more than ${MAX_WHEN_ITEMS.toLocaleString("en-US")} list items, context entries and arguments (commas outside strings); a rule's 'when' may have at most ${MAX_WHEN_ITEMS.toLocaleString("en-US")} (feelin parses it on every evaluation, in time and memory that grow faster than the text): test a naming pattern (matches()) or a lane instead of listing every name`,
      };
    }
  }
  return undefined;
}

/**
 * Open brackets past which a syntax error is put down to the nesting: feelin's parser (lezer)
 * stops building the tree somewhere past a thousand levels (1,400 of `not(`, 2,800 of `(`), with
 * an "unexpected" token that says nothing of the cause.
 */
const DEEP = 1000;

/** How many brackets are open at `upTo`, string literals skipped. */
function openBrackets(text: string, upTo: number): number {
  let open = 0;
  let quoted = false;
  for (let i = 0; i < upTo; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i += 1;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "(" || c === "[" || c === "{") open += 1;
    else if (c === ")" || c === "]" || c === "}") open = Math.max(0, open - 1);
  }
  return open;
}

/** A grammar node's name in words: `QuantifiedExpression` → "a quantified expression". */
function words(name: string): string {
  const spaced = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${/^[aeiou]/.test(spaced) ? "an" : "a"} ${spaced}`;
}

const builtins = new Map<string, boolean>();

/** True when feelin knows `name` as a built-in function (`count`, `get value`, `date`). */
export function isBuiltin(name: string): boolean {
  let known = builtins.get(name);
  if (known === undefined) {
    // A bare name evaluates to the built-in function it names, or to null with a warning.
    try {
      known = typeof evaluate(name, {}).value === "function";
    } catch {
      known = false; // not even an expression on its own
    }
    if (builtins.size < 1024) builtins.set(name, known);
  }
  return known;
}
