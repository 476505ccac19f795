/**
 * The engine (`engine.ts`) as the service gets it: imported at the first evaluation, not with the
 * page (a bundler splits it into a chunk of its own), and the options prepared with it once.
 * Compiling the policy packs needs that engine, so a pack that does not compile is said at the
 * first evaluation (`agentflow.error`, every evaluation, nothing drawn), not by the constructor.
 */
import type { GateOptions } from "../bpmn/index.js";
import type { CompiledGateOptions } from "../bpmn/gate-options.js";
import { nextTask } from "./drawing.js";
import type * as EngineModule from "./engine.js";

/** What the engine's chunk exports. */
export type Engine = typeof EngineModule;

/** The service's engine and its options; see the module's comment. */
export class EngineLoader {
  /** The options as given (their engine-free checks passed): what `#prepared` starts from. */
  readonly #options: GateOptions;
  /**
   * The options with the packs compiled, or why they cannot be: set once the engine (and, for
   * packs, their compiler) is loaded, then every evaluation reuses it (the options never change,
   * so neither does the answer).
   */
  #prepared: { readonly options: CompiledGateOptions } | { readonly error: unknown } | undefined;
  /** The engine once loaded: later evaluations call it without waiting a turn. */
  #engine: Engine | undefined;
  /** The engine's loading, shared by every caller until it is done; dropped if it fails. */
  #loading: Promise<Engine> | undefined;

  /** Prepares `options` once the engine is loaded. */
  constructor(options: GateOptions) {
    this.#options = options;
  }

  /** The engine, once loaded. */
  get loaded(): Engine | undefined {
    return this.#engine;
  }

  /** Loads the engine (`engine.ts`), once; a failed load is tried again by the next caller. */
  load(): Promise<Engine> {
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
   * The engine at the first evaluation, evaluated in a task after the one that loaded it: on a
   * large diagram each part of the first evaluation then blocks the page for less time, and the
   * page answers input between them.
   */
  async firstLoad(): Promise<Engine> {
    const engine = await this.load();
    await nextTask();
    return engine;
  }

  /**
   * The options with the packs compiled: at once once prepared, else a promise of them; throws
   * (each time) the `TypeError` naming what in the packs, waivers or plugins is wrong. Fail
   * closed: a badge or gate drawn without the policy applied would claim a verdict nobody
   * reached.
   */
  options(engine: Engine): CompiledGateOptions | Promise<CompiledGateOptions> {
    return this.#prepared === undefined ? this.#prepare(engine) : kept(this.#prepared);
  }

  /**
   * Prepares the options, at the first evaluation. The pack compiler is fetched only when the
   * options set packs; a failed fetch is not kept, so the next evaluation fetches it again.
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
}

/** The options as prepared, or the error that preparing them threw, thrown again. */
function kept(
  prepared: { readonly options: CompiledGateOptions } | { readonly error: unknown },
): CompiledGateOptions {
  if ("error" in prepared) throw prepared.error;
  return prepared.options;
}
