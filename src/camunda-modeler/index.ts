/**
 * agentflow's Camunda Desktop Modeler plug-in, the script its manifest (`index.js`) names. The
 * Modeler loads it with a `<script>` tag in its window before any editor opens; it registers,
 * through `window.plugins` as camunda-modeler-plugin-helpers writes it:
 *
 * - the `btv` moddle extension, so `btv:agentTask`, `btv:gate` and the `btv` attributes are
 *   typed elements every BPMN editor keeps, edits and saves;
 * - the "Agent governance" group of the properties panel (`agentflow/bpmn-js/properties-panel`),
 *   rendered with the Modeler's own properties panel (the bundle takes it from `window.vendor`);
 * - agentflow's lint rules for the Problems panel of Camunda 7 and Camunda 8 diagrams, with the
 *   settings of the diagram's `agentflow.config.json` (see `tracker.ts`);
 * - a client extension that hears the Modeler's events to know which file each diagram is.
 *
 * `docs/camunda-modeler.md` says how to install it and what it reads.
 *
 * @packageDocumentation
 */
import {
  registerBpmnJSModdleExtension,
  registerBpmnJSPlugin,
  registerClientExtension,
  registerClientPlugin,
} from "camunda-modeler-plugin-helpers";
import { BTV_PACKAGE } from "../bpmn/moddle.js";
import AgentflowPropertiesProviderModule from "../bpmn-js/properties-panel/index.js";
import { lintRulesPlugin } from "./lint-plugin.js";
import type { ClientPluginProps } from "./tracker.js";
import { ProjectTracker } from "./tracker.js";

/** The tab types whose linting takes the rules (`lintRules.<type>` in the Modeler). */
export const LINTED_TAB_TYPES = ["bpmn", "cloud-bpmn"] as const;

const tracker = new ProjectTracker();

/**
 * The client extension: the Modeler renders it with its plug-in props. It draws nothing; it
 * connects the tracker to the Modeler's events. It needs no hooks (so no React of its own):
 * connecting is idempotent, and the Modeler cancels the subscriptions when it unmounts it.
 */
function AgentflowProjectSettings(props: ClientPluginProps): null {
  tracker.connect(props);
  return null;
}

registerBpmnJSModdleExtension(BTV_PACKAGE);
registerBpmnJSPlugin(AgentflowPropertiesProviderModule);
registerClientExtension(AgentflowProjectSettings);
const lintRules = lintRulesPlugin(tracker);
for (const type of LINTED_TAB_TYPES) registerClientPlugin(lintRules, `lintRules.${type}`);
