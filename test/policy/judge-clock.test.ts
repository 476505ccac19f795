/**
 * The day a policy test judges on (`judgedOn`, red-team 8): while it runs, FEEL's `today()` is
 * that day and `now()` its 00:00 UTC; outside it they read the system clock, as `check` and
 * `gate` document. The facts it lends `when` are not the finding's data, and unknown facts are
 * still tried at every value.
 */
import { describe, expect, it } from "vitest";
import { judgedOn } from "../../src/policy/judge.js";
import { agentTask, onePack, processView, runProcess } from "./helpers.js";

/** `[messageId, assumed]` of each finding of an agent-task rule with `when` on `task`. */
function found(when: string, task = agentTask("T")): [string, unknown][] {
  return runProcess(onePack({ for: "agentTask", when }), processView([task])).map((f) => [
    f.messageId,
    f.data.assumption,
  ]);
}

const on = (day: string, run: () => [string, unknown][]) =>
  judgedOn(day, () => Promise.resolve(run()));

describe("judgedOn: today() and now() on the test's day", () => {
  it.each([
    ['today() < date("2000-01-01")', "1999-06-01", [["default", undefined]]],
    ['today() = date("1999-06-01")', "1999-06-01", [["default", undefined]]],
    ['today() = date("1999-06-02")', "1999-06-01", []],
    ['now() = date and time("1999-06-01T00:00:00@UTC")', "1999-06-01", [["default", undefined]]],
    ['now() > date and time("1999-06-01T00:00:00@UTC")', "1999-06-01", []],
    ['string(now()) = "1999-06-01T00:00:00Z"', "1999-06-01", [["default", undefined]]],
    ['day of week(today()) = "Tuesday"', "1999-06-01", [["default", undefined]]],
  ] as const)("%s on %s", async (when, day, expected) => {
    expect(await on(day, () => found(when))).toEqual(expected);
  });

  it("outside it, the system clock: the same rule no longer holds", async () => {
    const when =
      'today() < date("2000-01-01") and now() < date and time("2000-01-01T00:00:00@UTC")';
    expect(await on("1999-06-01", () => found(when))).toEqual([["default", undefined]]);
    expect(found(when)).toEqual([]);
  });

  it("unknown facts are still tried, and the day is no fact of the finding", async () => {
    const task = agentTask("T", { level: null, declaredLevel: null, justifiedLevel: null });
    const when = 'today() < date("2000-01-01") and level >= 4';
    const pack = onePack({ for: "agentTask", when });
    const findings = await judgedOn("1999-06-01", () =>
      Promise.resolve(runProcess(pack, processView([task]))),
    );
    expect(findings.map((f) => [f.messageId, f.data.assumption])).toEqual([
      ["assumed", "level = 4"],
    ]);
    expect(Object.keys(findings[0]?.data ?? {})).not.toContain("today");
    expect(Object.keys(findings[0]?.data ?? {})).not.toContain("now");
    expect(Object.hasOwn(task, "today")).toBe(false);
  });

  it("refuses a day that is no date, and another day while one is held", async () => {
    await expect(judgedOn("2027-02-30", () => Promise.resolve(1))).rejects.toThrow(
      'judgedOn: "2027-02-30" is not a date written YYYY-MM-DD',
    );
    let release: () => void = () => undefined;
    const held = judgedOn("1999-06-01", () => new Promise<void>((r) => (release = r)));
    await expect(judgedOn("1999-06-02", () => Promise.resolve(1))).rejects.toThrow(
      "judgedOn: already judging on 1999-06-01, not 1999-06-02",
    );
    expect(await judgedOn("1999-06-01", () => Promise.resolve(2))).toBe(2);
    release();
    await held;
    // Released, even by a run that threw: the next may judge on any day.
    await expect(judgedOn("1999-06-03", () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await on("1999-06-04", () => found('today() = date("1999-06-04")'))).toEqual([
      ["default", undefined],
    ]);
  });
});
