/**
 * Structural reading of a decoded flowchart: the three `next` spellings become one edge list,
 * keys outside the seed's contract are declared, and a malformed element fails with its pointer.
 * Shared by the importer and by the invariant checks, so both see the same graph.
 */
import { pointer } from "../../model/index.js";
import { cloneJson, describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { refusal } from "../types.js";
import { dropped } from "../warnings.js";
import type {
  Agent2ModelEdge,
  Agent2ModelFlowchart,
  Agent2ModelNode,
  Agent2ModelOutcome,
  Agent2ModelRole,
} from "./types.js";
import { AGENT2MODEL_ID } from "./types.js";

const TOP_LEVEL_KEYS = new Set(["name", "description", "start", "nodes", "scenario_variables"]);
const TURN_KEYS = new Set(["role", "prompt", "next"]);
const EDGE_KEYS = new Set(["to", "when"]);
const ROLES: ReadonlySet<string> = new Set<Agent2ModelRole>(["agent", "user", "decision"]);
const OUTCOMES: ReadonlySet<string> = new Set<Agent2ModelOutcome>([
  "success",
  "abandonment",
  "escalation",
]);

type Obj = Readonly<Record<string, unknown>>;

/**
 * The optional fields of each level of the IR, with the value pydantic's `model_dump` writes for
 * one that was left out (`flowchart.json` writes every field): `null`, or the field's default.
 */
const ABSENT: Readonly<Record<"top" | "node" | "edge", Readonly<Record<string, unknown>>>> = {
  top: { description: "", scenario_variables: {} },
  node: { role: null, prompt: null, next: [], terminal: null },
  edge: { when: null },
};

function isAbsent(value: unknown, absent: unknown): boolean {
  if (value === null || value === absent) return true;
  if (Array.isArray(absent)) return Array.isArray(value) && value.length === 0;
  return isRecord(absent) && isRecord(value) && Object.keys(value).length === 0;
}

/**
 * `obj` without the optional fields that hold `null` or their default: the one place where the
 * canonical JSON form (`agent2model compile`'s `flowchart.json`) becomes the YAML form, so that
 * both read the same. Required fields and unknown keys are kept, to fail or be declared.
 */
function present(obj: Obj, level: keyof typeof ABSENT): Obj {
  const absent = ABSENT[level];
  return Object.fromEntries(
    Object.entries(obj).filter(
      ([key, value]) => !(Object.hasOwn(absent, key) && isAbsent(value, own(absent, key))),
    ),
  );
}

/** The importer's refusal; `elementId` names the flowchart node when there is one. */
export const fail = refusal(AGENT2MODEL_ID);

function readString(obj: Obj, key: string, at: string, id?: string): string {
  const value = own(obj, key);
  if (typeof value !== "string" || value === "") {
    throw fail(at, `'${key}' must be a non-empty string, found ${describeValue(value)}`, id);
  }
  return value;
}

function readEdge(
  raw: unknown,
  at: string,
  id: string,
  warnings: InteropWarning[],
): Agent2ModelEdge {
  if (typeof raw === "string" && raw !== "") return { to: raw, path: at };
  if (!isRecord(raw)) {
    throw fail(
      at,
      `an edge of '${id}' must be a node id or a mapping, found ${describeValue(raw)}`,
      id,
    );
  }
  return readEdgeMapping(present(raw, "edge"), at, id, warnings);
}

function readEdgeMapping(
  raw: Obj,
  at: string,
  id: string,
  warnings: InteropWarning[],
): Agent2ModelEdge {
  const to = readString(raw, "to", `${at}/to`, id);
  const when = own(raw, "when");
  if (when !== undefined && (typeof when !== "string" || when.trim() === "")) {
    throw fail(`${at}/when`, `'when' must be a non-empty string, found ${describeValue(when)}`, id);
  }
  for (const key of Object.keys(raw)) {
    if (EDGE_KEYS.has(key)) continue;
    warnings.push(
      dropped(`${at}/${key}`, `edge key '${key}' of node '${id}' is not in the IR`, { key }),
    );
  }
  return when === undefined ? { to, path: at } : { to, when: when.trim(), path: at };
}

/** `next: id`, `next: [id, ...]` and `next: [{to, when?}, ...]` (mixed lists too). */
function readNext(node: Obj, id: string, warnings: InteropWarning[]): Agent2ModelEdge[] {
  const at = pointer("nodes", id, "next");
  const next = own(node, "next");
  if (next === undefined) return [];
  if (typeof next === "string") return [readEdge(next, at, id, warnings)];
  if (!Array.isArray(next)) {
    throw fail(at, `'next' of '${id}' must be an id or a list, found ${describeValue(next)}`, id);
  }
  return next.map((edge: unknown, i) => readEdge(edge, `${at}/${i}`, id, warnings));
}

function readNode(id: string, value: unknown, warnings: InteropWarning[]): Agent2ModelNode {
  const at = pointer("nodes", id);
  if (!isRecord(value))
    throw fail(at, `node '${id}' must be a mapping, found ${describeValue(value)}`, id);
  const raw = present(value, "node");
  const terminal = own(raw, "terminal");
  if (terminal !== undefined) {
    if (typeof terminal !== "string" || !OUTCOMES.has(terminal)) {
      const reason = `terminal '${id}' has outcome ${describeValue(terminal)}; only success, abandonment and escalation exist`;
      throw fail(`${at}/terminal`, reason, id);
    }
    for (const key of Object.keys(raw)) {
      if (key === "terminal") continue;
      if (TURN_KEYS.has(key)) {
        throw fail(`${at}/${key}`, `terminal '${id}' must not have '${key}'`, id);
      }
      warnings.push(
        dropped(`${at}/${key}`, `key '${key}' of terminal '${id}' is not in the IR`, { key }),
      );
    }
    return { kind: "terminal", id, outcome: terminal as Agent2ModelOutcome };
  }
  const role = own(raw, "role");
  if (typeof role !== "string" || !ROLES.has(role)) {
    const reason = `node '${id}' has role ${describeValue(role)} and no terminal; roles are agent, user and decision`;
    throw fail(`${at}/role`, reason, id);
  }
  const prompt = own(raw, "prompt");
  if (prompt !== undefined && typeof prompt !== "string") {
    throw fail(
      `${at}/prompt`,
      `'prompt' of '${id}' must be text, found ${describeValue(prompt)}`,
      id,
    );
  }
  for (const key of Object.keys(raw)) {
    if (TURN_KEYS.has(key)) continue;
    warnings.push(
      dropped(`${at}/${key}`, `key '${key}' of node '${id}' is not in the IR`, { key }),
    );
  }
  const next = readNext(raw, id, warnings);
  const base = { kind: "turn" as const, id, role: role as Agent2ModelRole, next };
  return prompt === undefined ? base : { ...base, prompt };
}

/**
 * Reads a decoded flowchart, the YAML form or the canonical JSON form (where an optional field
 * holding `null` or its default is absent). Throws only {@link ImportError}, with the
 * pointer of the first malformed element; keys outside the IR are pushed onto `warnings` as
 * `FIELD_DROPPED`.
 */
export function readFlowchart(value: unknown, warnings: InteropWarning[]): Agent2ModelFlowchart {
  if (!isRecord(value))
    throw fail("", `a flowchart must be a mapping, found ${describeValue(value)}`);
  const doc = present(value, "top");
  for (const key of Object.keys(doc)) {
    if (TOP_LEVEL_KEYS.has(key)) continue;
    warnings.push(dropped(pointer(key), `top-level key '${key}' is not in the IR`, { key }));
  }
  const name = readString(doc, "name", "/name");
  const start = readString(doc, "start", "/start");
  const description = own(doc, "description");
  if (description !== undefined && typeof description !== "string") {
    throw fail("/description", `'description' must be text, found ${describeValue(description)}`);
  }
  const rawNodes = own(doc, "nodes");
  if (!isRecord(rawNodes)) {
    throw fail(
      "/nodes",
      `'nodes' must be a mapping of id to node, found ${describeValue(rawNodes)}`,
    );
  }
  const nodes = Object.keys(rawNodes).map((id) => readNode(id, own(rawNodes, id), warnings));
  const scenario = own(doc, "scenario_variables");
  return {
    name,
    start,
    nodes,
    ...(description === undefined ? {} : { description }),
    ...(scenario === undefined ? {} : { scenarioVariables: cloneJson(scenario) }),
  };
}
