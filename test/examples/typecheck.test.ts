/**
 * Every example a reader can copy type-checks with the repository's compiler options (strict,
 * NodeNext): the runnable blocks of README.md and docs/, and the `@example` of every public
 * function. One program checks them all, so the compiler loads the library and its types once.
 */
import { describe, expect, it } from "vitest";
import { resetGenerated, typeErrors } from "../run-example.js";
import { publicFunctions, writeApiExamples } from "./api.js";
import { writeDocExamples } from "./docs.js";

describe("examples", () => {
  it("of the documentation and the API reference type-check", () => {
    resetGenerated("typecheck");
    const docs = writeDocExamples("typecheck/docs");
    const api = writeApiExamples(publicFunctions(), "typecheck/api");
    expect(docs.length).toBeGreaterThan(5);
    expect(api.length).toBeGreaterThan(100);
    expect(typeErrors([...docs, ...api].map((e) => e.file))).toEqual([]);
  });
});
