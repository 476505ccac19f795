/**
 * The conformance checker: events in (from any reader, or a host's own stream), one result per
 * run and per process instance out. A run's replay state lives while the run is open; what
 * stays after it ends is its result and what the process-level gate check needs.
 */
import type { Plan } from "../simulate/internal.js";
import { buildPlan } from "../simulate/internal.js";
import type { ApprovedModel, ApprovedWorkflow, ConformanceOptions } from "./approved.js";
import { attributeRun } from "./attribute.js";
import { replayDelegate } from "./delegate.js";
import type { Deviation, Unverified } from "./deviation.js";
import type { Instances } from "./instances.js";
import { allInstances, pushElement } from "./instances.js";
import { gatedStepFindings, instanceResult } from "./instance-gates.js";
import type { GatedStep, Replay } from "./replay.js";
import { replayEnd, replayRoute, replayStartTime, replayStep, startReplay } from "./replay.js";
import type { ConformanceReport, RunResult, RunVerdict } from "./results.js";
import { summarize } from "./results.js";
import type { EventAt, ProcessLink, RunEvent, UnknownEvent } from "./types.js";

/** A checker over one stream of events. */
export interface ConformanceChecker {
  /** Takes one event. Never throws on what a run did; throws TypeError on a value that is no event. */
  push(event: RunEvent): void;
  /** Closes every open run (as unfinished) and returns the report. */
  end(): ConformanceReport;
}

interface Slot {
  readonly run: string;
  readonly replay: Replay | undefined;
  readonly workflow: string | null;
  readonly deviations: Deviation[];
  readonly unverified: Unverified[];
  events: number;
  readonly visited: Set<string>;
  link: ProcessLink | undefined;
  /** The run's start time (epoch ms), when its records say it. */
  started: number | undefined;
  readonly at: EventAt | undefined;
  /** The run's last event: where its records stop. */
  last: EventAt | undefined;
}

interface Finished {
  readonly result: Omit<RunResult, "verdict">;
  readonly gated: readonly GatedStep[];
  readonly started: number | undefined;
}

const FIRST_UNMAPPED = 20;

const NONE: readonly string[] = Object.freeze([]);

/**
 * A conformance checker for `approved`.
 *
 * @example
 * ```ts
 * import { createConformanceChecker } from "agentflow/conform";
 * import { getTemplate } from "agentflow/model";
 *
 * const workflow = getTemplate("research");
 * if (workflow === undefined) throw new Error("no template");
 * const checker = createConformanceChecker({
 *   workflows: [{ ref: `${workflow.id}@${workflow.version}`, workflow, tools: new Map() }],
 *   processes: [],
 * });
 * checker.push({ kind: "step", run: "r1", nodeType: "llm", node: "nope", status: "ok", at: { index: 0 } });
 * checker.end().runs[0]?.deviations[0]?.class; // → "NODE_UNKNOWN"
 * ```
 */
