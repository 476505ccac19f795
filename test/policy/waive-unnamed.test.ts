/**
 * A `workflow` waiver never matches a workflow whose `id@version` its importer made up (every
 * LangGraph drawable graph is `langgraph-graph@0.0.0`): written after reviewing one document, it
 * would waive every other imported under that name. `waiversForUnnamed` leaves such waivers out,
 * the config's and each pack's own, and says of each why it waives nothing.
 */
import { describe, expect, it } from "vitest";
import type { Waiver } from "../../src/policy/index.js";
import { waiversForUnnamed } from "../../src/policy/index.js";

const MADE_UP = { ref: "langgraph-graph@0.0.0", format: "langgraph-graph" };
const TODAY = "2027-01-15";

const grant = (over: Partial<Waiver>): Waiver => ({
  rule: "g/approved-models",
  workflow: "langgraph-graph@0.0.0",
  reason: "a.graph.json reviewed",
  grantedBy: "mrc@bank.example",
  expires: "2099-01-01",
  ...over,
});

describe("waiversForUnnamed", () => {
  const cases: { name: string; waiver: Waiver; leftOut: boolean }[] = [
    { name: "a workflow waiver naming the made-up id@version", waiver: grant({}), leftOut: true },
    {
      name: "of any rule, built-in or a pack's",
      waiver: grant({ rule: "BUDGET_MISSING" }),
      leftOut: true,
    },
    {
      name: "an expired one is kept: it waives nothing, and is WAIVER_EXPIRED",
      waiver: grant({ expires: "2027-01-14" }),
      leftOut: false,
    },
    {
      name: "one in force on its last day is left out",
      waiver: grant({ expires: TODAY }),
      leftOut: true,
    },
    {
      name: "another version of the id names another workflow",
      waiver: grant({ workflow: "langgraph-graph@1.0.0" }),
      leftOut: false,
    },
    {
      name: "a workflow of its own id@version",
      waiver: grant({ workflow: "agnt-offer@1.2.0" }),
      leftOut: false,
    },
  ];

  it("leaves out the workflow waivers in force that name it, and only those", () => {
    const got = cases.map((c) => {
      const out = waiversForUnnamed([c.waiver], [], MADE_UP, TODAY);
      return [c.name, out.waivers.length === 0, out.findings.length];
    });
    expect(got).toEqual(cases.map((c) => [c.name, c.leftOut, c.leftOut ? 1 : 0]));
  });

  it("says of each waiver left out why, on the workflow, as a warning", () => {
    const waiver = grant({});
    const [finding] = waiversForUnnamed([waiver], [], MADE_UP, TODAY).findings;
    expect(finding).toEqual({
      code: "WAIVER_SUBJECT_MISSING",
      severity: "warning",
      message:
        "the waiver of g/approved-models names workflow langgraph-graph@0.0.0, an id@version the langgraph-graph importer made up (the document states none of its own), so nothing says this is the document that was reviewed; it waives nothing here",
      remediation:
        "remove the waiver, or point it at the element or workflow version it was meant for (a workflow imported under a made-up id@version cannot be waived as a workflow: convert it into a workflow document with an id and version of its own, or name it in a registry by its file name)",
      target: { kind: "workflow" },
      path: "",
      data: { ...waiver, today: TODAY, format: "langgraph-graph" },
    });
  });

  it("leaves a pack's own waivers out alike, and a pack with none to leave out as it is", () => {
    const own = grant({ rule: "per-call" });
    const kept = grant({ workflow: "agnt-offer@1.2.0" });
    const g = { name: "g", waivers: [own, kept] };
    const other = { name: "h", waivers: [kept] };
    const out = waiversForUnnamed([grant({})], [g, other], MADE_UP, TODAY);
    expect(out.waivers).toEqual([]);
    expect(out.packs).toEqual([
      { name: "g", waivers: [kept] },
      { name: "h", waivers: [kept] },
    ]);
    expect(out.packs[1]).toBe(other);
    expect(out.findings.map((f) => f.data.rule)).toEqual(["g/approved-models", "per-call"]);
  });
});
