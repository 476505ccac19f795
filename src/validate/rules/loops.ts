import type { Rule } from "../types.js";
import { rule as RETRY_WITHOUT_MAX } from "./RETRY_WITHOUT_MAX.js";
import { rule as CYCLE_WITHOUT_STOP } from "./CYCLE_WITHOUT_STOP.js";
import { rule as DECISION_IMPLICIT_METRIC } from "./DECISION_IMPLICIT_METRIC.js";
import { rule as LLM_NOT_STRUCTURED } from "./LLM_NOT_STRUCTURED.js";
import { rule as DECISION_UNSTRUCTURED } from "./DECISION_UNSTRUCTURED.js";

/** Loops and stops: every loop is bounded and every route is decided on structured data. */
export const LOOP_RULES: readonly Rule[] = [
  RETRY_WITHOUT_MAX,
  CYCLE_WITHOUT_STOP,
  DECISION_IMPLICIT_METRIC,
  LLM_NOT_STRUCTURED,
  DECISION_UNSTRUCTURED,
];
