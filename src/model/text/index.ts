/** Reading JSON and YAML text safely, with positions: the layer under `parseWorkflowText`. */

export { createLineIndex, lineColumnAt, stripBom } from "./lines.js";
export type { LineIndex } from "./lines.js";
export type { Locator } from "./locate.js";
export type { TextFormat, TextProblem, TextProblemCode } from "./problems.js";
export { detectTextFormat } from "./read.js";
export { wideEncoding } from "./encoding.js";
export { keyCount, memberCount } from "./json-valid.js";
export { locatePointers, readDocumentText, readWithLocator, textLocator } from "./read-sync.js";
export { readWithLocatorAsync } from "./read-async.js";
export type { ReadOptions, ReadResult } from "./read.js";
export { hasInvisibleCharacters, invisibleCharacters, visibleText } from "./visible.js";
