/**
 * What the module runs to judge a diagram, loaded by the service with `import()` at the first
 * evaluation: the checks of the policy options that need the engine (waivers, plugins), the gate
 * evaluation (workflow resolution, parsing and validation, autonomy, the gate rules, policy packs'
 * judgements), the wording of its findings with the elements' names, and the reading of an
 * `approval`. A host's bundler puts it in a chunk of its own, fetched while or after the diagram
 * shows, so the page's first load carries only the view (see docs/modeler.md). The pack compiler
 * is a further chunk, which `loadPackCompiler` fetches only for a page that sets packs, and so is
 * the reader of an import bpmn-moddle warned about (`loadImportReader`).
 */
import type * as ImportReread from "./import-reread.js";
import type * as PackCompile from "./pack-compile.js";

export { evaluateCompiled } from "../bpmn/evaluate-run.js";
export { namedDecision } from "../bpmn/evaluate-labels.js";
export { approvalChanges, approvedStatement } from "./approval.js";
export { withParseFindings } from "./parse-findings.js";
export { preparedOptions, setsPacks } from "./policy-checks.js";
export { parseRef } from "../model/index.js";

/** The pack compiler (`pack-compile.ts`), in a chunk of its own: only pages with packs load it. */
export function loadPackCompiler(): Promise<typeof PackCompile> {
  return import("./pack-compile.js");
}

/**
 * The reader of an import's XML (`import-reread.ts`), in a chunk of its own: only a page that
 * imported a diagram bpmn-moddle warned about loads it.
 */
export function loadImportReader(): Promise<typeof ImportReread> {
  return import("./import-reread.js");
}
