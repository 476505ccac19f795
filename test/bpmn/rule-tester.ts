/**
 * Table-driven BPMN rule tests, in the manner of test/validate/rule-tester.ts: each case is a small
 * BPMN document (with optional registry documents and gate options) run through `checkProcess`;
 * the diagnostics are filtered to the rule's code. A valid case must produce none; an invalid case
 * exactly the listed ones (code, target, path, severity, and the listed `data` fields and
 * location), in order. No case may crash a rule, and the synchronous evaluation of the same
 * definitions must agree with the asynchronous one.
 */
import { describe, expect, it } from "vitest";
import type {
  BpmnRule,
  GateOptions,
  GatePredicate,
  ModdleExtensions,
  RegistryDefinition,
} from "../../src/bpmn/index.js";
import { checkProcess, evaluateGatesSync, RegistryConflictError } from "../../src/bpmn/index.js";
import { contentHash } from "../../src/model/index.js";
import type {
  Diagnostic,
  Severity,
  SeveritySetting,
  SourceLocation,
} from "../../src/model/index.js";

/** A registry document (agent workflow or tool contract), found by its `id@version`. */
export interface RegistryDoc {
  readonly id: string;
  readonly version: string;
}

/** A case with no finding from the rule. */
export interface BpmnValidCase {
  readonly name: string;
  /** The BPMN XML (literal or from ./builders.ts). */
  readonly xml: string;
  /** What `resolveWorkflow` and `resolveTool` know; absent means no resolver at all. */
  readonly registry?: readonly RegistryDoc[];
  /** `false`: the registry resolves workflows only, with no `resolveTool` at all. */
  readonly tools?: false;
  readonly isGate?: GatePredicate;
  readonly policy?: GateOptions["policy"];
  readonly rules?: Readonly<Record<string, SeveritySetting>>;
  readonly moddleExtensions?: ModdleExtensions;
  /** The longest document read, in characters. */
  readonly maxLength?: number;
}

/** The target of every BPMN diagnostic. */
export interface BpmnTarget {
  readonly kind: "bpmn-element";
  readonly elementId: string;
  readonly path: string;
}

/** One expected diagnostic. */
export interface ExpectedBpmnDiagnostic {
  readonly code: string;
  readonly target: BpmnTarget;
  readonly path: string;
  /** A subset of the diagnostic's `data`. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** Default: the rule's default severity. */
  readonly severity?: Severity;
  readonly location?: SourceLocation;
}

/** A case with findings. */
export interface BpmnInvalidCase extends BpmnValidCase {
  readonly errors: readonly ExpectedBpmnDiagnostic[];
}

/** `{ code, target, path }` of a diagnostic on `elementId` at `path`. */
export function at(code: string, elementId: string, path: string) {
  return { code, target: { kind: "bpmn-element", elementId, path }, path } as const;
}

/**
 * The registry as a lookup by `id@version`, as a folder registry answers: documents listed
 * twice with different content are a conflict for their ref (sources `doc <index>`).
 */
export function registryLookup(docs: readonly RegistryDoc[]): (ref: string) => unknown {
  const byRef = new Map<string, { doc: RegistryDoc; definitions: RegistryDefinition[] }>();
  docs.forEach((doc, i) => {
    const ref = `${doc.id}@${doc.version}`;
    const definition = { source: `doc ${i}`, contentHash: contentHash(doc) };
    const entry = byRef.get(ref);
    if (entry === undefined) byRef.set(ref, { doc, definitions: [definition] });
    else if (!entry.definitions.some((d) => d.contentHash === definition.contentHash)) {
      entry.definitions.push(definition);
    }
  });
  return (ref) => {
    const entry = byRef.get(ref);
    if (entry !== undefined && entry.definitions.length > 1) {
      throw new RegistryConflictError(ref, entry.definitions);
    }
    return entry?.doc;
  };
}

function optionsOf(c: BpmnValidCase): GateOptions {
  const lookup = c.registry === undefined ? undefined : registryLookup(c.registry);
  return {
    ...(lookup === undefined ? {} : { resolveWorkflow: lookup }),
    ...(lookup === undefined || c.tools === false ? {} : { resolveTool: lookup }),
    ...(c.isGate === undefined ? {} : { isGate: c.isGate }),
    ...(c.policy === undefined ? {} : { policy: c.policy }),
    ...(c.rules === undefined ? {} : { rules: c.rules }),
  };
}

function shape(d: Diagnostic) {
  return { code: d.code, target: d.target, path: d.path, severity: d.severity, data: d.data };
}

/** Runs one case: every diagnostic of the document, and those of the rule. */
async function run(code: string, c: BpmnValidCase) {
  const options = optionsOf(c);
  const result = await checkProcess(c.xml, {
    ...options,
    ...(c.moddleExtensions === undefined ? {} : { moddleExtensions: c.moddleExtensions }),
    ...(c.maxLength === undefined ? {} : { maxLength: c.maxLength }),
  });
  const all = [...result.blocking, ...result.warnings];
  expect(all.filter((d) => d.code === "RULE_CRASHED")).toEqual([]);
  const own = all.filter((d) => d.code === code);
  for (const d of own) expect(d.message).not.toMatch(/\{\{/);
  if (result.definitions !== undefined && code !== "BPMN_PARSE") {
    const sync = evaluateGatesSync(result.definitions, options);
    const syncOwn = [...sync.blocking, ...sync.warnings].filter((d) => d.code === code);
    expect(syncOwn.map(shape)).toEqual(own.map(shape));
  }
  return own;
}

/** Runs the table for one BPMN rule. */
export function bpmnRuleTester(
  rule: BpmnRule,
  cases: {
    readonly valid: readonly BpmnValidCase[];
    readonly invalid: readonly BpmnInvalidCase[];
  },
): void {
  const { code, defaultSeverity } = rule.meta;
  describe(code, () => {
    it.each(cases.valid)("valid: $name", async (c) => {
      expect(await run(code, c)).toEqual([]);
    });
    it.each(cases.invalid)("invalid: $name", async (c) => {
      const diagnostics = await run(code, c);
      expect(
        diagnostics.map((d) => ({
          code: d.code,
          target: d.target,
          path: d.path,
          severity: d.severity,
        })),
      ).toEqual(
        c.errors.map((e) => ({
          code: e.code,
          target: e.target,
          path: e.path,
          severity: e.severity ?? defaultSeverity,
        })),
      );
      c.errors.forEach((e, i) => {
        const actual = diagnostics[i];
        if (e.data !== undefined) expect(actual?.data).toMatchObject(e.data);
        if (e.location !== undefined) expect(actual?.location).toEqual(e.location);
      });
    });
  });
}
