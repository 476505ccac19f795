/**
 * Agents to `llm` nodes. The prompt text, the variables an agent reads and its tool names have no
 * field in an llm node; they are kept under `metadata.openagentflow.agents.<nodeId>` so that
 * export can write them back. The tools also become tool nodes after the agent (`import-tools.ts`).
 */
import type { FieldType } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import { mapIds, renamedId } from "../ids.js";
import { describeValue, isRecord, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { fail, RUNTIME_DEFAULT_MODEL } from "./ir-types.js";
import type { StateVariable } from "./import-state.js";
import type { At, Obj } from "./read.js";
import { dropUnknown, needItem, needString, needStrings } from "./read.js";
import { guessed } from "../warnings.js";
import { checkToolNames } from "./import-tools.js";

const AGENT_KEYS = new Set([
  "id",
  "instructions",
  "model",
  "provider",
  "temperature",
  "tools",
  "inputs",
  "outputs",
]);

/** An agent, read: its llm node and what metadata keeps for export. */
export interface ReadAgent {
  readonly sourceId: string;
  readonly node: Readonly<Record<string, unknown>>;
  readonly kept: Readonly<Record<string, unknown>>;
  readonly outputs: readonly string[];
  /** Its index in `agents`. */
  readonly index: number;
  /** The tools it may call while it runs, each made a tool node after it. */
  readonly tools: readonly string[];
  /** The JSON Pointer of `model` when it was `null` and became {@link RUNTIME_DEFAULT_MODEL}. */
  readonly defaultModelAt?: string;
}

/** The prefix of a node id whose agent id does not start with a letter (`1st` → `a-1st`). */
export const AGENT_ID_PREFIX = "a-";

/**
 * The node id of every agent id, by the importers' one mapper: an agent id that is an agentflow
 * id keeps itself, `end` (the route keyword) and any other become unique ids.
 */
export function nodeIdsOf(rawAgents: readonly unknown[]): Map<string, string> {
  const names = rawAgents.flatMap((a) => {
    const id = isRecord(a) ? own(a, "id") : undefined;
    return typeof id === "string" && id !== "" ? [id] : [];
  });
  return mapIds(names, AGENT_ID_PREFIX);
}

function optional(raw: Obj, key: string, kind: "string" | "number", at: At, id: string): unknown {
  const value = own(raw, key);
  if (value === undefined || value === null || typeof value === kind) return value ?? undefined;
  throw fail(
    pointer(...at, key),
    `'${key}' must be a ${kind} or null, found ${describeValue(value)}`,
    id,
  );
}

function variablesIn(
  raw: Obj,
  key: string,
  at: At,
  id: string,
  known: ReadonlyMap<string, StateVariable>,
): readonly string[] {
  const names = needStrings(raw, key, at, id);
  names.forEach((name, j) => {
    if (!known.has(name))
      throw fail(
        pointer(...at, key, j),
        `agent '${id}' lists '${name}', which is not a state variable`,
        id,
      );
  });
  return names;
}

/** Reads agent `i` into an llm node; every problem fails at its path, naming the agent. */
export function readAgent(
  item: unknown,
  i: number,
  variables: ReadonlyMap<string, StateVariable>,
  ids: ReadonlyMap<string, string>,
  warnings: InteropWarning[],
): ReadAgent {
  const at = ["agents", i];
  const raw = needItem(item, at, `agent ${i}`);
  const sourceId = needString(raw, "id", at);
  dropUnknown(raw, AGENT_KEYS, at, `agent '${sourceId}'`, warnings);
  const id = ids.get(sourceId) ?? sourceId;
  if (id !== sourceId) warnings.push(renamedId(pointer(...at, "id"), "agent id", sourceId, id));
  const instructions = own(raw, "instructions");
  if (typeof instructions !== "string") {
    throw fail(
      pointer(...at, "instructions"),
      `'instructions' must be a string, found ${describeValue(instructions)}`,
      sourceId,
    );
  }
  const written = own(raw, "model");
  if (written !== null && (typeof written !== "string" || written === "")) {
    throw fail(
      pointer(...at, "model"),
      `'model' of agent '${sourceId}' must be a non-empty string or null, found ${describeValue(written)}`,
      sourceId,
    );
  }
  const model = written ?? RUNTIME_DEFAULT_MODEL;
  const provider = optional(raw, "provider", "string", at, sourceId);
  const temperature = optional(raw, "temperature", "number", at, sourceId);
  const tools = needStrings(raw, "tools", at, sourceId);
  const inputs = variablesIn(raw, "inputs", at, sourceId, variables);
  const outputs = variablesIn(raw, "outputs", at, sourceId, variables);
  // Each tool becomes a tool node after the agent (`import-tools.ts`), on a ref it must form.
  checkToolNames(tools, at, sourceId);
  const shape: [string, FieldType][] = outputs.map((name) => [
    name,
    variables.get(name)?.fieldType ?? "any",
  ]);
  const config = {
    model,
    promptRef: `prm:${id}@1.0.0`,
    ...(outputs.length > 0
      ? { structuredOutput: true, outputSchema: Object.fromEntries(shape) }
      : {}),
    ...(provider === undefined ? {} : { provider }),
    ...(temperature === undefined ? {} : { temperature }),
  };
  const kept = {
    instructions,
    inputs: [...inputs],
    ...(tools.length > 0 ? { tools: [...tools] } : {}),
  };
  const node = { id, type: "llm", config };
  const read = { sourceId, index: i, node, kept, outputs, tools };
  return written === null ? { ...read, defaultModelAt: pointer(...at, "model") } : read;
}

/**
 * The one warning that declares every agent whose `model: null` became
 * {@link RUNTIME_DEFAULT_MODEL}, at the first one's pointer; `undefined` when there is none. One
 * per document: the same guess at each agent says nothing more than the list of agents.
 */
export function runtimeDefaultWarning(agents: readonly ReadAgent[]): InteropWarning | undefined {
  const concerned = agents.flatMap((a) =>
    a.defaultModelAt === undefined
      ? []
      : [{ agentId: a.sourceId, nodeId: String(a.node.id), path: a.defaultModelAt }],
  );
  const [first] = concerned;
  if (first === undefined) return undefined;
  const names = concerned.map((c) => `'${c.agentId}'`).join(", ");
  return guessed(
    first.path,
    `model null ("the runtime's default model") on ${names}: the llm model is '${RUNTIME_DEFAULT_MODEL}', which the export writes back as null`,
    { model: RUNTIME_DEFAULT_MODEL, agents: concerned },
  );
}
