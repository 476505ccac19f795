import type { CliIo } from "./io.js";

/**
 * Whether to paint the text report, as the Node ecosystem decides: `--color`/`--no-color` first,
 * then never in a file written with `-o`, then `FORCE_COLOR` (any value but `0` or `false` turns colour on, and it wins over `NO_COLOR`,
 * as in Node itself), then `NO_COLOR` (any non-empty value turns it off), and otherwise colour
 * only on a terminal.
 */
export function useColor(flag: boolean | undefined, io: CliIo, toFile: boolean): boolean {
  if (flag !== undefined) return flag;
  // A file is read by tools and people outside any terminal: FORCE_COLOR (set for a CI log's
  // sake) must not put escape codes into it.
  if (toFile) return false;
  const env = io.env ?? {};
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return io.isTTY;
}
