import type { Rule } from "../types.js";
import { rule as DECISION_ROUTE_MISSING } from "./DECISION_ROUTE_MISSING.js";
import { rule as DUPLICATE_NODE_ID } from "./DUPLICATE_NODE_ID.js";
import { rule as EDGE_ENDPOINT_MISSING } from "./EDGE_ENDPOINT_MISSING.js";
import { rule as EMPTY_INPUT_SCHEMA } from "./EMPTY_INPUT_SCHEMA.js";
import { rule as EMPTY_OUTPUT_SCHEMA } from "./EMPTY_OUTPUT_SCHEMA.js";
import { rule as NO_ENTRY_NODE } from "./NO_ENTRY_NODE.js";
import { rule as NODE_ID_INVISIBLE_CHARACTER } from "./NODE_ID_INVISIBLE_CHARACTER.js";
import { rule as NODE_ID_RESERVED } from "./NODE_ID_RESERVED.js";
import { rule as NO_PATH_TO_END } from "./NO_PATH_TO_END.js";
import { rule as NODE_UNREACHABLE } from "./NODE_UNREACHABLE.js";
import { rule as SCHEMA_TYPE_INVALID } from "./SCHEMA_TYPE_INVALID.js";

/** Structure: the graph and its schemas are well formed. */
export const STRUCTURE_RULES: readonly Rule[] = [
  DUPLICATE_NODE_ID,
  NODE_ID_RESERVED,
  NODE_ID_INVISIBLE_CHARACTER,
  EMPTY_INPUT_SCHEMA,
  EMPTY_OUTPUT_SCHEMA,
  SCHEMA_TYPE_INVALID,
  EDGE_ENDPOINT_MISSING,
  DECISION_ROUTE_MISSING,
  NO_ENTRY_NODE,
  NODE_UNREACHABLE,
  NO_PATH_TO_END,
];
