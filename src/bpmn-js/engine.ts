/**
 * What the module runs to judge a diagram, loaded by the service with `import()` at the first
 * evaluation: the checks of the policy options that need the compiler (packs, waivers, plugins),
 * the gate evaluation (workflow resolution, parsing and validation, autonomy, the gate rules,
 * policy packs' judgements), the wording of its findings with the elements' names, and the
 * reading of an `approval`. A host's bundler puts it in a chunk
 * of its own, fetched while or after the diagram shows, so the page's first load carries only the
 * view (see docs/modeler.md).
 */
export { evaluateGates } from "../bpmn/index.js";
export { namedDecision } from "../bpmn/evaluate-labels.js";
export { approvalChanges, approvedStatement } from "./approval.js";
export { preparedOptions } from "./policy-checks.js";
export { parseRef } from "../model/index.js";
