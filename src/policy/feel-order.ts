/**
 * Ordering comparisons of values of different types, caught while a `when` runs. FEEL orders no
 * two values of different types (`1 < "5"` is null), but feelin compares them with JavaScript's
 * `<`: `1 < "5"` and `today() >= "2090-01-01"` are `true`, so a rule whose types the static
 * check cannot know (a function's result, an `if`, arithmetic) would pass or fire by accident.
 *
 * Every ordering feelin does — `<`, `<=`, `>`, `>=`, `between`, `in` an interval or a unary test
 * — asks a range (`FeelRange`, which feelin exports) whether it includes the value. The range
 * knows the type of its bounds, so its `includes` is wrapped, once, on the first evaluation (not
 * when the module loads: bundlers may treat this package's modules as free of side effects):
 * while {@link watchOrdering} runs, a value of another type makes the comparison null and is
 * recorded, and the evaluation is then undecided (feel.ts). Outside it — another user of feelin
 * in the same process — `includes` behaves exactly as feelin's own. feelin evaluates
 * synchronously, so one flag is enough.
 */
import { FeelDate, FeelDateTime, FeelDuration, FeelRange, FeelTime } from "feelin";

/** What an evaluation found: the first ordering of two types, in words, if any. */
let watching = false;
let mixed: string | undefined;

/** The FEEL type of a value, as feelin names a range's (`valueType`); undefined for null. */
function feelType(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number") return "number";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  if (value instanceof FeelDateTime) return "date time";
  if (value instanceof FeelDate) return "date";
  if (value instanceof FeelTime) return "time";
  if (value instanceof FeelDuration) return "duration";
  if (value instanceof FeelRange) return "range";
  return Array.isArray(value) ? "list" : typeof value === "function" ? "function" : "context";
}

/** A FEEL type in words, with its article. */
const words = (type: string): string =>
  type === "date time" ? "a date and time" : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;

let wrapped = false;

/** Wraps `FeelRange.prototype.includes` (once) to see what each ordering compares. */
function wrapIncludes(): void {
  if (wrapped) return;
  wrapped = true;
  // Read as a property, not a method: it is called back with each range as `this`.
  const includes = Reflect.get(FeelRange.prototype, "includes") as (
    this: FeelRange,
    value: unknown,
  ) => boolean | null;
  FeelRange.prototype.includes = function (this: FeelRange, value: unknown): boolean | null {
    if (watching) {
      const bound = this.valueType;
      const type = feelType(value);
      // A range in a range is feelin's own relation, not an ordering of two values.
      if (bound !== null && type !== undefined && type !== "range" && type !== bound) {
        mixed ??= `it orders ${words(type)} against ${words(bound)}, which FEEL cannot compare`;
        return null;
      }
    }
    return includes.call(this, value);
  };
}

/**
 * Runs `evaluate` (a feelin evaluation) and says whether it ordered two values of different
 * types: `mixed` is then why the result cannot be trusted.
 */
export function watchOrdering<T>(evaluate: () => T): {
  readonly result: T;
  readonly mixed?: string;
} {
  wrapIncludes();
  // `mixed` is undefined here: every evaluation leaves it so (below).
  watching = true;
  try {
    const result = evaluate();
    return mixed === undefined ? { result } : { result, mixed };
  } finally {
    watching = false;
    mixed = undefined;
  }
}
