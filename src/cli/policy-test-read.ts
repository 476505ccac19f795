/**
 * Reading a policy test file (`*.policytest.yaml` or `.json`): the text with the reader workflows
 * and packs use, its shape against the published schema (policy-test-schema.ts), its waivers and
 * its `today`, its `gates` and `toolEffects` (with the config's checks). Every problem is placed (`file:line:column: place: message`), and the reader hands
 * back a way to place the problems found later (a rule the packs do not have, a subject whose
 * grammar is wrong), so that each names the file and the place, as a pack's problems do.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { GateSelector, ToolEffectsMapping } from "../bpmn/index.js";
import type { TextFormat } from "../model/index.js";
import { visibleText } from "../model/index.js";
import { locatePointers, readDocumentText } from "../model/internal.js";
import type { Waiver } from "../policy/index.js";
import { waiverProblems } from "../policy/index.js";
import { placeOfPointer, pointerOfPlace } from "../policy/positions.js";
import { commonShapeProblem, kindOf, quoteValue } from "../policy/shape.js";
import { isCalendarDate } from "../policy/waivers.js";
import { POLICY_TEST_SCHEMA } from "./policy-test-schema.js";
import type { Unplaced } from "./policy-test-settings.js";
import { entryOf, settingProblems } from "./policy-test-settings.js";

/** What a test expects of its subjects, per rule. */
export type Expectation = "fail" | "pass" | "waived";

/** The expectations, in the order a result lists them and the output shows them. */
export const EXPECTATIONS: readonly Expectation[] = ["fail", "pass", "waived"];

/** One entry of `results`: a rule and the subjects expected to fail it, pass it, be waived. */
export type ResultSpec = { readonly rule: string } & Partial<
  Readonly<Record<Expectation, readonly string[]>>
>;

/** A policy test file, as its schema allows it. */
export interface PolicyTestSpec {
  readonly kind: "PolicyTest";
  readonly name: string;
  readonly description?: string;
  readonly policies: readonly string[];
  readonly registry?: readonly string[];
  readonly inputs: readonly string[];
  readonly today?: string;
  /** Gate selectors, as the config's `gates`, for every BPMN input. */
  readonly gates?: readonly GateSelector[];
  /** Camunda tool effects, as the config's `toolEffects`, for every BPMN input. */
  readonly toolEffects?: ToolEffectsMapping;
  readonly waivers?: readonly Waiver[];
  readonly results: readonly ResultSpec[];
}

export type { Unplaced } from "./policy-test-settings.js";

/** A test file that was read: its content, and where each of its places is. */
export interface ReadTest {
  readonly spec: PolicyTestSpec;
  /** `file:line:column: place: message` for each problem, in document order. */
  readonly place: (problems: readonly Unplaced[]) => string[];
}

let validate: ValidateFunction | undefined;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  object: "a mapping",
  array: "a list",
};

/** One schema error in the words of the file's author; undefined for one said elsewhere. */
function explain(error: ErrorObject): { pointer: string; message: string } | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const data: unknown = error.data;
  // Waivers are checked by waiverProblems, which words their problems as the packs' are.
  if (/^\/waivers\/\d+/.test(at)) return undefined;
  const common = commonShapeProblem(error, { words: "policy test", kind: "PolicyTest" });
  if (common !== undefined) return common;
  switch (error.keyword) {
    case "type":
      if (at === "") {
        return { pointer: at, message: `not a policy test: the document is ${kindOf(data)}` };
      }
      return {
        pointer: at,
        message: `must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}, not ${kindOf(data)}`,
      };
    case "minItems":
      return { pointer: at, message: "must not be an empty list" };
    case "minLength":
      return { pointer: at, message: "must not be empty" };
    case "oneOf":
      // Only a tool effect has alternatives; the checks of toolEffectsProblems said the rest.
      return {
        pointer: at,
        message:
          "must be an effect, or a mapping of effects by the selector's value that is not empty",
      };
    case "minProperties":
      return {
        pointer: at,
        message: /^\/results\/\d+$/.test(at)
          ? "names no subject: give fail, pass or waived"
          : "must not be an empty mapping",
      };
    case "pattern":
      return {
        pointer: at,
        message: at.endsWith("/today")
          ? `${quoteValue(data)} is not a date written YYYY-MM-DD`
          : `${quoteValue(data)} is no rule (its id, or <pack>/<id>)`,
      };
    default:
      return { pointer: at, message: error.message ?? "does not fit the policy test schema" };
  }
}

