/**
 * Checking and normalising what callers pass to the simulator. Wrong *types* are API misuse and
 * throw a TypeError at once; plausible mistakes in the data (a fixture for a node that does not
 * exist, a label no route has) are returned by {@link lintSimulationOptions} for a CLI to print.
 */
import type { AgentWorkflow, Budget } from "../model/index.js";
import { escapePointerToken as escape, flowGraph } from "../model/index.js";
import { isPlainJson, jsonCopy } from "./json.js";
import { DEFAULT_MAX_STEPS, MAX_STEPS_LIMIT, OptionTypeError } from "./limits.js";
import type { DecideTable, Fixtures, JsonObject, MachineInput, NodeFixture } from "./types.js";

/** A problem with simulation options that does not prevent a run. */
export interface OptionProblem {
  /** JSON Pointer into the options object (`/fixtures/llm-9`, `/decide/dec-3/1`). */
  readonly path: string;
  readonly message: string;
}

const at = (...tokens: readonly (string | number)[]): string =>
  tokens.map((t) => `/${escape(t)}`).join("");

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * A detached JSON copy, so that only JSON (what a fixture file can hold) enters the run, and a
 * caller mutating what it passed cannot change a returned state through the copy. Any depth
 * is accepted: a 10,000-deep output is valid JSON. `path`, when given, says where the value is in
 * the options (the error is then an {@link OptionTypeError}).
 */
function jsonObject(value: unknown, what: string, path?: string): JsonObject {
  const fail = (message: string) =>
    path === undefined ? new TypeError(message) : new OptionTypeError(path, message);
  if (!isRecord(value)) throw fail(`${what} must be a JSON object`);
  let copy: unknown;
  try {
    copy = jsonCopy(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw fail(`${what} must be a JSON object: ${why}`);
  }
  // toJSON may turn an object into something else.
  if (!isRecord(copy)) throw fail(`${what} must be a JSON object`);
  return copy;
}

/** Own-property lookup: node ids such as `constructor` must not find `Object.prototype` members. */
export function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets an own enumerable property, even for the key `__proto__`. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Each own enumerable key of `source` defined on `target`, in order, as a spread defines it
 * (`__proto__` as an own property, not the prototype); returns `target`. A run merges each output
 * into its merged output this way, in place, and explore copies a merged output the same way.
 */
export function assignOwn(target: JsonObject, source: JsonObject): JsonObject {
  // for-in with an own check lists what Object.keys lists, in its order, without the array.
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    // Only `__proto__` is a setter on Object.prototype; every other key may be assigned.
    if (key === "__proto__") setOwn(target, key, source[key]);
    else (target as Record<string, unknown>)[key] = source[key];
  }
  return target;
}

/** The outputs of a fixture after its type checks; `undefined` when it has none. */
function checkedOutputs(nodeId: string, fixture: unknown): readonly unknown[] | undefined {
  if (!isRecord(fixture))
    throw new OptionTypeError(at("fixtures", nodeId), `fixtures["${nodeId}"] must be an object`);
  const { outputs, fails } = fixture;
  if (outputs !== undefined && !Array.isArray(outputs)) {
    throw new OptionTypeError(
      at("fixtures", nodeId, "outputs"),
      `fixtures["${nodeId}"].outputs must be an array of objects`,
    );
  }
  if (fails !== undefined && !isCount(fails)) {
    throw new OptionTypeError(
      at("fixtures", nodeId, "fails"),
      `fixtures["${nodeId}"].fails must be a non-negative integer`,
    );
  }
  const list = outputs as readonly unknown[] | undefined;
  // A loop, not forEach: a run checks a fixture a step, and the callback was its garbage.
  for (let i = 0; i < (list?.length ?? 0); i++) {
    if (!isRecord(list?.[i])) {
      throw new OptionTypeError(
        at("fixtures", nodeId, "outputs", i),
        `fixtures["${nodeId}"].outputs[${String(i)}] must be a JSON object`,
      );
    }
  }
  return list;
}

/**
 * Output `i` of node `nodeId`'s fixture as a run uses it: the caller's object itself when it is
 * plain JSON data ({@link isPlainJson}) — a run reads outputs and never writes them, so a copy
 * would only be an equal object for the garbage collector to trace — else its JSON copy
 * ({@link copiedOutput}), which also refuses what JSON cannot hold.
 */
export function usedOutput(nodeId: string, output: unknown, i: number): JsonObject {
  return isPlainJson(output) && isRecord(output) ? output : copiedOutput(nodeId, output, i);
}

