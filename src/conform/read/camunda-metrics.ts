/**
 * What a Camunda history item's `metrics` say the step spent: its tokens and how long it took.
 * A token count decides a budget verdict, so one recorded and unreadable is said, never dropped.
 */
import type { Unread } from "./camunda-status.js";
import { isObject } from "./shared.js";

/**
 * An item's tokens (`metrics.inputTokens` + `outputTokens`; only one of them is a lower bound,
 * `tokensPartial`) and duration. A count recorded as anything but a number of zero or more is
 * said in `unread`, never summed or dropped.
 */
export function tokensOf(
  metrics: unknown,
  unread: Unread[],
): { tokens?: number; tokensPartial?: boolean; durationMs?: number } {
  if (!isObject(metrics)) return {};
  const counts: number[] = [];
  for (const key of ["inputTokens", "outputTokens"]) {
    const n = metrics[key];
    if (n === undefined || n === null) continue;
    if (typeof n === "number" && Number.isFinite(n) && n >= 0) counts.push(n);
    else unread.push({ field: `metrics.${key}`, why: "is not a count" });
  }
  const duration = metrics.durationMs;
  return {
    ...(counts.length === 0 ? {} : { tokens: counts.reduce((a, b) => a + b, 0) }),
    ...(counts.length === 1 ? { tokensPartial: true } : {}),
    ...(typeof duration === "number" && Number.isFinite(duration) ? { durationMs: duration } : {}),
  };
}
