/**
 * What the properties panel says of a typed agent workflow ref, given the parser: apart from
 * the parser so that the panel's first load carries the words and fetches the parser with the
 * engine (`properties-panel/ref-parser.ts`), while `refProblem` binds the two for other callers.
 */
import type { RefParseResult } from "../model/index.js";

/** Why `value` is not an `id@version` ref by `parse`, or `null` (see `refProblem`). */
export function refProblemWith(
  parse: (ref: string) => RefParseResult,
  value: string,
  isAgent: boolean,
): string | null {
  if (value === "") return isAgent ? "An agent task needs a workflow ref (id@version)." : null;
  const parsed = parse(value);
  return parsed.ok ? null : `Not an id@version ref: ${parsed.message}`;
}
