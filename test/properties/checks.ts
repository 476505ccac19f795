/**
 * Shape checks shared by the property suites, the adversarial corpus and the fuzz script. They
 * throw `AssertionError`s from `node:assert`, so that they work inside and outside vitest.
 */
import assert from "node:assert/strict";
import type { Format, InteropWarning } from "../../src/interop/index.js";
import { ImportError } from "../../src/interop/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import { parseWorkflow } from "../../src/model/index.js";
import { RULE_CRASHED } from "../../src/validate/index.js";

const CODE = /^[A-Z][A-Z0-9_]*$/;
const SEVERITIES: ReadonlySet<string> = new Set(["error", "warning", "info"]);

function isPointer(path: unknown): boolean {
  return typeof path === "string" && (path === "" || path.startsWith("/"));
}

/** Fields read as `unknown`: the checks are about what arrives at run time, not the types. */
type Loose = Readonly<Record<string, unknown>>;

function isLoose(value: unknown): value is Loose {
  return typeof value === "object" && value !== null;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.slice(0, 200) : typeof value;
}

function isPosition(value: unknown): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

function assertTarget(target: unknown, at: string): void {
  assert.ok(isLoose(target), `${at}: no target`);
  switch (target.kind) {
    case "workflow":
      return;
    case "node":
      assert.equal(typeof target.nodeId, "string", `${at}: node target without a nodeId`);
      return;
    case "edge":
      assert.ok(
        typeof target.index === "number" && Number.isSafeInteger(target.index) && target.index >= 0,
        `${at}: edge index`,
      );
      assert.ok(typeof target.from === "string" && typeof target.to === "string", `${at}: edge`);
      return;
    case "bpmn-element":
      assert.equal(typeof target.elementId, "string", `${at}: element target without an id`);
      return;
    default:
      assert.fail(`${at}: unknown target kind ${text(target.kind)}`);
  }
}

/**
 * Every diagnostic has the one shape of SPEC 3 (code, severity, message, target, pointer, data,
 * optional 1-based location) and none reports a crashed rule.
 */
export function assertDiagnostics(diagnostics: readonly Diagnostic[], where: string): void {
  const list: unknown = diagnostics;
  assert.ok(Array.isArray(list), `${where}: diagnostics is not an array`);
  for (const d of list as readonly unknown[]) {
    assert.ok(isLoose(d), `${where}: a diagnostic is not an object`);
    const at = `${where}: ${text(d.code)} at '${text(d.path)}'`;
    assert.ok(typeof d.code === "string" && CODE.test(d.code), `${at}: code`);
    assert.notEqual(d.code, RULE_CRASHED, `${at}: ${text(d.message)}`);
    assert.ok(typeof d.severity === "string" && SEVERITIES.has(d.severity), `${at}: severity`);
    assert.ok(typeof d.message === "string" && d.message.length > 0, `${at}: message`);
    assertTarget(d.target, at);
    assert.ok(isPointer(d.path), `${at}: path is not a JSON Pointer`);
    assert.ok(isLoose(d.data), `${at}: data is not an object`);
    if (d.location !== undefined) {
      assert.ok(isLoose(d.location), `${at}: location is not an object`);
      assert.ok(isPosition(d.location.line), `${at}: line`);
      assert.ok(isPosition(d.location.column), `${at}: column`);
    }
  }
}

/** Every interop warning has a code, a message and a JSON Pointer. */
export function assertWarnings(warnings: readonly InteropWarning[], where: string): void {
  const list: unknown = warnings;
  assert.ok(Array.isArray(list), `${where}: warnings is not an array`);
  for (const w of list as readonly unknown[]) {
    assert.ok(isLoose(w), `${where}: a warning is not an object`);
    const at = `${where}: warning ${text(w.code)} at '${text(w.path)}'`;
    assert.ok(typeof w.code === "string" && CODE.test(w.code), `${at}: code`);
    assert.ok(typeof w.message === "string" && w.message.length > 0, `${at}: message`);
    assert.ok(isPointer(w.path), `${at}: path is not a JSON Pointer`);
    if (w.data !== undefined) assert.ok(isLoose(w.data), `${at}: data`);
  }
}

/**
 * Imports `doc` with `format`: either a result whose workflow parses without an error and whose
 * warnings are well formed, or an {@link ImportError} of that format. Returns the result.
 */
export function importOrImportError(
  format: Format,
  doc: unknown,
  where: string,
): ReturnType<Format["import"]> | undefined {
  let result: ReturnType<Format["import"]>;
  try {
    result = format.import(doc);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    assert.equal(error.format, format.id, `${where}: ImportError of another format`);
    assert.ok(isPointer(error.path), `${where}: ImportError path '${error.path}'`);
    assert.ok(error.reason.length > 0, `${where}: ImportError without a reason`);
    return undefined;
  }
  assertWarnings(result.warnings, where);
  const errors = parseWorkflow(result.workflow).diagnostics.filter((d) => d.severity === "error");
  assert.deepEqual(
    errors.map((d) => `${d.code} ${d.path}`),
    [],
    `${where}: imported workflow does not parse`,
  );
  return result;
}

/** Runs `f`; a TypeError (the documented misuse error) counts as an answer, anything else fails. */
export function orTypeError<T>(f: () => T): T | TypeError {
  try {
    return f();
  } catch (error) {
    if (error instanceof TypeError) return error;
    throw error;
  }
}

/** The built-ins a polluting write reaches: the prototypes, and the constructors themselves. */
const PROTOTYPES: readonly object[] = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Object,
  Array,
  Function,
];
const SNAPSHOT = PROTOTYPES.map((proto) => {
  const descriptors = Object.getOwnPropertyDescriptors(proto) as Record<
    string | symbol,
    PropertyDescriptor
  >;
  return new Map(Reflect.ownKeys(proto).map((key) => [key, descriptors[key]?.value] as const));
});

/**
 * Nothing wrote to the built-ins: no `polluted` key is inherited, and the own keys and values of
 * `Object.prototype`, `Array.prototype`, `Function.prototype`, `String.prototype`, `Object`,
 * `Array` and `Function` are those seen when this module loaded.
 */
export function assertNoPollution(where: string): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined, `${where}: {}.polluted`);
  assert.equal(
    ([] as unknown as Record<string, unknown>).polluted,
    undefined,
    `${where}: [].polluted`,
  );
  PROTOTYPES.forEach((proto, i) => {
    const before = SNAPSHOT[i] ?? new Map();
    const keys = Reflect.ownKeys(proto);
    const added = keys.filter((key) => !before.has(key)).map(String);
    assert.deepEqual(added, [], `${where}: a built-in gained keys`);
    assert.equal(keys.length, before.size, `${where}: a built-in lost a key`);
    for (const key of keys) {
      const now = Object.getOwnPropertyDescriptor(proto, key)?.value as unknown;
      assert.equal(now, before.get(key), `${where}: prototype member ${String(key)} replaced`);
    }
  });
}
