import { evaluate } from "feelin";
import { describe, expect, it } from "vitest";
import { BUILTINS } from "../../src/policy/feel-builtins.js";
import { isBuiltin } from "../../src/policy/feel-syntax.js";

describe("the built-in table", () => {
  it("names only functions feelin has, so a misspelt row cannot type a user's function", () => {
    // A bare name evaluates to its function, except where FEEL's grammar reads `and` in a name.
    const spelt = new Set(["date and time", "years and months duration"]);
    const unknown = [...BUILTINS.keys()].filter((name) => !spelt.has(name) && !isBuiltin(name));
    expect(unknown).toEqual([]);
    expect(evaluate('date and time("2020-01-15T10:00:00") < now()', {}).value).toBe(true);
    expect(
      evaluate('years and months duration(date("2027-01-15"), date("2028-02-15"))', {}).value,
    ).toBeTruthy();
  });
});