export function createConformanceChecker(
  approved: ApprovedModel,
  options: ConformanceOptions = {},
): ConformanceChecker {
  const plans = new Map<ApprovedWorkflow, Plan>();
  const open = new Map<string, Slot>();
  const finished: Finished[] = [];
  const instances: Instances = { byKey: new Map(), model: approved };
  const unmapped: UnknownEvent[] = [];
  let unmappedCount = 0;
  /** Runs that conformed when they ended and were not kept (see `keepConforming`). */
  let dropped = 0;
  let events = 0;

  const planOf = (w: ApprovedWorkflow): Plan => {
    let plan = plans.get(w);
    if (plan === undefined) {
      plan = buildPlan(w.workflow);
      plans.set(w, plan);
    }
    return plan;
  };

  const slotOf = (
    run: string,
    named: string | undefined,
    at: EventAt,
    link?: ProcessLink,
  ): Slot => {
    const existing = open.get(run);
    if (existing !== undefined) return existing;
    const slot = newSlot(run, named, at, link);
    open.set(run, slot);
    return slot;
  };

  const newSlot = (
    run: string,
    named: string | undefined,
    at: EventAt,
    link: ProcessLink | undefined,
  ): Slot => {
    const deviations: Deviation[] = [];
    const unverified: Unverified[] = [];
    const got = attributeRun(approved, named, link, options.workflow);
    if (got.kind === "unapproved") {
      deviations.push({ class: "VERSION_UNAPPROVED", run, at, data: got.data });
    } else if (got.kind === "unverified") {
      unverified.push({ reason: got.reason, run, at, data: got.data });
    }
    const found = got.kind === "workflow" ? got.workflow : undefined;
    const replay = found === undefined ? undefined : startReplay(run, found, planOf(found));
    return {
      run,
      replay,
      workflow: found?.ref ?? (got.kind === "workflow" ? null : got.name),
      deviations,
      unverified,
      events: 0,
      visited: new Set(),
      link: undefined,
      started: undefined,
      at,
      last: at,
    };
  };

  const finish = (slot: Slot): void => {
    open.delete(slot.run);
    const replay = slot.replay;
    const deviations = [...slot.deviations, ...(replay?.deviations ?? [])];
    const unverified = [...slot.unverified, ...(replay?.unverified ?? [])];
    const gated = replay?.gated ?? [];
    // What a finished run keeps is small: a conforming one (the many) drops its path, which
    // only the report's drawing of the worst runs reads.
    const clean = deviations.length === 0 && unverified.length === 0 && gated.length === 0;
    if (clean && options.keepConforming !== true) {
      dropped++;
      return;
    }
    finished.push({
      result: {
        run: slot.run,
        workflow: slot.workflow,
        deviations,
        unverified,
        events: slot.events,
        visited: clean ? NONE : [...slot.visited],
        ...(slot.link === undefined ? {} : { process: slot.link }),
        ...(slot.at === undefined ? {} : { at: slot.at }),
      },
      gated,
      started: slot.started,
    });
  };

  const push = (event: RunEvent): void => {
    events++;
    switch (event.kind) {
      case "element":
        pushElement(instances, event);
        return;
      case "unknown": {
        const slot = event.run === undefined ? undefined : open.get(event.run);
        if (slot === undefined) {
          unmappedCount++;
          if (unmapped.length < FIRST_UNMAPPED) unmapped.push(event);
          return;
        }
        slot.events++;
        slot.last = event.at;
        slot.unverified.push({
          reason: "EVENT_UNMAPPED",
          run: slot.run,
          at: event.at,
          data: { reason: event.reason },
        });
        return;
      }
      case "run-start": {
        const slot = slotOf(event.run, event.workflow, event.at, event.process);
        slot.events++;
        slot.last = event.at;
        if (event.process !== undefined) slot.link = event.process;
        if (event.time !== undefined) slot.started = event.time;
        if (slot.replay !== undefined) replayStartTime(slot.replay, event.time);
        return;
      }
      case "step": {
        const slot = slotOf(event.run, undefined, event.at);
        slot.events++;
        slot.last = event.at;
        if (slot.replay === undefined) return;
        replayStep(slot.replay, event);
        const k = slot.replay.prev;
        const id = slot.replay.plan.ids[k];
        if (id !== undefined && !slot.replay.prevFailed) slot.visited.add(id);
        return;
      }
      case "route": {
        const slot = slotOf(event.run, undefined, event.at);
        slot.events++;
        slot.last = event.at;
        if (slot.replay !== undefined) replayRoute(slot.replay, event);
        return;
      }
      case "delegate": {
        const slot = slotOf(event.run, undefined, event.at);
        slot.events++;
        slot.last = event.at;
        if (slot.replay !== undefined) replayDelegate(slot.replay, event);
        return;
      }
      case "run-end": {
        const slot = slotOf(event.run, undefined, event.at);
        slot.events++;
        slot.last = event.at;
        if (slot.replay !== undefined) replayEnd(slot.replay, event);
        finish(slot);
        return;
      }
      default:
        throw new TypeError(
          `not a conformance event: ${JSON.stringify((event as { kind?: unknown }).kind)}`,
        );
    }
  };

  const end = (): ConformanceReport => {
    for (const slot of [...open.values()]) {
      slot.unverified.push({
        reason: "RUN_UNFINISHED",
        run: slot.run,
        ...(slot.last === undefined ? {} : { at: slot.last }),
        data: {},
      });
      finish(slot);
    }
    const runs = finished.map(({ result, gated, started }): RunResult => {
      const gates = gatedStepFindings(instances, result.run, result.process, gated, started);
      const deviations = [...result.deviations, ...gates.deviations];
      const unverified = [...result.unverified, ...gates.unverified];
      const verdict: RunVerdict =
        deviations.length > 0 ? "deviating" : unverified.length > 0 ? "unverified" : "conforming";
      return { ...result, deviations, unverified, verdict };
    });
    const instanceResults = allInstances(instances).map(instanceResult);
    return {
      runs,
      instances: instanceResults,
      unmapped: { count: unmappedCount, first: unmapped },
      summary: summarize(runs, dropped, instanceResults, unmappedCount, events),
    };
  };

  return { push, end };
}
