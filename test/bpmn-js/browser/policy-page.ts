/// <reference lib="dom" />
/**
 * The page of the bpmn-js policy test (`../policies.e2e.test.ts`): bpmn-js with agentflow's
 * module and bpmn-js-bpmnlint running agentflow's plugin, both resolving from the example
 * registry bundled in. `window.policyPage.open(agentflow, rules)` builds a modeller with the
 * module's options and the lint rules given (plain data, as the test passes them), imports the
 * example loan process and resolves once the module has evaluated it.
 */
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css";
import "../../../src/bpmn-js/style.css";
import BpmnModeler from "bpmn-js/lib/Modeler.js";
import lintModule from "bpmn-js-bpmnlint";
import StaticResolver from "bpmnlint/lib/resolver/static-resolver.js";
import { exampleRegistry } from "../../../examples/modeler/registry.js";
import loanXml from "../../../examples/processes/loan-origination.bpmn";
import type { GateDecision } from "../../../src/bpmn/index.js";
import { BTV_PACKAGE } from "../../../src/bpmn/index.js";
import { createRules, staticResolverCache } from "../../../src/bpmn/lint/index.js";
import type { AgentflowChangedEvent } from "../../../src/bpmn-js/index.js";
import Agentflow from "../../../src/bpmn-js/index.js";

/** One lint report, as the test reads it. */
export interface PageReport {
  readonly id: string;
  readonly message: string;
  readonly category: string;
}

/** The part of the modeller the page uses. */
interface PageModeler {
  importXML(xml: string): Promise<unknown>;
  destroy(): void;
  get(name: "agentflow"): { getDecision(): GateDecision | undefined };
  get(name: "linting"): {
    lint(): Promise<Readonly<Record<string, readonly Partial<PageReport>[]>>>;
  };
  on(event: "agentflow.changed", callback: (event: AgentflowChangedEvent) => void): void;
}

const Modeler = BpmnModeler as unknown as new (options: object) => PageModeler;

let current: PageModeler | undefined;

/** Opens the example in a new modeller; resolves with the module's first decision. */
async function open(agentflow: object, rules: object): Promise<GateDecision> {
  current?.destroy();
  const modeler = new Modeler({
    container: "#canvas",
    additionalModules: [Agentflow, lintModule],
    moddleExtensions: { btv: BTV_PACKAGE },
    agentflow: { ...exampleRegistry, ...agentflow },
    linting: {
      active: true,
      bpmnlint: {
        config: { rules },
        resolver: new StaticResolver(staticResolverCache(createRules(exampleRegistry))),
      },
    },
  });
  current = modeler;
  const decided = new Promise<GateDecision>((resolve) => {
    modeler.on("agentflow.changed", (event) => {
      resolve(event.decision);
    });
  });
  await modeler.importXML(loanXml);
  return decided;
}

/** The lint results of the open modeller, by rule name. */
async function lint(): Promise<Record<string, PageReport[]>> {
  if (current === undefined) throw new Error("no modeller is open");
  const results = await current.get("linting").lint();
  const out: Record<string, PageReport[]> = {};
  for (const [name, reports] of Object.entries(results)) {
    out[name] = reports.map((r) => ({
      id: r.id ?? "",
      message: r.message ?? "",
      category: r.category ?? "",
    }));
  }
  return out;
}

declare global {
  interface Window {
    policyPage: {
      open(agentflow: object, rules: object): Promise<GateDecision>;
      lint(): Promise<Record<string, PageReport[]>>;
      decision(): GateDecision | undefined;
    };
  }
}

window.policyPage = {
  open,
  lint,
  decision: () => current?.get("agentflow").getDecision(),
};
