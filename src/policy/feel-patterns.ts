/**
 * The regular expressions a `when` matches with (`matches`, `replace`, `split`). feelin runs them
 * with JavaScript's backtracking engine, which cannot be stopped: a pattern such as
 * `^(\w+\s?)*$` takes time exponential in the length of the string it is tried on, and the
 * strings are facts read from processes and workflows written elsewhere, so an element's name
 * could hang a gate. A pattern must therefore be a string literal (a fact's text as a pattern
 * could be any pattern), and redos-detector must find that it cannot backtrack without bound, for
 * the flags given (literals too). Checked once, when the pack compiles.
 */
import { isSafePattern } from "redos-detector";
import type { Node } from "./feel-tree.js";
import { argumentsOf, calleeName, PARAMETERS, stringValue } from "./feel-tree.js";

/** A problem at an offset into the expression. */
export interface PatternProblem {
  readonly from: number;
  readonly message: string;
}

/** The built-ins that take a pattern: its argument's index, and the flags' (if any). */
const PATTERN_ARGUMENTS: ReadonlyMap<string, { pattern: number; flags?: number }> = new Map([
  ["matches", { pattern: 1, flags: 2 }],
  ["replace", { pattern: 1, flags: 3 }],
  ["split", { pattern: 1 }],
]);

/**
 * What case-insensitive matching in unicode mode adds beyond ASCII: `K` (U+212A) folds to `k`,
 * `ſ` (U+017F) to `s`, and `\w` or a class of letters then match them too; redos-detector reads
 * a pattern case-insensitively only without unicode mode. A pattern of ASCII characters that
 * names no other character (`\u`, `\x`, `\p`) backtracks the same either way.
 */
const BEYOND_ASCII = /[^\x20-\x7e]|\\[uxpP]/;

/**
 * How far redos-detector follows a pattern's paths before it gives up (it then calls the pattern
 * unsafe): a bound on steps, not on time, so that a pack compiles the same on any machine.
 */
const MAX_STEPS = 5000;

/**
 * Whether redos-detector finds `pattern` cannot backtrack without bound under `flags`, as feelin
 * runs it (always in unicode mode). redos-detector reads a pattern in unicode mode or case
 * insensitively, not both: with `i`, the pattern must be safe both ways.
 */
function isSafe(pattern: string, flags: string): boolean {
  const base = {
    dotAll: flags.includes("s"),
    multiLine: flags.includes("m"),
    maxSteps: MAX_STEPS,
    timeout: Number.POSITIVE_INFINITY,
  };
  const modes = flags.includes("i")
    ? [{ unicode: true }, { caseInsensitive: true }]
    : [{ unicode: true }];
  try {
    return modes.every((mode) => isSafePattern(pattern, { ...base, ...mode }).safe);
  } catch {
    // Not a pattern redos-detector can read (nor, mostly, JavaScript): it cannot be shown to end.
    return false;
  }
}

/**
 * The problems of a call's pattern, when `call` is a `FunctionInvocation` of a built-in that
 * takes one; none for any other node. `shadowed` says a name in scope hides the built-in.
 */
export function patternProblems(
  call: Node,
  text: string,
  shadowed: (name: string) => boolean,
): PatternProblem[] {
  const name = calleeName(call, text);
  const places = name === undefined || shadowed(name) ? undefined : PATTERN_ARGUMENTS.get(name);
  if (name === undefined || places === undefined) return [];
  const args = argumentsOf(call, PARAMETERS.get(name), text);
  const patternNode = args[places.pattern];
  if (patternNode === undefined) return [];
  const pattern = stringValue(patternNode, text);
  if (pattern === undefined) {
    return [
      {
        from: patternNode.from,
        message: `${name}'s pattern must be a string literal: a pattern read from the facts could backtrack without end, and feelin cannot stop it`,
      },
    ];
  }
  const flagsNode = places.flags === undefined ? undefined : args[places.flags];
  const flags = flagsNode === undefined ? "" : stringValue(flagsNode, text);
  if (flags === undefined) {
    return [
      { from: flagsNode?.from ?? call.from, message: `${name}'s flags must be a string literal` },
    ];
  }
  if (flags.includes("i") && BEYOND_ASCII.test(pattern)) {
    return [
      {
        from: patternNode.from,
        message: `${name}'s pattern ${JSON.stringify(pattern)} with flag i names characters beyond ASCII: feelin matches case-insensitively in unicode mode, where they fold into others (K, U+212A, into k), and that cannot be checked not to backtrack without bound`,
      },
    ];
  }
  if (isSafe(pattern, flags)) return [];
  return [
    {
      from: patternNode.from,
      message: `${name}'s pattern ${JSON.stringify(pattern)} can backtrack without bound on a long string (redos-detector), which feelin cannot stop: anchor it (^…$) and make each part match one way`,
    },
  ];
}
