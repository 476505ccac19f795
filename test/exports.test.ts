/**
 * The package's public face (issue 42): the root entry holds at most half of the 557 names it
 * exported when it re-exported every module, and each of its names is also reachable from a
 * subpath, so that the root is a selection of the modules' faces, never a face of its own.
 */
import { describe, expect, it } from "vitest";
import { exportNames, packageEntries } from "../scripts/count-exports.js";

/** Half of the 557 names (values and types) the root exported before it became a list. */
const ROOT_BUDGET = 278;

const names = exportNames(packageEntries());
const root = names.get("src/index.ts") ?? [];

describe("exports", () => {
  it("keeps the root entry within its budget", () => {
    expect(root.length).toBeGreaterThan(100);
    expect(root.length).toBeLessThanOrEqual(ROOT_BUDGET);
  });

  it("exports from the root only names a subpath exports too", () => {
    const elsewhere = new Set(
      [...names].filter(([entry]) => entry !== "src/index.ts").flatMap(([, list]) => list),
    );
    expect(root.filter((name) => !elsewhere.has(name))).toEqual([]);
  });

  it("leaves the graph algorithms and condition rewriters out of the root", () => {
    for (const name of ["tarjanScc", "adjacencyFromEdges", "rewriteJsDialect", "scanTemplates"]) {
      expect(root).not.toContain(name);
    }
  });
});
