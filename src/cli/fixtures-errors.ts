/**
 * A fixtures file written wrong is the user's mistake, whichever command reads it (`simulate`,
 * `report`): a usage error naming the file and the JSON Pointer of the value, never exit 3.
 */
import { OptionTypeError } from "../simulate/index.js";
import { UsageError } from "./io.js";

/**
 * Runs `f`, turning an {@link OptionTypeError} into a {@link UsageError}: `file: /pointer: …`
 * when it is about the fixtures read from `fixturesFile`, `/path: …` otherwise.
 */
export async function optionsChecked<T>(
  fixturesFile: string | undefined,
  f: () => T | Promise<T>,
): Promise<T> {
  try {
    return await f();
  } catch (error) {
    if (!(error instanceof OptionTypeError)) throw error;
    const inFixtures = fixturesFile !== undefined && error.path.startsWith("/fixtures");
    if (!inFixtures) throw new UsageError(`${error.path}: ${error.message}`);
    const pointer = error.path.slice("/fixtures".length) || "/";
    throw new UsageError(`${fixturesFile}: ${pointer}: ${error.message}`);
  }
}
