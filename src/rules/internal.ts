/**
 * What the library's other modules share with the rule kit but rule authors do not need: the
 * run loop, message interpolation, options checking and plugin loading. Not a package entry
 * point and not in the API reference; rule authors use `rules/index.ts` (`agentflow/rules`).
 */
export { encodeUriSegment } from "./help-url.js";
export { interpolate } from "./message.js";
export { optionsProblem } from "./options.js";
export { namespacedRules, pluginDigest, pluginProblem, pluginRules } from "./plugin.js";
export type { ActiveRule, RunHooks } from "./run.js";
export { runRules } from "./run.js";
export { splitSetting } from "./settings.js";
