/**
 * What agentflow knows of FEEL's built-in functions, in one table: the type of value a call
 * gives, for the static check of `when` (feel-check.ts); whether it gives a value of fixed size
 * reading each argument once at most, for the cost bound (feel-cost.ts); and whether it reads
 * every field of its argument. Which names are built-ins at all is feelin's to say
 * (feel-syntax.ts).
 */
import type { FactType } from "./fact-types.js";

/** What one built-in gives and reads. */
export interface Builtin {
  /** The one FEEL type its result has whatever its arguments (besides null); else unset. */
  readonly gives?: FactType;
  /** It gives a number, a boolean, a date or a short name, and reads each argument once. */
  readonly fixedSize: boolean;
  /** It reads every field of its argument, so a policy naming it reads a whole subject. */
  readonly introspects: boolean;
}

/** A boolean. */
export const BOOLEAN: FactType = { kind: "scalar", label: "a boolean", base: "boolean" };
/** FEEL's one number type. */
export const NUMBER: FactType = { kind: "scalar", label: "a number", base: "number" };
/** FEEL strings. */
export const STRING: FactType = { kind: "scalar", label: "a string", base: "string" };
/** A date. */
export const DATE: FactType = { kind: "scalar", label: "a date", base: "date" };
/** A time of day. */
export const TIME: FactType = { kind: "scalar", label: "a time", base: "time" };
/** A date and time. */
export const DATE_TIME: FactType = {
  kind: "scalar",
  label: "a date and time",
  base: "date and time",
};
/** Either FEEL duration. */
export const DURATION: FactType = { kind: "scalar", label: "a duration", base: "duration" };

function group(
  names: readonly string[],
  gives: FactType | undefined,
  fixedSize: boolean,
): (readonly [string, Builtin])[] {
  return names.map((name) => [
    name,
    gives === undefined
      ? { fixedSize, introspects: false }
      : { gives, fixedSize, introspects: false },
  ]);
}

const NUMBERS = [
  "count",
  "sum",
  "product",
  "mean",
  "median",
  "stddev",
  "abs",
  "floor",
  "ceiling",
  "decimal",
  "round up",
  "round down",
  "round half up",
  "round half down",
  "modulo",
  "sqrt",
  "log",
  "exp",
  "string length",
  "number",
  "day of year",
  "week of year",
];
const BOOLEANS = [
  "contains",
  "starts with",
  "ends with",
  "matches",
  "list contains",
  "all",
  "any",
  "not",
  "even",
  "odd",
];
/** Booleans by FEEL's range relations and `is`; left untyped. */
const RELATIONS = [
  "is",
  "before",
  "after",
  "meets",
  "met by",
  "overlaps",
  "overlaps before",
  "overlaps after",
  "finishes",
  "finished by",
  "includes",
  "during",
  "starts",
  "started by",
  "coincides",
];
const STRINGS = [
  "string",
  "upper case",
  "lower case",
  "substring",
  "substring before",
  "substring after",
  "replace",
  "string join",
];
const READ_WHOLE = [
  "get value",
  "get entries",
  "context",
  "context put",
  "context merge",
  "string",
  "distinct values",
  "union",
  "index of",
  "list contains",
];

const table = new Map<string, Builtin>([
  ...group(NUMBERS, NUMBER, true),
  ...group(BOOLEANS, BOOLEAN, true),
  ...group(RELATIONS, undefined, true),
  ...group(STRINGS, STRING, false),
  ...group(["day of week", "month of year"], STRING, true),
  ...group(["today", "date"], DATE, true),
  ...group(["now", "date and time"], DATE_TIME, true),
  ...group(["time"], TIME, true),
  ...group(["duration", "years and months duration"], DURATION, true),
]);
for (const name of READ_WHOLE) {
  table.set(name, { ...(table.get(name) ?? { fixedSize: false }), introspects: true });
}

/** The built-ins agentflow knows more of than their names, by name. */
export const BUILTINS: ReadonlyMap<string, Builtin> = table;
