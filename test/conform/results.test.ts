/** The counts of a report: nothing checked is never a pass. */
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/conform/results.js";

describe("summarize", () => {
  it("is not ok when nothing was checked: no run and no process instance", () => {
    expect(summarize([], 0, [], 0, 0)).toMatchObject({ runs: 0, ok: false });
  });

  it("is ok for conforming runs counted but not kept, and for a clean instance alone", () => {
    expect(summarize([], 2, [], 0, 8).ok).toBe(true);
    const instance = { instance: "7", process: "p", ended: true, deviations: [], unverified: [] };
    expect(summarize([], 0, [instance], 0, 3).ok).toBe(true);
  });
});
