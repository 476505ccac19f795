/**
 * A pack's shape against its published schema (pack-schema.ts), with Ajv 2020 in strict mode as
 * the config is checked, every error found (not only the first) and worded for the compliance
 * team that wrote the file: "unknown subject 'agent' (subjects: …)", not "must be equal to one of
 * the allowed values".
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { visibleText } from "../model/index.js";
import {
  DATE_PATTERN,
  PACK_NAME_PATTERN,
  PACK_SCHEMA_AJV_OPTIONS,
  POLICY_PACK_SCHEMA,
  RULE_ID_PATTERN,
} from "./pack-schema.js";

/** One shape problem, at a JSON Pointer into the pack. */
export interface ShapeProblem {
  readonly pointer: string;
  readonly message: string;
  /**
   * A number or a boolean where a string belongs: the value, for {@link quoteHint}, which the
   * reader words from the text as written when it has the text (`1.0`, which the value `1` has
   * lost).
   */
  readonly quote?: number | boolean;
}

/** A YAML or JSON number or boolean as written (`1.0`, `0x1F`, `.5`, `True`, `1e3`). */
const WRITTEN_SCALAR = /^(?:[-+]?(?:\.?\d[\w.+-]*|\.inf)|\.nan|true|false)$/i;

/**
 * The advice for a number or a boolean where a string belongs: quote it as written, when
 * `written` (the scalar's text in the file) is one; else as the value reads.
 */
export function quoteHint(value: number | boolean, written?: string): string {
  const text = written !== undefined && WRITTEN_SCALAR.test(written) ? written : String(value);
  return ` (quote it: ${JSON.stringify(text)})`;
}

let validate: ValidateFunction | undefined;

/** A value shown in a message: JSON, short, invisible characters made visible. */
export function quoteValue(value: unknown): string {
  let json: string;
  try {
    // `undefined` (and a function) has no JSON text.
    const written = JSON.stringify(value) as string | undefined;
    json = written ?? String(value);
  } catch {
    json = String(value);
  }
  return visibleText(json.length > 60 ? `${json.slice(0, 60)}…` : json);
}

/** What a value is, for "must be a string, not a number". */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  object: "a mapping",
  array: "a list",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
};

const ENUM_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  for: ["subject", "subjects"],
  severity: ["severity", "severities"],
};

const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [PACK_NAME_PATTERN]:
    "is no pack name (lowercase letters, digits, '.', '_' and '-', starting with a letter or digit)",
  [RULE_ID_PATTERN]:
    "is no rule id (letters, digits, '_' and '-', starting with a letter or digit)",
  [DATE_PATTERN]: "is not a date written YYYY-MM-DD",
};

/** The last token of a pointer: the key an error is about. */
const lastKey = (pointer: string): string => pointer.slice(pointer.lastIndexOf("/") + 1);

/**
 * The words for the schema errors every policy document shares (a missing or unknown key, a
 * wrong `kind`), in the author's terms; `undefined` for the others, which each reader words.
 */
export function commonShapeProblem(
  error: ErrorObject,
  document: { readonly words: string; readonly kind: string },
): ShapeProblem | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  switch (error.keyword) {
    case "required":
      return { pointer: at, message: `missing '${String(params.missingProperty)}'` };
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(schema?.properties ?? {}).filter((k) => k !== "$schema");
      return {
        pointer: `${at}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
        message: `unknown key ${quoteValue(name)} (keys here: ${known.join(", ")})`,
      };
    }
    case "const":
      return {
        pointer: at,
        message: `not a ${document.words}: kind is ${quoteValue(error.data)}, expected "${document.kind}"`,
      };
    default:
      return undefined;
  }
}

function explain(error: ErrorObject): ShapeProblem {
  const common = commonShapeProblem(error, { words: "policy pack", kind: "PolicyPack" });
  if (common !== undefined) return common;
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const data: unknown = error.data;
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  switch (error.keyword) {
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String).join(", ");
      const words = ENUM_WORDS[lastKey(at)];
      const message =
        words === undefined
          ? `${quoteValue(data)} is not one of ${allowed}`
          : `unknown ${words[0]} ${quoteValue(data)} (${words[1]}: ${allowed})`;
      return { pointer: at, message };
    }
    case "type": {
      if (at === "") {
        return {
          pointer: at,
          message: `not a policy pack: the document is ${kindOf(data)}, not a mapping`,
        };
      }
      if (schema?.type === "integer")
        return { pointer: at, message: `must be a non-negative integer, not ${quoteValue(data)}` };
      const wanted = TYPE_WORDS[String(params.type)] ?? String(params.type);
      const message = `must be ${wanted}, not ${kindOf(data)}`;
      const quotable =
        params.type === "string" && (typeof data === "number" || typeof data === "boolean");
      return quotable ? { pointer: at, message, quote: data } : { pointer: at, message };
    }
    case "minimum":
      return { pointer: at, message: `must be a non-negative integer, not ${quoteValue(data)}` };
    case "minLength":
      return { pointer: at, message: "must not be empty" };
    case "pattern":
      return {
        pointer: at,
        message: `${quoteValue(data)} ${PATTERN_WORDS[String(params.pattern)] ?? `does not match ${String(params.pattern)}`}`,
      };
    case "minProperties":
      return { pointer: at, message: "is empty: give at least one of min, distinctRoles, roles" };
    case "minItems":
      return { pointer: at, message: "must name at least one role" };
    case "uniqueItems":
      return {
        pointer: at,
        message: `names the same role twice (items ${String(params.j)} and ${String(params.i)})`,
      };
    case "dependentRequired":
      return {
        pointer: at,
        message: `'${String(params.property)}' needs '${String(params.missingProperty)}' (the process it is in)`,
      };
    default:
      return { pointer: at, message: error.message ?? "does not fit the policy pack schema" };
  }
}

/** Every way `value` does not fit the pack schema, in the schema's order; empty when it fits. */
export function shapeProblems(value: unknown): ShapeProblem[] {
  validate ??= new Ajv2020({ ...PACK_SCHEMA_AJV_OPTIONS }).compile(POLICY_PACK_SCHEMA);
  if (validate(value)) return [];
  const out: ShapeProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = explain(error);
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out;
}