/**
 * Output `i` of node `nodeId`'s fixture, copied. The copy is tried first, and the text and the
 * pointer that name the output are built only when it fails, not for every output.
 */
export function copiedOutput(nodeId: string, output: unknown, i: number): JsonObject {
  try {
    const copy = jsonCopy(output);
    if (isRecord(copy)) return copy;
  } catch {
    // Named below.
  }
  return jsonObject(
    output,
    `fixtures["${nodeId}"].outputs[${String(i)}]`,
    at("fixtures", nodeId, "outputs", i),
  );
}

/**
 * The fixtures table, checked to be an object keyed by node id (`{}` when there are none); each
 * fixture in it is checked by {@link checkedFixture}. @throws TypeError when it is not an object.
 */
export function fixtureTable(fixtures: unknown): Readonly<Record<string, unknown>> {
  if (fixtures === undefined) return {};
  if (!isRecord(fixtures))
    throw new OptionTypeError("/fixtures", "fixtures must be an object keyed by node id");
  return fixtures;
}

/**
 * One node's fixture checked, not copied: an object whose `outputs`, if any, is an array of
 * objects and whose `fails`, if any, a count. Its outputs are the caller's, to check when used
 * ({@link usedOutput}). @throws OptionTypeError on a value of the wrong type.
 */
export function checkedFixture(nodeId: string, fixture: unknown): NodeFixture {
  checkedOutputs(nodeId, fixture);
  return fixture as NodeFixture;
}

/**
 * One node's fixture, checked and copied: a detached JSON copy of each output, so that a caller
 * mutating its fixtures after the run cannot change a returned state, and only JSON (what a
 * fixture file can hold) enters the run. @throws TypeError (an {@link OptionTypeError} where the
 * place is known) on a value of the wrong type or without a JSON form.
 */
export function normalizeFixture(nodeId: string, fixture: unknown): NodeFixture {
  const list = checkedFixture(nodeId, fixture).outputs;
  const outputs = list?.map((output, i) => copiedOutput(nodeId, output, i));
  const fails = (fixture as { fails?: number }).fails;
  if (fails === undefined) return outputs === undefined ? {} : { outputs };
  return outputs === undefined ? { fails } : { outputs, fails };
}

/**
 * Every fixture checked and copied ({@link normalizeFixture}), in a null-prototype table, so that
 * a node id `__proto__` is an ordinary key. @throws TypeError on a value of the wrong type.
 */
export function normalizeFixtures(fixtures: unknown): Fixtures {
  const table = fixtureTable(fixtures);
  const out = Object.create(null) as Record<string, NodeFixture>;
  for (const nodeId of Object.keys(table)) out[nodeId] = normalizeFixture(nodeId, table[nodeId]);
  return out;
}

/** Validates and copies a decide table. @throws TypeError on a value of the wrong type. */
export function normalizeDecide(decide: unknown): DecideTable {
  if (decide === undefined) return {};
  if (!isRecord(decide))
    throw new OptionTypeError("/decide", "decide must be an object keyed by decision id");
  const out: Record<string, readonly string[]> = Object.create(null) as Record<
    string,
    readonly string[]
  >;
  for (const [nodeId, labels] of Object.entries(decide)) {
    const list: readonly unknown[] = Array.isArray(labels) ? labels : [];
    const strings = list.filter((l): l is string => typeof l === "string");
    if (!Array.isArray(labels) || strings.length !== list.length) {
      throw new OptionTypeError(
        at("decide", nodeId),
        `decide["${nodeId}"] must be an array of route labels`,
      );
    }
    // A null-prototype object has no `__proto__` setter: the assignment defines the key.
    out[nodeId] = strings;
  }
  return out;
}

/** Validates a budget object. @throws TypeError on a limit that is not a non-negative number. */
export function normalizeBudget(budget: unknown, what: string): Budget {
  if (budget === undefined) return {};
  if (!isRecord(budget)) throw new TypeError(`${what} must be an object`);
  for (const [key, value] of Object.entries(budget)) {
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`${what}.${key} must be a non-negative finite number`);
    }
  }
  return budget as Budget;
}

/** Inputs {@link copiedInput} made: the runs of one exploration share a copy, made once. */
const copies = new WeakSet();

/**
 * A checked copy of a workflow input that {@link normalizeInput} takes as it is: explore's runs
 * would otherwise copy an input of 100,000 fields once per run. @throws TypeError on misuse.
 */
export function copiedInput(input: unknown): JsonObject {
  const copy = jsonObject(input, "input");
  copies.add(copy);
  return copy;
}

