/**
 * The nine workflows agentflow ships: the examples' six (`examples/workflows`, the registry's two
 * agents) and the three templates, parsed. The exports are tested on each by loading them in the
 * peer's own code.
 */
import { readFileSync } from "node:fs";
import type { AgentWorkflow } from "../../src/model/index.js";
import {
  getTemplate,
  listTemplates,
  parseWorkflow,
  parseWorkflowText,
} from "../../src/model/index.js";

const EXAMPLES = [
  "workflows/contract-review.agent.yaml",
  "workflows/invoice-exception-review.agent.json",
  "workflows/market-research.agent.json",
  "workflows/refund-autopilot.broken.agent.json",
  "registry/credit-risk.agent.json",
  "registry/offer-sender.agent.json",
];

/** `[label, workflow]` for each shipped workflow: the examples by path, then `template <id>`. */
export const SHIPPED: readonly (readonly [string, AgentWorkflow])[] = [
  ...EXAMPLES.map((path): [string, AgentWorkflow] => {
    const text = readFileSync(new URL(`../../examples/${path}`, import.meta.url), "utf8");
    const read = parseWorkflowText(text, { format: path.endsWith(".yaml") ? "yaml" : "json" });
    const wf = parseWorkflow(read.value).workflow;
    if (wf === undefined) throw new Error(`${path} does not parse`);
    return [path, wf];
  }),
  ...listTemplates().map((t): [string, AgentWorkflow] => {
    const wf = getTemplate(t.id);
    if (wf === undefined) throw new Error(`no template ${t.id}`);
    return [`template ${t.id}`, wf];
  }),
];
