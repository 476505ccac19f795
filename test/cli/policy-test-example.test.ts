/**
 * The example bank pack (`examples/policies/bank.policy.yaml`) and its cases: every rule has a
 * failing and a passing case, and every case holds.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { policyTest } from "./policy-test-fixtures.js";

const TESTS = "examples/policies/tests";

describe("examples/policies/tests", () => {
  it("every case holds and every rule of the bank pack is covered", async () => {
    const out = await policyTest("examples/policies/tests");
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe(
      "examples/policies/tests/bank.policytest.yaml: the bank pack on the loan processes",
    );
    expect(lines.filter((l) => l.startsWith("  ✘") || l.startsWith("  ⚠"))).toEqual([]);
    expect(lines).toContain("rule coverage (7 rules in 1 pack):");
    const covered = lines.filter((l) =>
      /^ {2}✔ bank\/\S+ +\d+ failing cases?, \d+ passing cases?$/.test(l),
    );
    expect(covered).toHaveLength(7);
    expect(lines).toContain("✔ 25 cases passed in 1 test file; every rule covered");
    // The waiver is judged on the test's day, so the case does not rot when the waiver expires.
    expect(lines).toContain(
      '  ✔ bank/four-eyes-on-commitments loan-single-role.bpmn#SmallBusinessLoan/DraftAndSendOffer expected waived, got fail, waived until 2027-03-31 by cro@bank.example (pilot with one approving role until the compliance desk is staffed): agent task "DraftAndSendOffer" breaks policy rule four-eyes-on-commitments of bank: every path from it to an end must pass at least 2 gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes only gates of "credit-officer": DraftAndSendOffer → CreditOfficerSignOff → SecondCreditOfficerLook → OfferSent',
    );
  });

  it.each(readdirSync(TESTS).filter((f) => f.endsWith(".bpmn")))(
    "%s is drawn: every node, flow, lane and pool has its diagram element",
    (file) => {
      const xml = readFileSync(`${TESTS}/${file}`, "utf8");
      const drawn =
        /<bpmn:(?:startEvent|endEvent|serviceTask|userTask|exclusiveGateway|boundaryEvent|sequenceFlow|lane|participant) id="([^"]+)"/g;
      const ids = [...xml.matchAll(drawn)].map((m) => m[1]);
      expect(ids.length).toBeGreaterThan(5);
      const shown = new Set([...xml.matchAll(/bpmnElement="([^"]+)"/g)].map((m) => m[1]));
      expect(ids.filter((id) => !shown.has(id))).toEqual([]);
    },
  );
});
