import { describe, expect, it } from "vitest";
import {
  decisionRoutes,
  forEachRoute,
  isMultiway,
  ROUTE_SOURCE,
  routeLabel,
  routePointerSuffix,
  type DecisionRoute,
} from "../../../src/model/graph/routes.js";
import type { DecisionConfig } from "../../../src/model/types.js";

/** Configs that passed no schema check are cast: the functions must still be total on them. */
const loose = (value: unknown): DecisionConfig => value as DecisionConfig;

const cases: readonly {
  readonly name: string;
  readonly config: DecisionConfig;
  readonly multiway: boolean;
  readonly routes: readonly DecisionRoute[];
}[] = [
  {
    name: "binary: onTrue carries the condition, onFalse is the else branch",
    config: {
      condition: "output.is_complete = true",
      onTrue: { next: "end" },
      onFalse: { next: "llm-1", maxRetries: 3 },
    },
    multiway: false,
    routes: [
      {
        label: "onTrue",
        condition: "output.is_complete = true",
        next: "end",
        pointerSuffix: "/onTrue",
      },
      { label: "onFalse", next: "llm-1", maxRetries: 3, pointerSuffix: "/onFalse" },
    ],
  },
  {
    name: "multi-way: cases in order, then otherwise",
    config: {
      cases: [
        { condition: 'output.kind = "a"', next: "node-a" },
        { condition: 'output.kind = "b"', next: "node-b", maxRetries: 2 },
        { condition: 'output.kind = "c"', next: "end" },
      ],
      otherwise: { next: "fallback" },
      conditionLanguage: "feel",
    },
    multiway: true,
    routes: [
      {
        label: "cases/0",
        condition: 'output.kind = "a"',
        next: "node-a",
        pointerSuffix: "/cases/0",
      },
      {
        label: "cases/1",
        condition: 'output.kind = "b"',
        next: "node-b",
        maxRetries: 2,
        pointerSuffix: "/cases/1",
      },
      { label: "cases/2", condition: 'output.kind = "c"', next: "end", pointerSuffix: "/cases/2" },
      { label: "otherwise", next: "fallback", pointerSuffix: "/otherwise" },
    ],
  },
  {
    name: "multi-way with no cases: only otherwise",
    config: { cases: [], otherwise: { next: "end" } },
    multiway: true,
    routes: [{ label: "otherwise", next: "end", pointerSuffix: "/otherwise" }],
  },
  {
    name: "binary missing onFalse keeps onTrue",
    config: loose({ condition: "output.x = 1", onTrue: { next: "a" } }),
    multiway: false,
    routes: [{ label: "onTrue", condition: "output.x = 1", next: "a", pointerSuffix: "/onTrue" }],
  },
  {
    name: "binary missing onTrue and condition keeps onFalse",
    config: loose({ onFalse: { next: "b" } }),
    multiway: false,
    routes: [{ label: "onFalse", next: "b", pointerSuffix: "/onFalse" }],
  },
  {
    name: "multi-way missing otherwise keeps the cases",
    config: loose({ cases: [{ condition: "output.x = 1", next: "a" }] }),
    multiway: true,
    routes: [{ label: "cases/0", condition: "output.x = 1", next: "a", pointerSuffix: "/cases/0" }],
  },
  {
    name: "malformed entries are dropped; later cases keep their array index",
    config: loose({
      cases: [null, { condition: "output.x = 1" }, { next: "c" }, { condition: 7, next: "d" }],
      otherwise: { next: 42, maxRetries: "3" },
    }),
    multiway: true,
    routes: [
      { label: "cases/2", next: "c", pointerSuffix: "/cases/2" },
      { label: "cases/3", next: "d", pointerSuffix: "/cases/3" },
    ],
  },
  {
    name: "maxRetries that is not a number is dropped",
    config: loose({ condition: "c", onTrue: { next: "a", maxRetries: "2" }, onFalse: "end" }),
    multiway: false,
    routes: [{ label: "onTrue", condition: "c", next: "a", pointerSuffix: "/onTrue" }],
  },
  { name: "empty object", config: loose({}), multiway: false, routes: [] },
  { name: "null", config: loose(null), multiway: false, routes: [] },
  { name: "a string", config: loose("onTrue"), multiway: false, routes: [] },
  {
    name: "cases that is not an array",
    config: loose({ cases: { condition: "c", next: "a" }, otherwise: { next: "end" } }),
    multiway: true,
    routes: [{ label: "otherwise", next: "end", pointerSuffix: "/otherwise" }],
  },
];

