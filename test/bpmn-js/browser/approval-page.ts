/// <reference lib="dom" />
/**
 * The page of the bpmn-js approval test (`../approval.e2e.test.ts`): bpmn-js with agentflow's
 * module, an approval given as the `approval` option (plain data, as the test passes it).
 * `window.approvalPage.open(xml, approval, workflows)` builds a modeller whose registry is the
 * example's, with `workflows` (by ref) in place of the example's documents, imports `xml` and
 * resolves with the module's first `agentflow.changed`; `removeGate(id)` takes the `btv:gate`
 * off an element through the modelling commands, as a designer's edit would, and resolves with
 * the evaluation that follows. `marked(marker)` lists the elements carrying a canvas marker.
 */
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css";
import "../../../src/bpmn-js/style.css";
import BpmnModeler from "bpmn-js/lib/Modeler.js";
import { exampleRegistry } from "../../../examples/modeler/registry.js";
import { BTV_PACKAGE } from "../../../src/bpmn/index.js";
import type { AgentflowChangedEvent } from "../../../src/bpmn-js/index.js";
import Agentflow from "../../../src/bpmn-js/index.js";

/** A diagram element, as far as the page reads it. */
interface Element {
  readonly id: string;
  readonly businessObject: {
    readonly extensionElements?: { readonly values: readonly { readonly $type: string }[] };
  };
}

/** The part of the modeller the page uses. */
interface PageModeler {
  importXML(xml: string): Promise<unknown>;
  destroy(): void;
  get(name: "elementRegistry"): {
    get(id: string): Element | undefined;
    getAll(): Element[];
  };
  get(name: "canvas"): { hasMarker(element: Element, marker: string): boolean };
  get(name: "modeling"): {
    updateModdleProperties(element: Element, target: object, properties: object): void;
  };
  on(event: string, callback: (event: unknown) => void): void;
}

const Modeler = BpmnModeler as unknown as new (options: object) => PageModeler;

/** What the page reports of one evaluation. */
export interface PageResult {
  readonly changed: Pick<AgentflowChangedEvent, "approval">;
  /** The messages of every `agentflow.error` so far. */
  readonly errors: string[];
}

let current: PageModeler | undefined;
let errors: string[] = [];
let next: ((event: AgentflowChangedEvent) => void) | undefined;

function changed(): Promise<PageResult> {
  return new Promise((resolve) => {
    next = (event) => {
      resolve({
        changed: { ...(event.approval === undefined ? {} : { approval: event.approval }) },
        errors,
      });
    };
  });
}

/** Opens `xml` with the approval; `workflows` replace the example's documents by ref. */
async function open(
  xml: string,
  approval: unknown,
  workflows: Readonly<Record<string, unknown>> = {},
): Promise<PageResult> {
  current?.destroy();
  errors = [];
  const modeler = new Modeler({
    container: "#canvas",
    additionalModules: [Agentflow],
    moddleExtensions: { btv: BTV_PACKAGE },
    agentflow: {
      ...exampleRegistry,
      resolveWorkflow: (ref: string): unknown =>
        Object.hasOwn(workflows, ref) ? workflows[ref] : exampleRegistry.resolveWorkflow(ref),
      debounce: 0,
      approval,
    },
  });
  current = modeler;
  modeler.on("agentflow.error", (event) => {
    const error = (event as { error: unknown }).error;
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  });
  modeler.on("agentflow.changed", (event) => {
    next?.(event as AgentflowChangedEvent);
  });
  const result = changed();
  await modeler.importXML(xml);
  return result;
}

function modeler(): PageModeler {
  if (current === undefined) throw new Error("no modeller is open");
  return current;
}

/** Takes the `btv:gate` off element `id` with the modelling commands; resolves once re-evaluated. */
async function removeGate(id: string): Promise<PageResult> {
  const element = modeler().get("elementRegistry").get(id);
  const ext = element?.businessObject.extensionElements;
  if (element === undefined || ext === undefined)
    throw new Error(`${id} has no extension elements`);
  const result = changed();
  modeler()
    .get("modeling")
    .updateModdleProperties(element, ext, {
      values: ext.values.filter((v) => v.$type !== "btv:Gate"),
    });
  return result;
}

/** The ids of the elements carrying `marker` on the canvas, sorted. */
function marked(marker: string): string[] {
  const canvas = modeler().get("canvas");
  return modeler()
    .get("elementRegistry")
    .getAll()
    .filter((element) => canvas.hasMarker(element, marker))
    .map((element) => element.id)
    .sort();
}

declare global {
  interface Window {
    approvalPage: {
      open: typeof open;
      removeGate: typeof removeGate;
      marked: typeof marked;
    };
  }
}

window.approvalPage = { open, removeGate, marked };
