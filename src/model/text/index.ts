/** Reading JSON and YAML text safely, with positions: the layer under `parseWorkflowText`. */

export { createLineIndex, lineColumnAt, stripBom } from "./lines.js";
export type { LineIndex } from "./lines.js";
export type { Locator } from "./locate.js";
export { locatePointers, textLocator } from "./locate.js";
export type { TextFormat, TextProblem, TextProblemCode } from "./problems.js";
export { detectTextFormat, readDocumentText, readWithLocator } from "./read.js";
export type { ReadOptions, ReadResult } from "./read.js";
export { MAX_YAML_DEPTH } from "./yaml.js";
export { MAX_ALIAS_EXPANSION } from "./yaml-build.js";
export { hasInvisibleCharacters, invisibleCharacters, visibleText } from "./visible.js";
