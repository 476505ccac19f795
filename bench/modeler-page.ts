/// <reference lib="dom" />
/**
 * The page of the modeller bench (`modeler.ts`): a bpmn-js Modeler, with or without agentflow's
 * module (each bench page passes its own modules), that opens a diagram and makes edits through
 * the command stack as a designer's clicks do, timing both in the browser. The main thread's
 * blocking is read from the browser's own long-task entries (`PerformanceObserver`, `longtask`),
 * so nothing here needs to guess what the modeller did between two timestamps.
 */
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";
import "../src/bpmn-js/style.css";
import BpmnModeler from "bpmn-js/lib/Modeler.js";

/** What opening a diagram cost the main thread. */
export interface OpenTiming {
  /** The sum of the long tasks (> 50 ms each) from the import's start until the page is quiet. */
  readonly blockedMs: number;
  /** The part of it after `importXML` resolved: with the module, its first evaluation. */
  readonly afterImportMs: number;
  /** The longest of them. */
  readonly longestMs: number;
  /** From the import's start until the diagram is shown (and, with the module, evaluated and drawn). */
  readonly readyMs: number;
  /** The agent-task badges drawn (0 without the module). */
  readonly badges: number;
}

/** What one edit cost. */
export interface EditTiming {
  readonly kind: EditKind;
  /** The command itself (bpmn-js's own work, the same with or without the module). */
  readonly commandMs: number;
  /** The module's evaluation, from its start until its result is drawn; 0 without the module. */
  readonly evaluateMs: number;
  /**
   * From the evaluation's start until the next frame is rendered: the evaluation and the
   * browser's restyling of what it drew (without the module, the wait for a frame alone).
   */
  readonly renderedMs: number;
}

/** The edits the bench makes, in turn. */
export type EditKind = "rename" | "move" | "add-flow" | "remove-flow" | "btv-level";

/** A diagram-js element, as far as the page reads it. */
interface Element {
  readonly id: string;
  readonly type: string;
  readonly parent?: Element;
  readonly businessObject: {
    readonly extensionElements?: { readonly values?: readonly { readonly $type: string }[] };
  };
}

interface Modeling {
  updateLabel(element: Element, text: string): void;
  moveElements(elements: readonly Element[], delta: { x: number; y: number }): void;
  connect(source: Element, target: Element): Element;
  removeElements(elements: readonly Element[]): void;
  updateModdleProperties(element: Element, moddle: object, properties: object): void;
}

interface PageModeler {
  importXML(xml: string): Promise<unknown>;
  destroy(): void;
  get(name: "modeling"): Modeling;
  get(name: "elementRegistry"): { filter(fn: (e: Element) => boolean): Element[] };
  get(name: "agentflow"): { evaluate(): Promise<unknown> };
  on(event: string, callback: (event: { error?: unknown }) => void): void;
  off(event: string, callback: (event: { error?: unknown }) => void): void;
}

const Modeler = BpmnModeler as unknown as new (options: object) => PageModeler;

/** The long tasks seen since the page loaded, as [start, duration]. */
const longTasks: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });

let modeler: PageModeler | undefined;
let withModule = false;
let lastFlow: Element | undefined;
let round = 0;

const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once the next frame is rendered: a task queued from its animation frame runs after. */
const settled = async (): Promise<void> => {
  await frame();
  await sleep(0);
};

/** Resolves at the module's next `agentflow.changed`; rejects at `agentflow.error`. */
function nextResult(m: PageModeler): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      m.off("agentflow.changed", done);
      m.off("agentflow.error", failed);
      resolve();
    };
    const failed = (event: { error?: unknown }): void => {
      m.off("agentflow.changed", done);
      m.off("agentflow.error", failed);
      reject(event.error instanceof Error ? event.error : new Error(String(event.error)));
    };
    m.on("agentflow.changed", done);
    m.on("agentflow.error", failed);
  });
}

/**
 * The module's options as the bench passes them from Node.js (plain data: a page cannot be
 * handed a function), turned into a registry here.
 */
export interface BenchOptions {
  /** Workflows by `id@version`. */
  readonly workflows: Readonly<Record<string, unknown>>;
  readonly debounce: number;
}

/** The installed bench: `open` a diagram, then `edit` it. */
export interface ModelerBenchPage {
  open(xml: string, agentflow: BenchOptions | undefined): Promise<OpenTiming>;
  edit(kind: EditKind): Promise<EditTiming>;
}

