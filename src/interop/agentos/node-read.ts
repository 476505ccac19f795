/**
 * The readers every AgentOS node mapping shares: the node's context, its pointers, required
 * strings, tool refs, and the declaration of `executorConfig` keys a mapping does not read.
 */
import { isValidRef, pointer } from "../../model/index.js";
import { describeValue, own } from "../json.js";
import type { InteropWarning } from "../types.js";
import { dropped } from "../warnings.js";
import { fail } from "./types.js";

/** The version every contract ref the IR lacks is given (the IR names tools without versions). */
export const ASSUMED_VERSION = "1.0.0";

/** A node's decoded `executorConfig` (or the node itself). */
export type Config = Readonly<Record<string, unknown>>;

/** One node being read. */
export interface Ctx {
  readonly i: number;
  readonly id: string;
  /** The node's workflow id. */
  readonly nodeId: string;
  readonly warnings: InteropWarning[];
  /** gmi instructions by workflow node id, kept in `metadata.agentos.instructions`. */
  readonly instructions: Record<string, string>;
}

export function at(ctx: Ctx, ...rest: (string | number)[]): string {
  return pointer("nodes", ctx.i, ...rest);
}

export function str(ctx: Ctx, cfg: Config, key: string): string {
  const value = own(cfg, key);
  if (typeof value !== "string" || value === "") {
    throw fail(
      at(ctx, "executorConfig", key),
      `node '${ctx.id}' needs a non-empty string executorConfig.${key}, found ${describeValue(value)}`,
      ctx.id,
    );
  }
  return value;
}

export function dropKeys(ctx: Ctx, cfg: Config, known: readonly string[]): void {
  for (const key of Object.keys(cfg)) {
    if (key === "type" || known.includes(key)) continue;
    ctx.warnings.push(
      dropped(
        at(ctx, "executorConfig", key),
        `node '${ctx.id}': executorConfig.${key} has no agentflow form`,
        {
          nodeId: ctx.id,
          key,
        },
      ),
    );
  }
}

/** A tool ref for a name the IR gives without version; invalid names fail loudly. */
export function toolRef(ctx: Ctx, name: string, path: string): string {
  const ref = `tool:${name}@${ASSUMED_VERSION}`;
  if (!isValidRef(ref)) {
    throw fail(
      path,
      `node '${ctx.id}': ${describeValue(name)} does not form a valid tool ref`,
      ctx.id,
    );
  }
  return ref;
}