/** Problems past the schema: `today`, the waivers, the inputs, a subject listed twice. */
function laterProblems(value: Record<string, unknown>): Unplaced[] {
  const out: Unplaced[] = [];
  if (typeof value.today === "string" && !isCalendarDate(value.today)) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value.today)) {
      out.push({ place: "today", message: `"${value.today}" is not a calendar date` });
    }
  }
  const waivers: unknown[] = Array.isArray(value.waivers) ? value.waivers : [];
  waivers.forEach((waiver, i) => {
    for (const line of waiverProblems(waiver, `waivers[${i}]`)) {
      const colon = line.indexOf(": ");
      out.push({ place: line.slice(0, colon), message: line.slice(colon + 2) });
    }
  });
  const inputs: unknown[] = Array.isArray(value.inputs) ? value.inputs : [];
  const seen = new Map<string, number>();
  inputs.forEach((input, i) => {
    if (typeof input !== "string") return;
    // A subject is `<input>#<name>`, cut at its first '#': an input may not hold one.
    if (input.includes("#")) {
      out.push({ place: `inputs[${i}]`, message: "an input's path may not hold '#'" });
    }
    const first = seen.get(input);
    if (first !== undefined) {
      out.push({ place: `inputs[${i}]`, message: `listed twice (also inputs[${first}])` });
    } else seen.set(input, i);
  });
  return out;
}

/** Every place of a subject listed again for one rule. */
function duplicateSubjects(spec: PolicyTestSpec): Unplaced[] {
  const out: Unplaced[] = [];
  spec.results.forEach((result, r) => {
    const seen = new Map<string, string>();
    for (const expectation of EXPECTATIONS) {
      (result[expectation] ?? []).forEach((subject, i) => {
        const place = `results[${r}].${expectation}[${i}]`;
        const first = seen.get(subject);
        if (first === undefined) seen.set(subject, place);
        else out.push({ place, message: `${quoteValue(subject)} is listed twice (also ${first})` });
      });
    }
  });
  return out;
}

/** Places problems in the text: `file:line:column: place: message`, in document order. */
function placer(source: string, text: string, format: TextFormat) {
  return (problems: readonly Unplaced[]): string[] => {
    const pointers = problems.map((p) => p.pointer ?? pointerOfPlace(p.place));
    const located = locatePointers(text, format, pointers);
    const lines = problems.map((p, i) => {
      const at = located.get(pointers[i] ?? "");
      const where = at === undefined ? "" : `:${at.line}:${at.column}`;
      const place = p.place === "" ? "" : `${p.place}: `;
      const order = at === undefined ? 0 : at.line * 1e7 + at.column;
      const line = `${source}${where}: ${place}${p.message}`;
      return { order, i, line: line.split("\n").map(visibleText).join("\n") };
    });
    lines.sort((a, b) => a.order - b.order || a.i - b.i);
    return lines.map((l) => l.line);
  };
}

/**
 * Reads a test file's text; `source` names it in problems. Gives the test, or every problem
 * found (the reader's, the schema's, then the checks past it).
 */
export function readPolicyTest(
  text: string,
  source: string,
): { readonly test: ReadTest } | { readonly problems: readonly string[] } {
  const read = readDocumentText(text);
  if (!read.ok) {
    return {
      problems: read.problems.map((p) =>
        visibleText(
          `${source}:${p.location.line}:${p.location.column}: cannot be read as YAML or JSON: ${p.message}`,
        ),
      ),
    };
  }
  const place = placer(source, text, read.format);
  validate ??= new Ajv2020({ strict: true, allErrors: true, verbose: true }).compile(
    POLICY_TEST_SCHEMA,
  );
  const problems: Unplaced[] = [];
  const value = read.value;
  const record =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const settings = record === undefined ? undefined : settingProblems(record);
  if (!validate(value)) {
    const seen = new Set<string>();
    const errors = validate.errors ?? [];
    // A oneOf's own error says what the value may be; its branches' errors there say half.
    const alternatives = new Set(
      errors.filter((e) => e.keyword === "oneOf").map((e) => e.instancePath),
    );
    for (const error of errors) {
      if (error.keyword !== "oneOf" && alternatives.has(error.instancePath)) continue;
      const name = error.propertyName ?? (error.params as { propertyName?: unknown }).propertyName;
      const at =
        typeof name === "string"
          ? `${error.instancePath}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`
          : error.instancePath;
      if (settings?.spoken.has(entryOf(at)) === true) continue;
      const problem = explain(error);
      if (problem === undefined) continue;
      const key = `${problem.pointer}\u0000${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({
        place: placeOfPointer(problem.pointer),
        message: problem.message,
        pointer: problem.pointer,
      });
    }
  }
  if (record !== undefined) problems.push(...laterProblems(record));
  problems.push(...(settings?.problems ?? []));
  if (problems.length > 0) return { problems: place(problems) };
  const spec = value as PolicyTestSpec;
  const duplicates = duplicateSubjects(spec);
  if (duplicates.length > 0) return { problems: place(duplicates) };
  return {
    test: {
      spec,
      place,
    },
  };
}
