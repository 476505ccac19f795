/**
 * No false alarms: every run agentflow's simulator produces from the approved workflow and any
 * fixtures conforms — over random workflows (decisions, loops with retries, error boundaries,
 * memory, budgets), with the decisions recorded and without them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovedModel } from "../../src/conform/index.js";
import {
  createConformanceChecker,
  createRecordSplitter,
  readerOf,
  deviationMessage,
  unverifiedMessage,
} from "../../src/conform/index.js";
import type { ToolContract } from "../../src/model/index.js";
import { simulate } from "../../src/simulate/index.js";
import { build, fixturesOf, specArb } from "../simulate/random-workflow.js";
import { eventsFromSimulation } from "./export/events.js";
import { otlpFromSimulation } from "./export/otlp.js";

const TOOL: ToolContract = {
  kind: "ToolContract",
  id: "tool:x",
  version: "1.0.0",
  name: "X",
  // The random tools send q (a resolved template: any JSON value) and r (text).
  inputSchema: { q: {}, r: "text" },
  outputSchema: {},
  effect: "read",
  authorization: "automatic",
};

describe("conform: no false alarms on simulated runs", () => {
  it.each([true, false])("every simulated run conforms (routes recorded: %s)", (routes) => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const wf = build(spec);
        const approved: ApprovedModel = {
          workflows: [
            {
              ref: `${wf.id}@${wf.version}`,
              workflow: wf,
              tools: new Map([["tool:x@1.0.0", TOOL]]),
            },
          ],
          processes: [],
        };
        const state = simulate(wf, { fixtures: fixturesOf(spec), maxSteps: spec.maxSteps });
        const checker = createConformanceChecker(approved, { keepConforming: true });
        for (const event of eventsFromSimulation(wf, state, { run: "r", routes }))
          checker.push(event);
        const report = checker.end();
        const run = report.runs[0];
        const said = [
          ...(run?.deviations ?? []).map(deviationMessage),
          ...(run?.unverified ?? []).map(unverifiedMessage),
        ];
        expect(said).toEqual([]);
        expect(run?.verdict).toBe("conforming");
        expect(report.summary.ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("every simulated run conforms, written by the OpenTelemetry SDK as OTLP/JSON", () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const wf = build(spec);
        const approved: ApprovedModel = {
          workflows: [
            {
              ref: `${wf.id}@${wf.version}`,
              workflow: wf,
              tools: new Map([["tool:x@1.0.0", TOOL]]),
            },
          ],
          processes: [],
        };
        const state = simulate(wf, { fixtures: fixturesOf(spec), maxSteps: spec.maxSteps });
        const text = otlpFromSimulation(wf, state, { id: "r", startMs: 1_700_000_000_000 });
        const checker = createConformanceChecker(approved);
        const split = createRecordSplitter("run.jsonl");
        const reader = readerOf("otlp").create();
        for (const item of [...split.push(text), ...split.end()]) {
          if ("invalid" in item) throw new Error(item.invalid);
          for (const event of reader.push(item)) checker.push(event);
        }
        for (const event of reader.end()) checker.push(event);
        const report = checker.end();
        const said = report.runs.flatMap((r) => [
          ...r.deviations.map(deviationMessage),
          ...r.unverified.map(unverifiedMessage),
        ]);
        expect(said).toEqual([]);
        expect(report.summary).toMatchObject({ runs: 1, conforming: 1, ok: true });
      }),
      { numRuns: 200 },
    );
  });
});
