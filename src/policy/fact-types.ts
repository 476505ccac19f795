/**
 * The fact model (facts.ts) as data: which names each subject has, what they hold, and which
 * `null`s mean "unknown". A pack's `when` and `message` are checked against it before anything
 * runs, and the evaluator copies and enumerates facts by it; docs/policies.md lists the same.
 */
import type { LiteralCheck } from "./fact-literals.js";
import {
  agentWorkflowRef,
  BPMN_FLOW_NODE_TYPES,
  canonicalRef,
  fullVersion,
  toolId,
} from "./fact-literals.js";
import type { PolicySubject } from "./facts.js";

/** Facts whose `null` means unknown, enumerated over their possible values (see `unknowns.ts`). */
export type UnknownKind = "level" | "declaredLevel" | "justifiedLevel" | "effect" | "authorization";

/**
 * A fact whose `null` means unknown and cannot be enumerated: reading it leaves `when` undecided.
 * The name is what `when` must mention to read it (`maxSteps` for `budget.maxSteps`).
 */
export type OpaqueKind =
  | "tools"
  | "models"
  | "budget"
  | "maxSteps"
  | "maxTokens"
  | "nodes"
  | "delegates"
  | "name"
  | "model"
  | "fallbackModel"
  | "ref"
  | "id"
  | "lane";

/** What a fact (or a value computed from facts) is, as far as the checker knows. */
export type FactType =
  | { readonly kind: "any" }
  | {
      readonly kind: "scalar";
      readonly label: string;
      /** The one FEEL type its non-null values have: what a literal it is compared with must be. */
      readonly base: ScalarBase;
      /** Every value it can take, when they are few (an effect, a level); absent: any. */
      readonly values?: readonly (string | number)[];
      /** What else its values hold, for a string literal it can never equal (fact-literals.ts). */
      readonly never?: LiteralCheck;
    }
  | { readonly kind: "list"; readonly item: FactType }
  /** A record with any keys (`budget.maxCost`): a missing key is "not stated", not an error. */
  | {
      readonly kind: "map";
      readonly label: string;
      readonly value: FactType;
      /** What every key it can hold looks like; a path step of another shape is refused. */
      readonly keys?: { readonly pattern: RegExp; readonly words: string };
    }
  | {
      readonly kind: "object";
      readonly label: string;
      readonly fields: Readonly<Record<string, Field>>;
    };

/** The FEEL type of a scalar's values (its `null` aside). */
export type ScalarBase =
  "number" | "string" | "boolean" | "date" | "time" | "date and time" | "duration";

/** A field of an object fact, and what its `null` means when it is one of the unknowns. */
export interface Field {
  readonly type: FactType;
  readonly unknown?: UnknownKind;
  /**
   * For a fact whose `null` is ordinary data ("none") except when this sibling fact is not null:
   * then the `null` is an unknown of kind {@link unknown} (`declaredLevel` beside a
   * `declaredLevelText` that is no level).
   */
  readonly unknownWhen?: string;
  readonly opaque?: OpaqueKind;
  /**
   * For a fact whose `null` is ordinary data ("no budget", "not stated") except when the
   * subject's `unread` lists this name (`budget`, `budget.maxSteps`): then it is the unknown
   * {@link opaque}.
   */
  readonly unread?: string;
  /**
   * For a fact whose `null` is ordinary data ("none") except when the subject's fact of this name
   * is null, i.e. unknown: then it is the unknown {@link opaque}. A node's `model` beside its
   * workflow's `models`: where that list is unknown, some node runs a model no one named, and a
   * node's null can no longer be told from it.
   */
  readonly unknownBeside?: string;
}

/** Any value: what a function or an arithmetic expression gives. */
export const ANY: FactType = { kind: "any" };

const TEXT: FactType = { kind: "scalar", label: "a string", base: "string" };
const TEXT_OR_NULL: FactType = { kind: "scalar", label: "a string or null", base: "string" };
const NUMBER_OR_NULL: FactType = { kind: "scalar", label: "a number or null", base: "number" };
const BOOLEAN: FactType = { kind: "scalar", label: "a boolean", base: "boolean" };
// Strings the reader writes in one form, whatever form their source has (fact-literals.ts).
const VERSION: FactType = { ...TEXT, never: fullVersion };
const VERSION_OR_NULL: FactType = { ...TEXT_OR_NULL, never: fullVersion };
const REF_OR_NULL: FactType = { ...TEXT_OR_NULL, never: canonicalRef };
// A tool's `ref` may be any text (a Camunda job type): only an agent task's is held canonical.
const AGENT_REF_OR_NULL: FactType = { ...TEXT_OR_NULL, never: agentWorkflowRef };
const TOOL_ID_OR_NULL: FactType = { ...TEXT_OR_NULL, never: toolId };

/** A scalar of a few values, each of which `when` may name: any other literal is a typo. */
function oneOf(label: string, base: ScalarBase, values: readonly (string | number)[]): FactType {
  return { kind: "scalar", label, base, values };
}

function object(label: string, fields: Record<string, FactType | Field>): FactType {
  const out: Record<string, Field> = {};
  for (const [name, field] of Object.entries(fields)) {
    out[name] = "kind" in field ? { type: field } : field;
  }
  return { kind: "object", label, fields: out };
}

const list = (item: FactType): FactType => ({ kind: "list", item });

const LEVELS: readonly number[] = [0, 1, 2, 3, 4, 5];
const EFFECTS: readonly string[] = [
  "read",
  "propose",
  "notify",
  "write-reversible",
  "write-irreversible",
  "external-commitment",
];
const AUTHORIZATIONS: readonly string[] = ["automatic", "gate", "forbidden"];
/** The names `unread` can list (facts.ts `UnreadFact`). */
const UNREAD = ["name", "budget", "budget.maxSteps", "budget.maxTokens", "lane"];

