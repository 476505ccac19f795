/// <reference lib="dom" />
/**
 * The `agentflow` service: evaluates the gates on the modeller's own definitions after import
 * and after every change (debounced), keeps the latest {@link GateDecision}, fires
 * `agentflow.changed` with it, and draws the badges, gate markers and bypass flows. What judges
 * the diagram is loaded at the first evaluation, not with this file (`engine-load.ts`), and the
 * page shows the diagram without waiting for it. Fail closed: a decision is given out only for the
 * diagram on screen. Once the diagram changes, `getDecision()` answers `undefined` (and
 * `agentflow.stale` fires) until the change is evaluated; an evaluation that fails drops the
 * decision and everything drawn for it.
 */
import type { GateDecision } from "../bpmn/index.js";
import type { ApprovalChanges } from "./approval-marks.js";
import { ApprovalState } from "./approval-state.js";
import type {
  AgentflowChangedEvent,
  AgentflowErrorEvent,
  AgentflowStaleEvent,
  AgentflowToggleEvent,
} from "./events.js";
import { asModdle } from "./btv-read.js";
import type { AgentflowConfig } from "./config.js";
import { DEFAULT_DEBOUNCE, optionProblems } from "./options.js";
import type {
  BpmnJs,
  Canvas,
  DiagramElement,
  ElementRegistry,
  EventBus,
  Overlays,
} from "./diagram.js";
import { DRAW_STEP, Drawing, nextTask } from "./drawing.js";
import type { Engine } from "./engine-load.js";
import { EngineLoader } from "./engine-load.js";
import { ImportState } from "./import-state.js";
import type { Scene } from "./paint.js";
import { EMPTY_SCENE, sceneOf } from "./paint.js";

/** The module's service, registered as `agentflow`. */
export class AgentflowService {
  /** What diagram-js injects, in constructor order. */
  static readonly $inject = [
    "config.agentflow",
    "eventBus",
    "bpmnjs",
    "elementRegistry",
    "overlays",
    "canvas",
  ];

  readonly #engines: EngineLoader;
  readonly #imports = new ImportState();
  readonly #debounce: number;
  readonly #eventBus: EventBus;
  readonly #bpmnjs: BpmnJs;
  readonly #registry: ElementRegistry;
  readonly #drawing: Drawing;
  #active: boolean;
  /** The decision last drawn; it may be for the diagram before an edit (see `#current`). */
  #decision: GateDecision | undefined;
  /** Whether `#decision` was reached on the diagram on screen (no edit since it was started). */
  #current = false;
  readonly #approval: ApprovalState;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts evaluations, so that an older async one that finishes late is dropped. */
  #run = 0;

  /**
   * Built by diagram-js; throws a `TypeError` naming every wrong option the page can tell without
   * the engine. The packs, waivers and plugins are checked at the first evaluation.
   */
  constructor(
    config: AgentflowConfig | undefined,
    eventBus: EventBus,
    bpmnjs: BpmnJs,
    elementRegistry: ElementRegistry,
    overlays: Overlays,
    canvas: Canvas,
  ) {
    const problems = optionProblems(config);
    if (problems.length > 0) throw new TypeError(problems.join("; "));
    const { debounce, active, approval, ...options } = config ?? {};
    this.#engines = new EngineLoader(options);
    this.#debounce = debounce ?? DEFAULT_DEBOUNCE;
    this.#active = active ?? true;
    this.#eventBus = eventBus;
    this.#bpmnjs = bpmnjs;
    this.#registry = elementRegistry;
    this.#drawing = new Drawing(overlays, canvas);
    // A malformed one is said at the first evaluation: the host listens once the modeller is built.
    this.#approval = new ApprovalState(approval);
    eventBus.on("import.parse.start", (event) => {
      this.#imports.started(event);
    });
    eventBus.on("import.parse.complete", (event) => {
      this.#imports.parsed(event);
    });
    eventBus.on("import.done", () => {
      this.#imports.done(bpmnjs.getDefinitions());
      this.#schedule(0);
    });
    eventBus.on("commandStack.changed", () => {
      // A run still waiting on an async resolver evaluated the diagram as it was: drop it now,
      // not when the debounced run starts, or it could be drawn in between.
      this.#run++;
      this.#outdate("edited");
      this.#schedule(this.#debounce);
    });
    // diagram-js takes a removed element's overlays and graphics away itself.
    eventBus.on(["shape.remove", "connection.remove"], (event) => {
      const element = (event as { element?: DiagramElement }).element;
      if (element !== undefined) this.#drawing.forget(element);
    });
    eventBus.on("diagram.clear", () => {
      this.#cancel();
      this.#run++;
      this.#drop();
      this.#outdate("cleared");
    });
    eventBus.on("diagram.destroy", () => {
      this.#cancel();
      this.#run++;
    });
  }

  /**
   * The decision for the diagram on screen; `undefined` before the first evaluation, from an edit
   * until it is evaluated, and after an evaluation that failed.
   */
  getDecision(): GateDecision | undefined {
    return this.#current ? this.#decision : undefined;
  }

  /**
   * What the `approval` says of the diagram on screen: the agent tasks not as approved, and those
   * it lists that are gone; `undefined` without a usable approval or a decision.
   */
  getApprovalChanges(): ApprovalChanges | undefined {
    return this.#current ? this.#approval.changes : undefined;
  }

