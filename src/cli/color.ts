import type { CliIo } from "./io.js";

/**
 * Whether to paint the text report, as the Node ecosystem decides: `--color`/`--no-color` first,
 * then `FORCE_COLOR` (any value but `0` or `false` turns colour on, and it wins over `NO_COLOR`,
 * as in Node itself), then `NO_COLOR` (any non-empty value turns it off), and otherwise colour
 * only on a terminal, never in a file written with `-o`.
 */
export function useColor(flag: boolean | undefined, io: CliIo, toFile: boolean): boolean {
  if (flag !== undefined) return flag;
  const env = io.env ?? {};
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return !toFile && io.isTTY;
}
