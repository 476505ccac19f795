/**
 * The check the properties panel runs on an agent workflow ref as it is typed: the same parser
 * as `AGENT_REF_INVALID`, so the panel and the gate never disagree on what a ref is.
 */
import { parseRef } from "../model/index.js";
import { refProblemWith } from "./ref-words.js";

/**
 * Why a typed ref is not an `id@version` ref, or `null` when it is one (or the input is empty
 * on a task that is no agent yet).
 *
 * @example
 * ```ts
 * import { refProblem } from "agentflow/bpmn-js";
 *
 * refProblem("agnt-credit-risk@1.0.0", true); // → null
 * refProblem("agnt-credit-risk", true);
 * // → "Not an id@version ref: 'agnt-credit-risk' has no '@version' (expected id@x.y.z)"
 * refProblem("", false); // → null
 * ```
 */
export function refProblem(value: string, isAgent: boolean): string | null {
  return refProblemWith(parseRef, value, isAgent);
}