  /**
   * Replaces the approval (`undefined` removes it) and redraws: fires `agentflow.changed` with the
   * new comparison, or `agentflow.error` when it cannot be read (then nothing is marked). Before
   * the first evaluation has loaded the engine, the error fires once it is loaded; while an edit
   * waits to be evaluated, that evaluation compares.
   */
  setApproval(approval: unknown): void {
    this.#approval.set(approval);
    const engine = this.#engines.loaded;
    if (engine === undefined) {
      this.#engines.load().then(
        (loaded) => {
          this.#sayErrors(this.#approval.takeErrors(loaded));
        },
        (error: unknown) => {
          this.#sayErrors([error]);
        },
      );
    } else if (this.#decision === undefined) this.#sayErrors(this.#approval.takeErrors(engine));
    else if (this.#current) void this.#publish(this.#decision, engine, this.#run);
  }

  /** Whether the overlays are shown. */
  isActive(): boolean {
    return this.#active;
  }

  /**
   * Shows (`true`) or hides (`false`) every badge, marker and bypass flow, or flips them. The
   * gates are still evaluated while hidden, so `getDecision()` stays current.
   */
  toggle(on = !this.#active): void {
    this.#active = on;
    this.#drawing.show(this.#scene());
    this.#eventBus.fire("agentflow.toggle", { active: on } satisfies AgentflowToggleEvent);
  }

  /**
   * Evaluates the gates now (dropping a pending debounced run), draws the result and fires
   * `agentflow.changed`. Resolves with the decision, or `undefined` when there is no diagram, the
   * evaluation threw (then the decision and its drawing are dropped and `agentflow.error` fires),
   * or a later evaluation overtook this one.
   */
  async evaluate(): Promise<GateDecision | undefined> {
    this.#cancel();
    const run = ++this.#run;
    const definitions = asModdle(this.#bpmnjs.getDefinitions());
    if (definitions === undefined) return undefined;
    let decision: GateDecision;
    let engine: Engine;
    try {
      // Once loaded, the engine is called at once, as if it were imported with this file.
      const loaded = (engine = this.#engines.loaded ?? (await this.#engines.firstLoad()));
      const prepared = this.#engines.options(loaded);
      const options = prepared instanceof Promise ? await prepared : prepared;
      // What bpmn-moddle dropped at the import is a finding, as `agentflow gate` makes it.
      const parsed = await this.#imports.findings(definitions, async () => {
        return (await loaded.loadImportReader()).importFindings;
      });
      const evaluated = await loaded.evaluateCompiled(definitions, options);
      // The designer knows the tasks by their names: the findings say those, the data the ids.
      const found = loaded.withParseFindings(evaluated, parsed, options);
      decision = loaded.namedDecision(found, definitions, options);
    } catch (error) {
      if (run === this.#run) this.#fail(error);
      return undefined;
    }
    if (run !== this.#run) return undefined;
    return (await this.#publish(decision, engine, run)) ? decision : undefined;
  }

  /**
   * Keeps the decision, compares it with the approval, draws both (a large change in steps, one
   * task each), fires `agentflow.changed`; `false` when evaluation `run` was overtaken meanwhile.
   */
  async #publish(decision: GateDecision, engine: Engine, run: number): Promise<boolean> {
    this.#decision = decision;
    this.#current = true;
    this.#sayErrors(this.#approval.update(this.#bpmnjs.getDefinitions(), decision, engine));
    const steps = this.#drawing.steps(this.#scene(), DRAW_STEP);
    while (steps.next().done !== true) {
      await nextTask();
      if (run !== this.#run) return false;
    }
    const approval = this.#approval.changes;
    this.#eventBus.fire("agentflow.changed", {
      decision,
      ...(approval === undefined ? {} : { approval }),
    } satisfies AgentflowChangedEvent);
    return true;
  }

  /**
   * An evaluation of the diagram on screen failed: no decision holds for it, so none is kept or
   * drawn (a badge left from before would claim a verdict nobody reached), and the host is told.
   */
  #fail(error: unknown): void {
    this.#drop();
    this.#outdate("failed");
    this.#eventBus.fire("agentflow.error", { error } satisfies AgentflowErrorEvent);
  }

  /** Forgets the decision and its comparison, and takes off everything drawn for them. */
  #drop(): void {
    this.#drawing.clear();
    this.#decision = undefined;
    this.#approval.forget();
  }

  /** The decision given out no longer holds for the diagram on screen: says so, once. */
  #outdate(reason: AgentflowStaleEvent["reason"]): void {
    if (!this.#current) return;
    this.#current = false;
    this.#eventBus.fire("agentflow.stale", { reason } satisfies AgentflowStaleEvent);
  }

  #sayErrors(errors: readonly unknown[]): void {
    for (const error of errors) {
      this.#eventBus.fire("agentflow.error", { error } satisfies AgentflowErrorEvent);
    }
  }

  #schedule(delay: number): void {
    this.#cancel();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.evaluate();
    }, delay);
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The decision as last drawn, or nothing while hidden. */
  #scene(): Scene {
    const decision = this.#decision;
    return this.#active && decision !== undefined
      ? sceneOf(decision, this.#approval.changes, this.#registry)
      : EMPTY_SCENE;
  }
}
