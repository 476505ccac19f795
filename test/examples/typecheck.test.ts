/**
 * Every example a reader can copy type-checks with the repository's compiler options (strict,
 * NodeNext): the runnable blocks of README.md and docs/, the `@example` of every public
 * function and RuleTester's reference example. One program checks them all, so the compiler
 * loads the library and its types once.
 */
import { describe, expect, it } from "vitest";
import { resetGenerated, typeErrors, writeExample } from "../run-example.js";
import { classExamples, publicFunctions, RULE_TESTER_FILE, writeApiExamples } from "./api.js";
import { writeDocExamples } from "./docs.js";

describe("examples", () => {
  it("of the documentation and the API reference type-check", () => {
    resetGenerated("typecheck");
    const docs = writeDocExamples("typecheck/docs");
    const api = writeApiExamples(publicFunctions(), "typecheck/api");
    const tester = classExamples(RULE_TESTER_FILE, "RuleTester").map((code, i) =>
      writeExample(`typecheck/testing/RuleTester.${String(i + 1)}`, code),
    );
    expect(docs.length).toBeGreaterThan(5);
    expect(api.length).toBeGreaterThan(100);
    expect(tester).toHaveLength(1);
    expect(typeErrors([...docs, ...api].map((e) => e.file).concat(tester))).toEqual([]);
  });
});