describe("decisionRoutes", () => {
  it.each(cases)("$name", ({ config, multiway, routes }) => {
    expect(isMultiway(config)).toBe(multiway);
    expect(decisionRoutes(config)).toStrictEqual(routes);
  });

  it("escapes pointer suffixes and labels exactly as the array index", () => {
    const config: DecisionConfig = {
      cases: Array.from({ length: 12 }, (_, i) => ({
        condition: `output.n = ${i}`,
        next: `n${i}`,
      })),
      otherwise: { next: "end" },
    };
    const routes = decisionRoutes(config);
    expect(routes.map((r) => r.pointerSuffix)).toStrictEqual([
      ...Array.from({ length: 12 }, (_, i) => `/cases/${i}`),
      "/otherwise",
    ]);
    expect(routes.map((r) => r.label)).toStrictEqual([
      ...Array.from({ length: 12 }, (_, i) => `cases/${i}`),
      "otherwise",
    ]);
  });

  it("has no condition key on else branches (exactOptionalPropertyTypes-friendly)", () => {
    const routes = decisionRoutes({
      condition: "c",
      onTrue: { next: "a" },
      onFalse: { next: "b" },
    });
    expect(Object.keys(routes[1] ?? {})).toStrictEqual(["label", "next", "pointerSuffix"]);
  });
});

describe("forEachRoute", () => {
  /** What the visitor is given, as the route object decisionRoutes builds from it. */
  function visited(config: DecisionConfig): DecisionRoute[] {
    const out: DecisionRoute[] = [];
    forEachRoute(config, (source, route, condition) => {
      const maxRetries = route.maxRetries;
      out.push({
        label: routeLabel(source),
        ...(typeof condition === "string" ? { condition } : {}),
        next: route.next,
        ...(typeof maxRetries === "number" ? { maxRetries } : {}),
        pointerSuffix: routePointerSuffix(source),
      });
    });
    return out;
  }

  it.each(cases)("visits what decisionRoutes lists: $name", ({ config, routes }) => {
    expect(visited(config)).toStrictEqual(routes);
  });

  it("gives each route where it is written", () => {
    const sources: number[] = [];
    const record = (source: number): void => {
      sources.push(source);
    };
    forEachRoute({ condition: "c", onTrue: { next: "a" }, onFalse: { next: "b" } }, record);
    // A hole and a malformed case are skipped; the others keep their array index.
    forEachRoute(
      loose({
        // eslint-disable-next-line no-sparse-arrays -- a hole is the point
        cases: [{ condition: "x", next: "a" }, , { next: 3 }, { condition: "y", next: "b" }],
        otherwise: { next: "end" },
      }),
      record,
    );
    expect(sources).toStrictEqual([
      ROUTE_SOURCE.onTrue,
      ROUTE_SOURCE.onFalse,
      0,
      3,
      ROUTE_SOURCE.otherwise,
    ]);
    expect(sources.map(routeLabel)).toStrictEqual([
      "onTrue",
      "onFalse",
      "cases/0",
      "cases/3",
      "otherwise",
    ]);
    expect(sources.map(routePointerSuffix)).toStrictEqual([
      "/onTrue",
      "/onFalse",
      "/cases/0",
      "/cases/3",
      "/otherwise",
    ]);
  });
});
