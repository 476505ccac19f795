/** The budget check: cost in a currency the budget has no limit for, while it limits another. */
import { describe, expect, it } from "vitest";
import { budgetFindings } from "../../src/conform/checks.js";
import type { Spent } from "../../src/conform/checks.js";
import { unverifiedMessage } from "../../src/conform/index.js";

const spent = (cost: Record<string, number>): Spent => ({
  steps: 1,
  tokens: 0,
  cost: new Map(Object.entries(cost)),
  firstTime: undefined,
  lastTime: undefined,
});

describe("budgetFindings on cost", () => {
  it("calls cost in a currency the budget does not limit unverified, naming the currency", () => {
    const reported = new Set<string>();
    const found = budgetFindings({ maxCostUSD: 2 }, spent({ EUR: 500 }), reported);
    expect(found).toEqual([
      { reason: "COST_UNLIMITED", data: { currency: "EUR", used: 500, limited: "USD" } },
    ]);
    const [first] = found;
    if (first === undefined || !("reason" in first)) throw new Error("no unverified finding");
    expect(unverifiedMessage(first)).toBe(
      "the run spent 500 EUR, and the budget limits cost in USD but has no budget.maxCostEUR, so whether it is within budget cannot be told",
    );
    // Said once per run, not again at every later step.
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ EUR: 600 }), reported)).toEqual([]);
  });

  it("still checks a limited currency, and leaves cost alone when the budget limits none", () => {
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ USD: 1 }), new Set())).toEqual([]);
    expect(budgetFindings({ maxCostUSD: 2 }, spent({ USD: 3 }), new Set())).toEqual([
      { class: "BUDGET_EXCEEDED", data: { limit: "budget.maxCostUSD", used: 3, max: 2 } },
    ]);
    expect(budgetFindings({ maxSteps: 9 }, spent({ EUR: 500 }), new Set())).toEqual([]);
  });
});
