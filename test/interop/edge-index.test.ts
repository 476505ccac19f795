/** The grouping helpers the exports share: a decision's routes read once per export. */
import { describe, expect, it } from "vitest";
import { routesOnce } from "../../src/interop/edge-index.js";
import type { DecisionNode } from "../../src/model/index.js";
import { decisionRoutes } from "../../src/model/index.js";

describe("routesOnce", () => {
  it("reads each decision's routes once, as decisionRoutes does", () => {
    const node = (next: string): DecisionNode => ({
      id: "d",
      type: "decision",
      config: { condition: "output.ok = true", onTrue: { next }, onFalse: { next: "end" } },
    });
    const a = node("a");
    const b = node("b");
    const routesOf = routesOnce();
    expect(routesOf(a)).toEqual(decisionRoutes(a.config));
    // the same list again for the same node, another for another node (even with the same id)
    expect(routesOf(a)).toBe(routesOf(a));
    expect(routesOf(b).map((r) => r.next)).toEqual(["b", "end"]);
    // each export starts afresh
    expect(routesOnce()(a)).not.toBe(routesOf(a));
  });
});
