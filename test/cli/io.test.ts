/** The count every numeric flag reads (`--max-warnings`, `--threshold`, `--max-steps`, `--concurrency`). */
import { describe, expect, it } from "vitest";
import { parseMaxWarnings } from "../../src/cli/emit.js";
import { workerCount } from "../../src/cli/batch.js";
import { wholeNumber } from "../../src/cli/io.js";
import { parseThreshold } from "../../src/cli/verify.js";

describe("wholeNumber", () => {
  it.each([
    ["0", 0],
    ["2", 2],
    ["007", 7],
    ["100000", 100_000],
    ["9007199254740991", 9_007_199_254_740_991],
  ])("reads %j as %d", (text, n) => {
    expect(wholeNumber(text)).toBe(n);
  });

  it.each(["", " 2", "2 ", "0x2", "0b1", "0o7", "2e0", "2.0", "1.5", "-1", "+2", "Infinity", "x"])(
    "refuses %j",
    (text) => {
      expect(wholeNumber(text)).toBeUndefined();
    },
  );

  it("refuses a count too large to hold exactly", () => {
    expect(wholeNumber("9007199254740993")).toBeUndefined();
  });
});

describe("the flags that read a count", () => {
  it.each(["0x2", "2e0", " 2", "2.0"])("refuses %j for each", (text) => {
    expect(() => parseMaxWarnings(text)).toThrow(
      `--max-warnings needs a whole number ≥ 0, got '${text}'`,
    );
    expect(() => parseThreshold(text)).toThrow(
      `--threshold needs a whole number ≥ 1, got '${text}'`,
    );
    expect(() => workerCount(text, 10)).toThrow(
      `--concurrency needs auto, off or a whole number ≥ 1, got '${text}'`,
    );
  });

  it("reads the counts a user types", () => {
    expect(parseMaxWarnings("0")).toBe(0);
    expect(parseThreshold("2")).toBe(2);
    expect(() => parseThreshold("0")).toThrow("--threshold needs a whole number ≥ 1, got '0'");
    expect(workerCount("2", 10)).toBe(2);
  });
});
