/// <reference lib="dom" />
/**
 * The page of the bpmn-js policy test (`../policies.e2e.test.ts`): bpmn-js with agentflow's
 * module and bpmn-js-bpmnlint running agentflow's plugin, both resolving from the example
 * registry bundled in. `window.policyPage.open(agentflow, rules)` builds a modeller with the
 * module's options and the lint rules given (plain data, as the test passes them), imports the
 * example loan process and resolves once the module has evaluated it. `window.policyPage.probe`
 * opens a given XML and `bypass` then edits it, each resolving with what the module then says
 * (its events, its decision, its badges), error or not, for the module's fail-closed cases.
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

/** What the module said and shows after a probe: its events in order, decision and badges. */
export interface ProbeResult {
  /** `changed allowed=<bool>`, `stale <reason>` or `error <message>`. */
  readonly events: readonly string[];
  /** `getDecision()`: its verdict as `code@element` lines, or `null` when it is `undefined`. */
  readonly decision: { readonly allowed: boolean; readonly blocking: readonly string[] } | null;
  /** The badges drawn, as `element:status`. */
  readonly badges: readonly string[];
}

/** A diagram-js element, as far as the page's edits use it. */
interface PageElement {
  readonly parent?: PageElement;
}

/** The part of the modeller the page uses. */
interface PageModeler {
  importXML(xml: string): Promise<unknown>;
  destroy(): void;
  get(name: "agentflow"): { getDecision(): GateDecision | undefined };
  get(name: "linting"): {
    lint(): Promise<Readonly<Record<string, readonly Partial<PageReport>[]>>>;
  };
  get(name: "elementRegistry"): { get(id: string): PageElement | undefined };
  get(name: "modeling"): {
    connect(source: PageElement, target: PageElement): unknown;
    createShape(shape: object, at: object, parent: PageElement): PageElement;
  };
  on(event: "agentflow.changed", callback: (event: AgentflowChangedEvent) => void): void;
  on(event: string, callback: (event: { error?: unknown; reason?: string }) => void): void;
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

/** Every event the module fired on the probed modeller, in order. */
let said: string[] = [];
/** Resolves at the probed modeller's next `agentflow.changed` or `agentflow.error`. */
let settle: (() => void) | undefined;

/** A host's gate predicate that reads every node's name: it throws on a node without one. */
function namedReview(element: { $type: string; name?: string }): boolean {
  if (element.name === undefined) throw new TypeError(`${element.$type} has no name`);
  return element.$type === "bpmn:UserTask" || element.name.toLowerCase().startsWith("review");
}

/** What the module says and shows once its next evaluation has ended. */
async function settled(start: () => Promise<unknown>): Promise<ProbeResult> {
  const ended = new Promise<void>((resolve) => {
    settle = resolve;
  });
  said = [];
  await start();
  await ended;
  const decision = current?.get("agentflow").getDecision();
  const line = (d: GateDecision["blocking"][number]) =>
    `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`;
  return {
    events: said,
    decision:
      decision === undefined
        ? null
        : { allowed: decision.allowed, blocking: decision.blocking.map(line) },
    badges: Array.from(
      document.querySelectorAll<HTMLElement>(".agentflow-badge"),
      (b) => `${b.dataset.agentflowElement ?? ""}:${b.dataset.agentflowGate ?? ""}`,
    ),
  };
}

/**
 * Opens `xml` in a new modeller with the module's options (and, with `hostGate`, a host predicate
 * that throws on an unnamed node); resolves once the first evaluation ended.
 */
function probe(xml: string, agentflow: object, hostGate: boolean): Promise<ProbeResult> {
  current?.destroy();
  const modeler = new Modeler({
    container: "#canvas",
    additionalModules: [Agentflow],
    moddleExtensions: { btv: BTV_PACKAGE },
    agentflow: { ...exampleRegistry, ...(hostGate ? { isGate: namedReview } : {}), ...agentflow },
  });
  current = modeler;
  modeler.on("agentflow.changed", (event) => {
    said.push(`changed allowed=${String(event.decision.allowed)}`);
    settle?.();
  });
  modeler.on("agentflow.stale", (event) => said.push(`stale ${event.reason ?? ""}`));
  modeler.on("agentflow.error", (event) => {
    said.push(`error ${event.error instanceof Error ? event.error.message : String(event.error)}`);
    settle?.();
  });
  return settled(() => modeler.importXML(xml));
}

/**
 * Draws what skips "Underwriter review": a flow from "Risk band?" to "Draft and send offer", and
 * an unnamed gateway between "Risk band?" and "Offer sent"; resolves once that is evaluated.
 */
function bypass(): Promise<ProbeResult> {
  const modeler = current;
  if (modeler === undefined) throw new Error("no modeller is open");
  const elements = modeler.get("elementRegistry");
  const modeling = modeler.get("modeling");
  const at = (id: string): PageElement => {
    const element = elements.get(id);
    if (element === undefined) throw new Error(`no ${id}`);
    return element;
  };
  return settled(() => {
    const band = at("RiskBand");
    modeling.connect(band, at("DraftAndSendOffer"));
    const parent = band.parent ?? band;
    const gateway = modeling.createShape(
      { type: "bpmn:ExclusiveGateway" },
      { x: 700, y: 450 },
      parent,
    );
    modeling.connect(band, gateway);
    modeling.connect(gateway, at("OfferSent"));
    return Promise.resolve();
  });
}

declare global {
  interface Window {
    policyPage: {
      open(agentflow: object, rules: object): Promise<GateDecision>;
      lint(): Promise<Record<string, PageReport[]>>;
      decision(): GateDecision | undefined;
      probe(xml: string, agentflow: object, hostGate: boolean): Promise<ProbeResult>;
      bypass(): Promise<ProbeResult>;
    };
  }
}

window.policyPage = {
  open,
  lint,
  decision: () => current?.get("agentflow").getDecision(),
  probe,
  bypass,
};
