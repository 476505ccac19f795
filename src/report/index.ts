/** Output formats for checks (SPEC 8). */
export type { CheckedFile } from "./types.js";
export { formatJson } from "./json.js";
export { formatText } from "./text.js";
export type { TextFormatOptions } from "./text.js";
