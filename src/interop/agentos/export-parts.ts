/**
 * Pieces of the AgentOS export: state partitions from shapes, and recognising the decisions the
 * importer inserted for personality and discovery edges (by id suffix and condition text), so
 * that they are written back as edges.
 */
import type { AgentNode, AgentWorkflow } from "../../model/index.js";
import { compileShape, pointer } from "../../model/index.js";
import { cloneJson, isRecord, own } from "../json.js";
import type { ExportWarnings } from "../warnings.js";
import { ASSUMED_VERSION } from "./nodes.js";
import { END } from "./types.js";
import { omitted } from "../warnings.js";

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

/**
 * Declares what the IR has no place for at the top: `version` and `autonomyLevel` always, and
 * every key but those in {@link TOP} (and `metadata` that holds only what the importer kept).
 */
export function declareTop(wf: AgentWorkflow, warnings: ExportWarnings): void {
  warnings.add("/version", () =>
    omitted("/version", "version left out: the IR has no version; an import assumes 1.0.0", {
      version: wf.version,
    }),
  );
  warnings.add("/autonomyLevel", () =>
    omitted(
      "/autonomyLevel",
      "autonomyLevel left out: AgentOS has no autonomy level; an import recomputes it",
      { autonomyLevel: wf.autonomyLevel },
    ),
  );
  for (const key of Object.keys(wf)) {
    if (
      TOP.has(key) ||
      (key === "metadata" && isRecord(wf.metadata) && Object.keys(wf.metadata).join() === "agentos")
    )
      continue;
    warnings.add("top-level field", () =>
      omitted(pointer(key), `'${key}' left out: the IR has no such field`, { key }),
    );
  }
}

/**
 * A field name the shape reader takes as it is (no `?` left to strip, not `__proto__`, which it
 * refuses): its type compiles the same under any such name.
 */
const PLAIN_NAME = /^[A-Za-z0-9_$-]+$/;

/** The tool config keys the IR holds. */
export const TOOL_KEYS: ReadonlySet<string> = new Set(["usesTool", "params", "timeoutMs"]);

/** Whether `ref` is the promptRef an import gives the llm node `id`, without building it. */
export function isImportedRef(ref: unknown, id: string): boolean {
  const length = "prm:agentos.@".length + id.length + ASSUMED_VERSION.length;
  return (
    typeof ref === "string" &&
    ref.length === length &&
    ref === `prm:agentos.${id}@${ASSUMED_VERSION}`
  );
}

/** The text condition the importer writes for personality edges. */
export const PERSONALITY =
  /^persona trait '([^']*)' >= (\S+) \(AgentOS runtime config personaTraits, else scratch\._personaTraits, else 0\.5\)$/;
/** The text condition the importer writes for a discovery edge. */
export const DISCOVERY =
  /^capability discovery finds a (tool|skill|extension|any) match(?: for ("(?:[^"\\]|\\.)*"))?$/;
/** A shape → the JSON Schema object of a state partition (`?` fields are not required). */
export function partition(shape: Readonly<Record<string, unknown>>, wf: AgentWorkflow): Obj {
  const entries: [string, unknown][] = [];
  const required: string[] = [];
  // What a type expression compiles to does not depend on the name of a plain field: compiled
  // once per expression, not per field (a shape of 100,000 "text" fields compiled 100,000 times).
  const byExpression = new Map<string, unknown>();
  for (const [key, field] of Object.entries(shape)) {
    const name = key.endsWith("?") ? key.slice(0, -1) : key;
    if (!key.endsWith("?")) required.push(name);
    if (typeof field !== "string") {
      entries.push([name, cloneJson(field)]);
      continue;
    }
    const plain = PLAIN_NAME.test(name) && name !== "__proto__";
    let schema = plain ? byExpression.get(field) : undefined;
    if (schema === undefined) {
      const props = own(compileShape({ [name]: field }, wf.types).schema, "properties");
      schema = isRecord(props) ? (own(props, name) ?? {}) : field;
      if (plain) byExpression.set(field, schema);
    }
    entries.push([name, cloneJson(schema)]);
  }
  // fromEntries defines data properties, so a field called `__proto__` stays a field.
  const properties = Object.fromEntries(entries);
  return { type: "object", properties, required };
}

/** The binary text decision the importer inserts for personality or discovery edges. */
export function inserted(
  node: AgentNode,
): { kind: string; source: string; config: Obj } | undefined {
  // Tested first, so that the 100,000 other nodes of a big workflow are not copied.
  const m = /^(.*)\.(personality|discovery)$/.exec(node.id);
  if (m === null || node.type !== "decision") return undefined;
  const config: Obj = isRecord(node.config) ? { ...node.config } : {};
  const condition = own(config, "condition");
  if (typeof condition !== "string") return undefined;
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
