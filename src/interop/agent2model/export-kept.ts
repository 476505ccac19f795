/**
 * What the importer kept of a flowchart in `metadata.agent2model` (prompts, roles, terminals and
 * their outcomes, scenario variables), read back defensively for the export: metadata is
 * free-form and may have been edited, so every entry is checked and one that does not have the
 * importer's shape is declared instead of trusted.
 */
import type { AgentWorkflow } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { cloneJson, isRecord, own } from "../json.js";
import { omitted } from "../warnings.js";
import type { ExportWarnings } from "../warnings.js";
import type { Agent2ModelOutcome, Agent2ModelRole } from "./types.js";

/** A turn as the importer kept it: its flowchart key, role and prompt. */
export interface KeptTurn {
  readonly source: string;
  readonly role: Agent2ModelRole;
  readonly prompt?: string;
  /** The id of the decision that holds an agent's choice of edge (the importer inserts it). */
  readonly choice?: string;
}

/** A way out the importer kept: which route of which node ended at which terminal. */
export interface KeptExit {
  readonly from: string;
  readonly route?: string;
  readonly terminal: string;
  readonly outcome: Agent2ModelOutcome;
  /** The `when` of the edge to the terminal, written back where the route cannot hold it. */
  readonly when?: string;
}

/** Everything the export reads back from `metadata.agent2model`. */
export interface KeptFlowchart {
  /** Workflow node id → what the importer kept of that turn. */
  readonly nodes: ReadonlyMap<string, KeptTurn>;
  /** Every terminal of the source flowchart, reachable or not, in source order. */
  readonly terminals: readonly { readonly id: string; readonly outcome: Agent2ModelOutcome }[];
  readonly exits: readonly KeptExit[];
  /** `scenario_variables`, copied; absent when the flowchart had none. */
  readonly scenario?: { readonly value: unknown };
}

const KEPT_KEYS = new Set(["name", "start", "nodes", "terminals", "exits", "scenario_variables"]);
const ROLES: ReadonlySet<string> = new Set(["agent", "user", "decision"]);
const OUTCOMES: ReadonlySet<string> = new Set(["success", "abandonment", "escalation"]);

type Obj = Readonly<Record<string, unknown>>;

function str(obj: Obj, key: string): string | undefined {
  const value = own(obj, key);
  return typeof value === "string" && value !== "" ? value : undefined;
}

function outcomeOf(obj: Obj): Agent2ModelOutcome | undefined {
  const value = own(obj, "outcome");
  return typeof value === "string" && OUTCOMES.has(value)
    ? (value as Agent2ModelOutcome)
    : undefined;
}

/** The entries of a kept list that `read` accepts; the others are declared at their pointer. */
function readList<T>(
  kept: Obj,
  key: string,
  read: (item: Obj) => T | undefined,
  warnings: ExportWarnings,
): T[] {
  const list = own(kept, key);
  if (list === undefined) return [];
  const at = pointer("metadata", "agent2model", key);
  if (!Array.isArray(list)) {
    const message = `metadata.agent2model.${key} is not the list the importer writes; it is not read`;
    warnings.add("kept list", () => omitted(at, message, { key }));
    return [];
  }
  const out: T[] = [];
  list.forEach((item: unknown, i) => {
    const value = isRecord(item) ? read(item) : undefined;
    if (value !== undefined) out.push(value);
    else
      warnings.add("kept entry", () => {
        const message = `metadata.agent2model.${key}[${String(i)}] does not have the importer's shape; it is not read`;
        return omitted(`${at}/${String(i)}`, message, { key });
      });
  });
  return out;
}

function readTurn(item: Obj): [string, KeptTurn] | undefined {
  const id = str(item, "id");
  const source = str(item, "source");
  const role = own(item, "role");
  const prompt = own(item, "prompt");
  const choice = own(item, "choice");
  if (id === undefined || source === undefined || typeof role !== "string" || !ROLES.has(role))
    return undefined;
  if (prompt !== undefined && typeof prompt !== "string") return undefined;
  if (choice !== undefined && (typeof choice !== "string" || role !== "agent")) return undefined;
  const turn = {
    source,
    role: role as Agent2ModelRole,
    ...(prompt === undefined ? {} : { prompt }),
    ...(choice === undefined ? {} : { choice }),
  };
  return [id, turn];
}

function readExit(item: Obj): KeptExit | undefined {
  const from = str(item, "from");
  const terminal = str(item, "terminal");
  const outcome = outcomeOf(item);
  const route = own(item, "route");
  const when = own(item, "when");
  if (from === undefined || terminal === undefined || outcome === undefined) return undefined;
  if (route !== undefined && typeof route !== "string") return undefined;
  if (when !== undefined && typeof when !== "string") return undefined;
  return {
    from,
    ...(route === undefined ? {} : { route }),
    terminal,
    outcome,
    ...(when === undefined ? {} : { when }),
  };
}

/**
 * Reads `metadata.agent2model`, declaring every other metadata key and every kept entry that is
 * not in the importer's shape (both are left out of the flowchart).
 */
export function readKept(wf: AgentWorkflow, warnings: ExportWarnings): KeptFlowchart {
  const metadata = wf.metadata ?? {};
  for (const key of Object.keys(metadata)) {
    if (key === "agent2model") continue;
    warnings.add("metadata key", () => {
      const message = `metadata '${key}' left out: a flowchart has no metadata`;
      return omitted(pointer("metadata", key), message, { key });
    });
  }
  const kept = own(metadata, "agent2model");
  if (!isRecord(kept)) {
    if (kept !== undefined)
      warnings.add("kept metadata", () => {
        const message = "metadata.agent2model is not an object; it is not read";
        return omitted("/metadata/agent2model", message);
      });
    return { nodes: new Map(), terminals: [], exits: [] };
  }
  for (const key of Object.keys(kept)) {
    if (KEPT_KEYS.has(key)) continue;
    warnings.add("kept key", () => {
      const message = `metadata.agent2model.${key} left out: the importer writes no such key`;
      const path = pointer("metadata", "agent2model", key);
      return omitted(path, message, { key });
    });
  }
  const nodes = new Map(readList(kept, "nodes", readTurn, warnings));
  const terminals = readList(
    kept,
    "terminals",
    (item) => {
      const id = str(item, "id");
      const outcome = outcomeOf(item);
      return id === undefined || outcome === undefined ? undefined : { id, outcome };
    },
    warnings,
  );
  const exits = readList(kept, "exits", readExit, warnings);
  const scenario = own(kept, "scenario_variables");
  return {
    nodes,
    terminals,
    exits,
    ...(scenario === undefined ? {} : { scenario: { value: cloneJson(scenario) } }),
  };
}
