/// <reference lib="dom" />
/**
 * The `agentflow` service: evaluates the gates on the modeller's own definitions after import
 * and after every change (debounced), keeps the latest {@link GateDecision}, fires
 * `agentflow.changed` with it, and draws the badges, gate markers and bypass flows. What judges
 * the diagram (`engine.ts`) is imported at the first evaluation, not with this file: a bundler
 * splits it into a chunk of its own, and the page shows the diagram without waiting for it.
 * Compiling the policy packs needs that engine, so a pack that does not compile is said at the
 * first evaluation (`agentflow.error`, every evaluation, nothing drawn), not by the constructor.
 */
import type { GateDecision, GateOptions } from "../bpmn/index.js";
import type { CompiledGateOptions } from "../bpmn/gate-options.js";
import type { ApprovalChanges } from "./approval-marks.js";
import { ApprovalState } from "./approval-state.js";
import type * as EngineModule from "./engine.js";
import type { AgentflowChangedEvent, AgentflowErrorEvent, AgentflowToggleEvent } from "./events.js";
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
import type { Scene } from "./paint.js";
import { EMPTY_SCENE, sceneOf } from "./paint.js";

type Engine = typeof EngineModule;

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

  /** The options as given (their engine-free checks passed): what `#prepared` starts from. */
  readonly #options: GateOptions;
  /**
   * The options with the packs compiled, or why they cannot be: set once the engine (and, for
   * packs, their compiler) is loaded, then every evaluation reuses it (the options never change,
   * so neither does the answer).
   */
  #prepared: { readonly options: CompiledGateOptions } | { readonly error: unknown } | undefined;
  readonly #debounce: number;
  readonly #eventBus: EventBus;
  readonly #bpmnjs: BpmnJs;
  readonly #registry: ElementRegistry;
  readonly #drawing: Drawing;
  #active: boolean;
  #decision: GateDecision | undefined;
  readonly #approval: ApprovalState;
  /** The engine once loaded: later evaluations call it without waiting a turn. */
  #engine: Engine | undefined;
  /** The engine's loading, shared by every caller until it is done; dropped if it fails. */
  #loading: Promise<Engine> | undefined;
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
    this.#options = options;
    this.#debounce = debounce ?? DEFAULT_DEBOUNCE;
    this.#active = active ?? true;
    this.#eventBus = eventBus;
    this.#bpmnjs = bpmnjs;
    this.#registry = elementRegistry;
    this.#drawing = new Drawing(overlays, canvas);
    // A malformed one is said at the first evaluation: the host listens once the modeller is built.
    this.#approval = new ApprovalState(approval);
    eventBus.on("import.done", () => {
      this.#schedule(0);
    });
    eventBus.on("commandStack.changed", () => {
      // A run still waiting on an async resolver evaluated the diagram as it was: drop it now,
      // not when the debounced run starts, or it could be drawn in between.
      this.#run++;
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
      this.#drawing.clear();
      this.#decision = undefined;
      this.#approval.forget();
    });
    eventBus.on("diagram.destroy", () => {
      this.#cancel();
      this.#run++;
    });
  }

  /** The decision for the diagram as last evaluated; `undefined` before the first evaluation. */
  getDecision(): GateDecision | undefined {
    return this.#decision;
  }

  /**
   * What the `approval` says of the diagram as last evaluated: the agent tasks not as approved,
   * and those it lists that are gone; `undefined` without a usable approval or a decision.
   */
  getApprovalChanges(): ApprovalChanges | undefined {
    return this.#approval.changes;
  }

  /**
   * Replaces the approval (`undefined` removes it) and redraws: fires `agentflow.changed` with the
   * new comparison, or `agentflow.error` when it cannot be read (then nothing is marked). Before
   * the first evaluation has loaded the engine, the error fires once it is loaded.
   */
  setApproval(approval: unknown): void {
    this.#approval.set(approval);
    const engine = this.#engine;
    if (engine === undefined) {
      this.#load().then(
        (loaded) => {
          this.#sayErrors(this.#approval.takeErrors(loaded));
        },
        (error: unknown) => {
          this.#sayErrors([error]);
        },
      );
    } else if (this.#decision !== undefined) void this.#publish(this.#decision, engine, this.#run);
    else this.#sayErrors(this.#approval.takeErrors(engine));
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
   * evaluation threw (then `agentflow.error` fires), or a later evaluation overtook this one.
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
      engine = this.#engine ?? (await this.#firstLoad());
      const options =
        this.#prepared === undefined ? await this.#prepare(engine) : kept(this.#prepared);
      // The designer knows the tasks by their names: the findings say those, the data the ids.
      const evaluated = await engine.evaluateCompiled(definitions, options);
      decision = engine.namedDecision(evaluated, definitions, options);
    } catch (error) {
      if (run === this.#run) {
        this.#eventBus.fire("agentflow.error", { error } satisfies AgentflowErrorEvent);
      }
      return undefined;
    }
    if (run !== this.#run) return undefined;
    return (await this.#publish(decision, engine, run)) ? decision : undefined;
  }

  /**
   * The engine at the first evaluation, evaluated in a task after the one that loaded it: on a
   * large diagram each part of the first evaluation then blocks the page for less time, and the
   * page answers input between them.
   */
  async #firstLoad(): Promise<Engine> {
    const engine = await this.#load();
    await nextTask();
    return engine;
  }

  /**
   * The options with the packs compiled, at the first evaluation and then kept; throws (each
   * time) the `TypeError` naming what in the packs, waivers or plugins is wrong. Fail closed: a
   * badge or gate drawn without the policy applied would claim a verdict nobody reached. The
   * pack compiler is fetched only when the options set packs; a failed fetch is not kept, so the
   * next evaluation fetches it again.
   */
  async #prepare(engine: Engine): Promise<CompiledGateOptions> {
    const compiler = engine.setsPacks(this.#options) ? await engine.loadPackCompiler() : undefined;
    if (this.#prepared === undefined) {
      try {
        this.#prepared = {
          options: engine.preparedOptions(this.#options, compiler?.compiledEntry),
        };
      } catch (error) {
        this.#prepared = { error };
      }
    }
    return kept(this.#prepared);
  }

  /** Loads the engine (`engine.ts`), once; a failed load is tried again by the next caller. */
  #load(): Promise<Engine> {
    this.#loading ??= import("./engine.js").then(
      (engine) => {
        this.#engine = engine;
        return engine;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }

  /**
   * Keeps the decision, compares it with the approval, draws both (a large change in steps, one
   * task each), fires `agentflow.changed`; `false` when evaluation `run` was overtaken meanwhile.
   */
  async #publish(decision: GateDecision, engine: Engine, run: number): Promise<boolean> {
    this.#decision = decision;
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

  /** The decision as last evaluated, or nothing while hidden. */
  #scene(): Scene {
    const decision = this.#decision;
    return this.#active && decision !== undefined
      ? sceneOf(decision, this.#approval.changes, this.#registry)
      : EMPTY_SCENE;
  }
}

/** The options as prepared, or the error that preparing them threw, thrown again. */
function kept(
  prepared: { readonly options: CompiledGateOptions } | { readonly error: unknown },
): CompiledGateOptions {
  if ("error" in prepared) throw prepared.error;
  return prepared.options;
}
