/// <reference lib="dom" />
/**
 * The page of the split-build test (`../chunks.e2e.test.ts`): bpmn-js with agentflow's module,
 * imported as docs/modeler.md imports it and bundled by esbuild with `splitting: true`, so the
 * engine is a chunk of its own that the page fetches over HTTP. `window.splitPage.build(options)`
 * builds a modeller (nothing is evaluated yet); `open()` imports the example loan process and
 * resolves with what the module said first: its decision, or the error it fired.
 */
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "../../../src/bpmn-js/style.css";
import BpmnModeler from "bpmn-js/lib/Modeler.js";
import { exampleRegistry } from "../../../examples/modeler/registry.js";
import loanXml from "../../../examples/processes/loan-origination.bpmn";
import type { AgentflowChangedEvent, AgentflowErrorEvent } from "../../../src/bpmn-js/index.js";
import Agentflow, { BTV_PACKAGE } from "../../../src/bpmn-js/index.js";

/** What the module said after the import. */
export type SplitOutcome =
  { readonly allowed: boolean; readonly blocking: readonly string[] } | { readonly error: string };

/** The part of the modeller the page uses. */
interface PageModeler {
  importXML(xml: string): Promise<unknown>;
  destroy(): void;
  on(event: "agentflow.changed", callback: (event: AgentflowChangedEvent) => void): void;
  on(event: "agentflow.error", callback: (event: AgentflowErrorEvent) => void): void;
}

const Modeler = BpmnModeler as unknown as new (options: object) => PageModeler;

let current: PageModeler | undefined;
let said: Promise<SplitOutcome> | undefined;

function build(agentflow: object): void {
  current?.destroy();
  const modeler = new Modeler({
    container: "#canvas",
    additionalModules: [Agentflow],
    moddleExtensions: { btv: BTV_PACKAGE },
    agentflow: { ...exampleRegistry, ...agentflow },
  });
  current = modeler;
  said = new Promise<SplitOutcome>((resolve) => {
    modeler.on("agentflow.changed", ({ decision }) => {
      resolve({ allowed: decision.allowed, blocking: decision.blocking.map((d) => d.code) });
    });
    modeler.on("agentflow.error", ({ error }) => {
      resolve({ error: error instanceof Error ? error.message : String(error) });
    });
  });
}

async function open(): Promise<SplitOutcome> {
  if (current === undefined || said === undefined) throw new Error("no modeller is built");
  await current.importXML(loanXml);
  return said;
}

declare global {
  interface Window {
    splitPage: { build(agentflow: object): void; open(): Promise<SplitOutcome> };
  }
}

window.splitPage = { build, open };