const LEVEL_OR_NULL = oneOf("a level (0-5) or null", "number", LEVELS);

const TOOL = object("a tool", {
  // null only for the tool of unknown identity (facts.ts `UNKNOWN_TOOL`): always unknown.
  ref: { type: REF_OR_NULL, opaque: "ref" },
  id: { type: TOOL_ID_OR_NULL, opaque: "id" },
  version: VERSION_OR_NULL,
  effect: { type: oneOf("an effect or null", "string", EFFECTS), unknown: "effect" },
  authorization: {
    type: oneOf("an authorization or null", "string", AUTHORIZATIONS),
    unknown: "authorization",
  },
});

const BUDGET = object("budget", {
  maxSteps: { type: NUMBER_OR_NULL, unread: "budget.maxSteps", opaque: "maxSteps" },
  maxTokens: { type: NUMBER_OR_NULL, unread: "budget.maxTokens", opaque: "maxTokens" },
  maxWallTimeMs: NUMBER_OR_NULL,
  maxCost: {
    kind: "map",
    label: "maxCost (amounts by currency code)",
    value: NUMBER_OR_NULL,
    // The workflow schema's `maxCost[A-Z]{3}`: any other key can never be present.
    keys: { pattern: /^[A-Z]{3}$/, words: "a currency code of three capital letters (USD, EUR)" },
  },
});

const BUDGET_FIELD: Field = { type: BUDGET, unread: "budget", opaque: "budget" };

const GATE = object("a gate", { id: TEXT, name: TEXT_OR_NULL, role: TEXT_OR_NULL });

// null: the node names none (a tool, a decision, an llm node without a fallback), unless the
// workflow's `models` is unknown: an llm node on an importer's stand-in name or an unread
// Camunda binding, or a step that may call any model, is null too, and a deny-list over nodes
// must not pass it.
const NODE = object("a node", {
  id: TEXT,
  type: oneOf("a node type", "string", ["llm", "tool", "decision"]),
  model: { type: TEXT_OR_NULL, opaque: "model", unknownBeside: "models" },
  fallbackModel: { type: TEXT_OR_NULL, opaque: "fallbackModel", unknownBeside: "models" },
});

const LEVEL: Field = { type: LEVEL_OR_NULL, unknown: "level" };
const JUSTIFIED: Field = { type: LEVEL_OR_NULL, unknown: "justifiedLevel" };
const UNREAD_LIST = list(oneOf("the name of a fact", "string", UNREAD));

const AGENT_TASK = object("an agent task", {
  process: object("process", { id: TEXT, name: TEXT_OR_NULL }),
  element: object("element", {
    id: TEXT,
    name: TEXT_OR_NULL,
    type: oneOf("a BPMN flow node type (as bpmn-moddle names it)", "string", BPMN_FLOW_NODE_TYPES),
  }),
  // null: in no lane, unless `unread` lists it: lanes that do not nest both list the task.
  lane: { type: object("lane", { id: TEXT, name: TEXT_OR_NULL }), unread: "lane", opaque: "lane" },
  ref: AGENT_REF_OR_NULL,
  level: LEVEL,
  // null: none declared, unless the task wrote one that is no level (then unknown, tried 0–5).
  declaredLevel: {
    type: LEVEL_OR_NULL,
    unknown: "declaredLevel",
    unknownWhen: "declaredLevelText",
  },
  declaredLevelText: TEXT_OR_NULL,
  justifiedLevel: JUSTIFIED,
  camunda: BOOLEAN,
  tools: { type: list(TOOL), opaque: "tools" },
  models: { type: list(TEXT), opaque: "models" },
  budget: BUDGET_FIELD,
  gates: list(GATE),
  gateStatus: oneOf("a gate status", "string", ["reached", "bypassed", "missing"]),
  unread: UNREAD_LIST,
});

const WORKFLOW = object("a workflow", {
  id: TEXT,
  version: VERSION,
  name: { type: TEXT_OR_NULL, unread: "name", opaque: "name" },
  level: LEVEL,
  justifiedLevel: JUSTIFIED,
  nodes: { type: list(NODE), opaque: "nodes" },
  tools: { type: list(TOOL), opaque: "tools" },
  models: { type: list(TEXT), opaque: "models" },
  budget: BUDGET_FIELD,
  delegates: { type: list(TEXT), opaque: "delegates" },
  unread: UNREAD_LIST,
});

const PROCESS = object("a process", {
  id: TEXT,
  name: TEXT_OR_NULL,
  agentTasks: list(AGENT_TASK),
  gates: list(GATE),
});

/** The facts of each subject, as one object type whose fields are the root names of `when`. */
export const SUBJECT_TYPES: Readonly<Record<PolicySubject, FactType & { kind: "object" }>> = {
  agentTask: AGENT_TASK as FactType & { kind: "object" },
  workflow: WORKFLOW as FactType & { kind: "object" },
  tool: TOOL as FactType & { kind: "object" },
  process: PROCESS as FactType & { kind: "object" },
};

/** The values an unknown of each kind can take, in the order they are tried. */
export const UNKNOWN_VALUES: Readonly<Record<UnknownKind, readonly (string | number)[]>> = {
  level: LEVELS,
  declaredLevel: LEVELS,
  justifiedLevel: LEVELS,
  effect: EFFECTS,
  authorization: AUTHORIZATIONS,
};

/** The field names of an object type, for messages. */
export function fieldNames(type: FactType & { kind: "object" }): string {
  return Object.keys(type.fields).join(", ");
}

/** The type of a field, or `undefined` when the object has no such field. */
export function fieldOf(type: FactType & { kind: "object" }, name: string): Field | undefined {
  return Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
}
