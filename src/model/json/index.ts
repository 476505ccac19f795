/** JSON values: JSON Pointers (RFC 6901), and what makes a value JSON data with a canonical form. */
export { escapePointerToken, pointer, pointerTokens } from "./pointer.js";
export type { JsonDataProblem, JsonDataProblemKind } from "./data.js";
export { jsonDataProblems, MAX_JSON_VALUES, notJsonDataMessage } from "./data.js";