/**
 * Installs `window.modelerBench` on a page whose modeller has `modules`; `btv` is the moddle
 * extension the module needs (plain bpmn-js reads `btv:*` as unknown extension elements).
 */
export function installBench(modules: readonly object[], btv: object | undefined): void {
  const open = async (xml: string, options: BenchOptions | undefined): Promise<OpenTiming> => {
    const agentflow =
      options === undefined
        ? undefined
        : {
            resolveWorkflow: (ref: string): unknown =>
              Object.hasOwn(options.workflows, ref) ? options.workflows[ref] : undefined,
            debounce: options.debounce,
          };
    modeler?.destroy();
    withModule = agentflow !== undefined;
    await sleep(100);
    const start = performance.now();
    const m = new Modeler({
      container: "#canvas",
      additionalModules: modules,
      ...(btv === undefined ? {} : { moddleExtensions: { btv } }),
      ...(agentflow === undefined ? {} : { agentflow }),
    });
    modeler = m;
    const evaluated = withModule ? nextResult(m) : Promise.resolve();
    await m.importXML(xml);
    const imported = performance.now();
    await evaluated;
    await settled();
    const readyMs = performance.now() - start;
    // Long tasks are reported after they end: let the last ones (layout, paint) arrive.
    await sleep(500);
    // The task that runs the import began a moment before `start` was read: keep every task
    // that ended after it.
    const seen = longTasks.filter(([at, ms]) => at + ms > start);
    const sum = (tasks: readonly [number, number][]): number =>
      tasks.reduce((total, [, ms]) => total + ms, 0);
    return {
      blockedMs: sum(seen),
      afterImportMs: sum(seen.filter(([at]) => at >= imported)),
      longestMs: Math.max(0, ...seen.map(([, ms]) => ms)),
      readyMs,
      badges: document.querySelectorAll(".agentflow-badge").length,
    };
  };

  const edit = async (kind: EditKind): Promise<EditTiming> => {
    const m = modeler;
    if (m === undefined) throw new Error("no diagram is open");
    const modeling = m.get("modeling");
    const registry = m.get("elementRegistry");
    const agents = registry.filter((e) =>
      (e.businessObject.extensionElements?.values ?? []).some(
        (v) => v.$type.toLowerCase() === "btv:agenttask",
      ),
    );
    const n = round++;
    const agent = agents[(n * 7) % agents.length];
    // An end in the agent's own container, so that the flow is one a designer could draw.
    const end = registry.filter((e) => e.type === "bpmn:EndEvent" && e.parent === agent?.parent)[0];
    if (agent === undefined || end === undefined) throw new Error("no agent task or end event");
    const start = performance.now();
    switch (kind) {
      case "rename":
        modeling.updateLabel(agent, `Agent step ${n}`);
        break;
      case "move":
        modeling.moveElements([agent], { x: n % 2 === 0 ? 10 : -10, y: 0 });
        break;
      case "add-flow":
        // An agent task straight to an end: a path without its gate, as a designer draws one.
        lastFlow = modeling.connect(agent, end);
        break;
      case "remove-flow":
        if (lastFlow === undefined) throw new Error("no flow was added");
        modeling.removeElements([lastFlow]);
        lastFlow = undefined;
        break;
      case "btv-level": {
        const ext = agent.businessObject.extensionElements?.values?.find(
          (v) => v.$type.toLowerCase() === "btv:agenttask",
        );
        if (ext === undefined) throw new Error("no btv:agentTask");
        modeling.updateModdleProperties(agent, ext, { autonomyLevel: n % 2 === 0 ? "3" : "2" });
        break;
      }
    }
    const commandMs = performance.now() - start;
    // bpmn-js shows its edit first (a frame), then the module's evaluation runs: what its debounce
    // timer calls, called here so that its start is known.
    await settled();
    const evaluated = performance.now();
    if (withModule && (await m.get("agentflow").evaluate()) === undefined) {
      throw new Error("the evaluation was dropped or failed");
    }
    const evaluateMs = performance.now() - evaluated;
    await settled();
    return { kind, commandMs, evaluateMs, renderedMs: performance.now() - evaluated };
  };

  (window as unknown as { modelerBench: ModelerBenchPage }).modelerBench = { open, edit };
}
