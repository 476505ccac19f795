/**
 * The view a plugin's process rule is given (`context.view`), kept by a rule that reports
 * nothing: shared by the tests of the process view.
 */
import type { BpmnRuleContext, ProcessCheck } from "../../../src/bpmn/index.js";
import { checkProcess } from "../../../src/bpmn/index.js";
import type { ProcessView } from "../../../src/policy/index.js";
import { defineRule } from "../../../src/rules/index.js";

/** The view of `xml` checked with `options`, and the findings of the check. */
export async function viewOf(
  xml: string,
  options: Parameters<typeof checkProcess>[1] = {},
): Promise<{ view: ProcessView; check: ProcessCheck }> {
  let kept: ProcessView | undefined;
  const keep = defineRule<BpmnRuleContext>({
    meta: {
      code: "KEEP_VIEW",
      scope: "process",
      defaultSeverity: "info",
      description: "Keeps the view",
      docs: "test",
      messages: { default: "never" },
    },
    check(context) {
      kept = context.view;
    },
  });
  const check = await checkProcess(xml, {
    ...options,
    plugins: { test: { meta: { name: "test", version: "1.0.0" }, rules: { KEEP_VIEW: keep } } },
  });
  if (kept === undefined) throw new Error("no view");
  return { view: kept, check };
}
