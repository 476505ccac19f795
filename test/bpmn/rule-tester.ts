/**
 * The BPMN rule tests' shorthand over the shipped `RuleTester` (`src/testing/`): a case names
 * the registry documents it resolves (`registry`) and its gate options at the top level; this
 * maps them onto the tester's process case (`gate`) and runs the table with it. Matching and
 * assertions are the tester's own.
 */
import type {
  BpmnRule,
  GateOptions,
  GatePredicate,
  ModdleExtensions,
  RegistryDefinition,
} from "../../src/bpmn/index.js";
import { RegistryConflictError } from "../../src/bpmn/index.js";
import { contentHash } from "../../src/model/index.js";
import type { SeveritySetting } from "../../src/model/index.js";
import type {
  ExpectedError,
  ProcessGateOptions,
  ProcessValidCase,
} from "../../src/testing/index.js";
import { RuleTester } from "../../src/testing/index.js";

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
  /** The rule's configured severity (its default when absent). */
  readonly severity?: SeveritySetting;
  readonly moddleExtensions?: ModdleExtensions;
  /** The longest document read, in characters. */
  readonly maxLength?: number;
}

/** One expected diagnostic: every BPMN rule test states its code, target and path. */
export type ExpectedBpmnDiagnostic = ExpectedError &
  Required<Pick<ExpectedError, "code" | "target" | "path">>;

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

function gateOf(c: BpmnValidCase): ProcessGateOptions {
  const lookup = c.registry === undefined ? undefined : registryLookup(c.registry);
  return {
    ...(lookup === undefined ? {} : { resolveWorkflow: lookup }),
    ...(lookup === undefined || c.tools === false ? {} : { resolveTool: lookup }),
    ...(c.isGate === undefined ? {} : { isGate: c.isGate }),
    ...(c.policy === undefined ? {} : { policy: c.policy }),
    ...(c.moddleExtensions === undefined ? {} : { moddleExtensions: c.moddleExtensions }),
    ...(c.maxLength === undefined ? {} : { maxLength: c.maxLength }),
  };
}

function processCase(c: BpmnValidCase): ProcessValidCase {
  return {
    name: c.name,
    xml: c.xml,
    gate: gateOf(c),
    ...(c.severity === undefined ? {} : { severity: c.severity }),
  };
}

/** Runs the table for one BPMN rule with the shipped `RuleTester`. */
export function bpmnRuleTester(
  rule: BpmnRule,
  cases: {
    readonly valid: readonly BpmnValidCase[];
    readonly invalid: readonly BpmnInvalidCase[];
  },
): Promise<void> {
  return new RuleTester().run(rule.meta.code, rule, {
    valid: cases.valid.map(processCase),
    invalid: cases.invalid.map((c) => ({ ...processCase(c), errors: c.errors })),
  });
}
