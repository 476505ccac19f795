/**
 * Putting a big report together: rows joined a chunk at a time, and sections concatenated as a
 * rope, give the same text as one `join`.
 */
import { describe, expect, it } from "vitest";
import { concat, joinRows } from "../../../src/report/audit/rows.js";

describe("joinRows", () => {
  it.each([0, 1, 511, 512, 513, 1_024, 1_500])("joins %i rows as map and join do", (n) => {
    const items = Array.from({ length: n }, (_, i) => i);
    const row = (item: number, index: number): string => `<tr>${String(item * 2)}:${String(index)}`;
    expect(joinRows(items, row)).toBe(items.map(row).join("\n"));
    expect(joinRows(items, row, "")).toBe(items.map(row).join(""));
  });

  it("keeps empty rows", () => {
    expect(joinRows(["", "", ""], (s) => s)).toBe("\n\n");
  });
});

describe("concat", () => {
  it("gives the same text as join, whatever the parts", () => {
    expect(concat([])).toBe("");
    expect(concat(["only"])).toBe("only");
    expect(concat(["", "a", "", "b", ""])).toBe(["", "a", "", "b", ""].join("\n"));
    const big = "x".repeat(100_000);
    expect(concat([big, big], " | ")).toBe(`${big} | ${big}`);
  });
});
