/**
 * Pieces of the AgentOS export: state partitions from shapes, and recognising the decisions the
 * importer inserted for personality and discovery edges (by id suffix and condition text), so
 * that they are written back as edges.
 */
import type { AgentNode, AgentWorkflow } from "../../model/index.js";
import { compileShape } from "../../model/index.js";
import { cloneJson, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { NOT_EXPORTABLE } from "../types.js";
import { END } from "./types.js";

type Obj = Record<string, unknown>;

/** The workflow keys the graph holds (or declares one by one): any other is declared as one. */
export const TOP: ReadonlySet<string> = new Set([
  "kind",
  "id",
  "name",
  "inputSchema",
  "outputSchema",
  "nodes",
  "edges",
  "autonomyLevel",
  "version",
]);

/** A NOT_EXPORTABLE warning. */
export function omitted(path: string, message: string, data: Obj): InteropWarning {
  return { code: NOT_EXPORTABLE, message, path, data };
}

/** The text condition the importer writes for personality edges. */
export const PERSONALITY =
  /^persona trait '([^']*)' > (\S+) \(AgentOS scratch\._personaTraits, 0\.5 when absent\)$/;
/** The text condition the importer writes for a discovery edge. */
export const DISCOVERY =
  /^capability discovery finds a (tool|skill|extension|any) match(?: for ("(?:[^"\\]|\\.)*"))?$/;
/** A shape → the JSON Schema object of a state partition (`?` fields are not required). */
export function partition(shape: Readonly<Record<string, unknown>>, wf: AgentWorkflow): Obj {
  const entries: [string, unknown][] = [];
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const name = key.endsWith("?") ? key.slice(0, -1) : key;
    if (!key.endsWith("?")) required.push(name);
    const compiled =
      typeof field === "string" ? compileShape({ [name]: field }, wf.types).schema : undefined;
    const props = compiled === undefined ? undefined : own(compiled, "properties");
    entries.push([name, isRecord(props) ? cloneJson(own(props, name) ?? {}) : cloneJson(field)]);
  }
  // fromEntries defines data properties, so a field called `__proto__` stays a field.
  const properties = Object.fromEntries(entries);
  return { type: "object", properties, required };
}

/** The binary text decision the importer inserts for personality or discovery edges. */
export function inserted(
  node: AgentNode,
): { kind: string; source: string; config: Obj } | undefined {
  const m = /^(.*)\.(personality|discovery)$/.exec(node.id);
  const config: Obj = isRecord(node.config) ? { ...node.config } : {};
  const condition = own(config, "condition");
  if (m === null || node.type !== "decision" || typeof condition !== "string") return undefined;
  if (own(config, "conditionLanguage") !== "text") return undefined;
  const [, source = "", kind = ""] = m;
  const re = kind === "personality" ? PERSONALITY : DISCOVERY;
  return re.test(condition) ? { kind, source, config } : undefined;
}

/** A config as a plain record, for key-by-key reading. */
export function asObj(value: unknown): Obj {
  return isRecord(value) ? { ...value } : {};
}

/** The text inside a JSON string literal the importer wrote; the literal itself if it is not one. */
export function unquote(literal: string): string {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === "string" ? value : literal;
  } catch {
    return literal;
  }
}

/** An agentflow route target → an IR edge target. */
export function end(next: string): string {
  return next === "end" ? END : next;
}
