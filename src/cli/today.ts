/**
 * `--today <YYYY-MM-DD>`: the day waivers are judged on. A waiver holds through its `expires`
 * day; giving the day a past run was judged on reproduces its verdict. Without the flag it is
 * the UTC date now, so that the same moment gives the same verdict in every time zone.
 */
import { isCalendarDate } from "../policy/waivers.js";
import { UsageError } from "./io.js";

/** The day `--today` names, checked; the current UTC date when not given. */
export function parseToday(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined) return now.toISOString().slice(0, 10);
  if (!isCalendarDate(value)) {
    throw new UsageError(`--today needs a calendar date written YYYY-MM-DD, got '${value}'`);
  }
  return value;
}