/** The machine input with every part checked and copied. @throws TypeError on misuse. */
export function normalizeInput(input: unknown): Required<Omit<MachineInput, "maxSteps">> & {
  readonly maxSteps: number;
} {
  const value: unknown = input ?? {};
  if (!isRecord(value)) throw new TypeError("the machine input must be an object");
  const maxSteps = value.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!isCount(maxSteps)) {
    throw new OptionTypeError("/maxSteps", "maxSteps must be a non-negative integer");
  }
  if (maxSteps > MAX_STEPS_LIMIT) {
    throw new OptionTypeError(
      "/maxSteps",
      `maxSteps must be at most ${String(MAX_STEPS_LIMIT)} (a run holds a record per step)`,
    );
  }
  const strictParams = value.strictParams ?? false;
  if (typeof strictParams !== "boolean") {
    throw new OptionTypeError("/strictParams", "strictParams must be a boolean");
  }
  return {
    strictParams,
    input:
      value.input === undefined
        ? {}
        : isRecord(value.input) && copies.has(value.input)
          ? value.input
          : jsonObject(value.input, "input"),
    decide: normalizeDecide(value.decide),
    budget: normalizeBudget(value.budget, "budget"),
    maxSteps,
  };
}

/** The fields of a node's fixture: any other is ignored by a run. */
const FIXTURE_FIELDS: readonly string[] = ["outputs", "fails"];

/**
 * Mistakes in fixtures and `decide` that do not stop a run but are almost certainly typos: an id
 * that is not a node, a fixture field that is none (`ouputs`), a fixture on a decision (decisions never execute), `decide` on a node that
 * is not a decision, a label that is not one of the decision's routes. Document order of the
 * options object. Every output is copied here, where a run copies only the ones it uses: call it
 * before a run to refuse a fixtures object holding what JSON cannot anywhere.
 * @throws TypeError when fixtures or decide have the wrong type.
 *
 * @example
 * ```ts
 * import { getTemplate } from "agentflow/model";
 * import { lintSimulationOptions } from "agentflow/simulate";
 *
 * const research = getTemplate("research");
 * if (research === undefined) throw new Error("no such template");
 * lintSimulationOptions(research, { fixtures: { ghost: { outputs: [] } } });
 * // → [{ path: "/fixtures/ghost", message: '"ghost" is not a node' }]
 * ```
 */
export function lintSimulationOptions(
  wf: AgentWorkflow,
  options: { readonly fixtures?: unknown; readonly decide?: unknown },
): OptionProblem[] {
  const graph = flowGraph(wf);
  const problems: OptionProblem[] = [];
  const nodeAt = (id: string) => {
    const k = graph.index.get(id);
    return k === undefined ? undefined : graph.nodes[k];
  };
  for (const nodeId of Object.keys(normalizeFixtures(options.fixtures))) {
    const node = nodeAt(nodeId);
    const path = `/fixtures/${escape(nodeId)}`;
    if (node === undefined) problems.push({ path, message: `"${nodeId}" is not a node` });
    else if (node.type === "decision") {
      problems.push({ path, message: `"${nodeId}" is a decision; decisions never execute` });
    }
    // A misspelt field (`ouputs`, `fail`) is ignored by the run: the node outputs `{}` and the
    // failure the fixture meant to test never happens.
    const fixture = (options.fixtures as Readonly<Record<string, unknown>>)[nodeId];
    for (const key of isRecord(fixture) ? Object.keys(fixture) : []) {
      if (!FIXTURE_FIELDS.includes(key)) {
        problems.push({
          path: `${path}/${escape(key)}`,
          message: `"${key}" is not a fixture field (${FIXTURE_FIELDS.join(", ")})`,
        });
      }
    }
  }
  for (const [nodeId, labels] of Object.entries(normalizeDecide(options.decide))) {
    const k = graph.index.get(nodeId);
    const path = `/decide/${escape(nodeId)}`;
    if (k === undefined) {
      problems.push({ path, message: `"${nodeId}" is not a node` });
      continue;
    }
    if (graph.nodes[k]?.type !== "decision") {
      problems.push({ path, message: `"${nodeId}" is not a decision` });
      continue;
    }
    const known = (graph.routes[k] ?? []).map((r) => r.label);
    labels.forEach((label, i) => {
      if (!known.includes(label)) {
        problems.push({
          path: `${path}/${i}`,
          message: `"${label}" is not a route of "${nodeId}" (${known.join(", ")})`,
        });
      }
    });
  }
  return problems;
}
