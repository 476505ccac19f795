/// <reference lib="dom" />
/**
 * The modeller demo (`npm run demo:modeler`): the example loan process in bpmn-js with
 * agentflow's module, the properties panel with the "Agent governance" group, and the bpmnlint
 * plugin's live linting, all resolving from the example registry bundled in.
 */
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css";
import "@bpmn-io/properties-panel/dist/assets/properties-panel.css";
import "bpmn-js-bpmnlint/dist/assets/css/bpmn-js-bpmnlint.css";
import "agentflow/bpmn-js/style.css";
import BpmnModeler from "bpmn-js/lib/Modeler.js";
import lintModule from "bpmn-js-bpmnlint";
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule } from "bpmn-js-properties-panel";
import StaticResolver from "bpmnlint/lib/resolver/static-resolver.js";
import { createRules, staticResolverCache } from "../../src/bpmn/lint/index.js";
import type {
  AgentflowChangedEvent,
  AgentflowService,
  AgentflowStaleEvent,
} from "../../src/bpmn-js/index.js";
import Agentflow, { BTV_PACKAGE } from "../../src/bpmn-js/index.js";
import AgentflowPropertiesProviderModule from "../../src/bpmn-js/properties-panel/index.js";
import loanXml from "../processes/loan-origination.bpmn";
import { exampleRegistry } from "./registry.js";

/** The part of the modeller the page and its test use. */
interface DemoModeler {
  importXML(xml: string): Promise<{ readonly warnings: readonly unknown[] }>;
  saveXML(options?: { readonly format?: boolean }): Promise<{ readonly xml?: string }>;
  get(name: "agentflow"): AgentflowService;
  get(name: "canvas"): { zoom(level: "fit-viewport"): void };
  on(event: "agentflow.changed", callback: (event: AgentflowChangedEvent) => void): void;
  on(event: "agentflow.stale", callback: (event: AgentflowStaleEvent) => void): void;
}

// bpmn-js is ES modules without `"type": "module"`, so TypeScript (NodeNext) types its default
// export as a CommonJS namespace; esbuild bundles the real class.
const Modeler = BpmnModeler as unknown as new (options: object) => DemoModeler;

const modeler = new Modeler({
  container: "#canvas",
  propertiesPanel: { parent: "#properties" },
  additionalModules: [
    Agentflow,
    BpmnPropertiesPanelModule,
    BpmnPropertiesProviderModule,
    AgentflowPropertiesProviderModule,
    lintModule,
  ],
  moddleExtensions: { btv: BTV_PACKAGE },
  agentflow: exampleRegistry,
  linting: {
    active: true,
    bpmnlint: {
      config: { extends: "plugin:agentflow/recommended" },
      resolver: new StaticResolver(staticResolverCache(createRules(exampleRegistry))),
    },
  },
});

const verdict = document.getElementById("verdict");
const toggle = document.getElementById("toggle");
const agentflow = modeler.get("agentflow");

modeler.on("agentflow.changed", (event) => {
  if (verdict === null) return;
  const { allowed, blocking, warnings } = event.decision;
  verdict.dataset.allowed = String(allowed);
  verdict.textContent = `${allowed ? "Promotion allowed" : "Promotion blocked"} · ${blocking.length} blocking, ${warnings.length} warnings`;
});

// No verdict is shown for a diagram it was not reached on: an edit still being evaluated, or
// an evaluation that failed (agentflow.error says why).
modeler.on("agentflow.stale", (event) => {
  if (verdict === null) return;
  verdict.dataset.allowed = "false";
  verdict.textContent =
    event.reason === "failed" ? "No verdict: the evaluation failed" : "Evaluating…";
});

toggle?.addEventListener("click", () => {
  agentflow.toggle();
  toggle.textContent = agentflow.isActive() ? "Hide governance" : "Show governance";
});

/** For the browser test and the curious: the modeller of the page. */
declare global {
  interface Window {
    agentflowDemo: { readonly modeler: DemoModeler; readonly imported: Promise<unknown> };
  }
}

window.agentflowDemo = {
  modeler,
  imported: modeler.importXML(loanXml).then((result) => {
    modeler.get("canvas").zoom("fit-viewport");
    return result;
  }),
};
