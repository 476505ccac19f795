/**
 * The API reference shows how to call every public function (issue 7): each function exported
 * from a typedoc entry point has an `@example` with a ```` ```ts ```` block that imports from the
 * package's public subpaths. The examples are run here as written (imports pointed at `src`) and
 * type-checked with the repository's compiler options, so an example cannot drift from the API.
 * A value an example shows as `value; // → shown` is asserted too (see run-example.ts): what the
 * reference says a call returns is what it returns.
 */
import { describe, expect, it } from "vitest";
import { publicFunctions, writeApiExamples } from "./examples/api.js";
import { resetGenerated, runExample } from "./run-example.js";

/**
 * Public functions allowed to lack an `@example` for a while (e.g. while another change edits
 * their file). Empty: every public function has one. A stale name fails the test.
 */
const PENDING_EXAMPLES: ReadonlySet<string> = new Set([]);

const functions = publicFunctions();

resetGenerated("api");
const examples = writeApiExamples(functions, "api");

describe("API examples", () => {
  it("finds the public functions", () => {
    expect(functions.length).toBeGreaterThan(100);
    expect(new Set(functions.map((f) => f.name)).size).toBe(functions.length);
  });

  it("lists only public functions without an example as pending", () => {
    const names = new Set(functions.map((f) => f.name));
    const stale = [...PENDING_EXAMPLES].filter((name) => {
      const fn = functions.find((f) => f.name === name);
      return !names.has(name) || (fn !== undefined && fn.exampleTags > 0);
    });
    expect(stale, "remove these from PENDING_EXAMPLES").toEqual([]);
  });

  it.each(functions.filter((f) => !PENDING_EXAMPLES.has(f.name)).map((f) => [f.name, f] as const))(
    "%s has an @example with a ts block",
    (_name, fn) => {
      expect(fn.exampleTags, `${fn.file}: ${fn.name} has no @example`).toBeGreaterThan(0);
      expect(fn.tagsWithoutCode, `${fn.file}: an @example of ${fn.name} has no ts block`).toBe(0);
      for (const code of fn.examples) {
        expect(code, `${fn.file}: imports from the package`).toMatch(/ from "agentflow(\/|")/);
      }
    },
  );

  it.each(examples.map((e) => [e.name, e.file] as const))(
    "the example of %s runs",
    async (_name, file) => {
      await runExample(file);
    },
  );
});
