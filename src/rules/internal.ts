/**
 * What the library's other modules share with the rule kit but rule authors do not need: the
 * run loop, message interpolation, options checking, plugin loading, and the guards of rules
 * agentflow did not write (read-only views, report checks). Not a package entry
 * point and not in the API reference; rule authors use `rules/index.ts` (`agentflow/rules`).
 */
export { encodeUriSegment } from "./help-url.js";
export { interpolate } from "./message.js";
export { optionsProblem } from "./options.js";
export {
  isPluginRule,
  namespacedRules,
  pluginDigest,
  pluginProblem,
  pluginRules,
} from "./plugin.js";
export type { ReadOnlyViews } from "./read-only.js";
export { readOnlyViews } from "./read-only.js";
export { copyReportData } from "./report-data.js";
export type { RawReport } from "./report-shape.js";
export {
  BadReport,
  reportLocation,
  reportSeverity,
  reportTarget,
  stringField,
} from "./report-shape.js";
export type { ActiveRule, RunHooks } from "./run.js";
export { runRules } from "./run.js";
export { splitSetting } from "./settings.js";
