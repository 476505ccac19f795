/**
 * The bounds a run's options may ask for, and the error a wrong option type throws: imported by
 * itself (nothing else of the simulator), so that a caller reading a constant or catching the
 * error does not load the simulator.
 */

/** The default hard bound on steps (SPEC 5). */
export const DEFAULT_MAX_STEPS = 10_000;

/**
 * The largest `maxSteps` a run may ask for. A run holds a trail record per step, so its time and
 * memory grow with the bound; an unbounded loop run past this one is a hang in all but name.
 */
export const MAX_STEPS_LIMIT = 100_000;

/**
 * A simulation option of the wrong type: API misuse, or a fixtures file a user wrote wrong. A
 * `TypeError` as before, which also says where, so that a CLI can name the place in the file.
 */
export class OptionTypeError extends TypeError {
  /** JSON Pointer into the options object (`/fixtures/llm-1/fails`). */
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.name = "OptionTypeError";
    this.path = path;
  }
}
