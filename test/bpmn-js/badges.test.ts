/**
 * The badges as data (issue 23): the gate status of each agent task in the badge's words, its
 * level and its findings, from the decision on the real example process, with and without a
 * shortcut that bypasses the reviews.
 */
import { describe, expect, it } from "vitest";
import type { AgentTaskSummary } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { BADGE_GATES, badgeGate, gateMark, taskBadges } from "../../src/bpmn-js/index.js";
import { gateMark as gateMark_ } from "../../src/report/audit/process/index.js";
import { loanXml, registry, shortcutXml } from "./loan.js";

describe("taskBadges", () => {
  it("gives the example's two agent tasks their level, gate status and findings", async () => {
    const badges = taskBadges(await checkProcess(loanXml, registry));
    expect(
      badges.map(({ elementId, level, gate, text }) => ({ elementId, level, gate, text })),
    ).toEqual([
      { elementId: "AssessCreditRisk", level: "2", gate: "reached", text: "L2 · gated" },
      { elementId: "DraftAndSendOffer", level: "3", gate: "missing", text: "L3 · gate missing" },
    ]);
    expect(badges[0]?.findings).toEqual([]);
    expect(badges[1]?.findings.map((f) => [f.code, f.severity])).toEqual([
      ["AGENT_GATE_UNREACHABLE", "error"],
      ["TOOL_EFFECT_NEEDS_GATE", "error"],
    ]);
    expect(badges[1]?.findings[0]?.message).toContain('"DraftAndSendOffer"');
  });

  it("turns the credit-risk task to bypass when a flow skips both reviews", async () => {
    const [risk] = taskBadges(await checkProcess(shortcutXml, registry));
    expect(risk).toMatchObject({
      elementId: "AssessCreditRisk",
      gate: "bypass",
      text: "L2 · gate bypassed",
    });
    expect(risk?.findings.map((f) => f.code)).toEqual(["AGENT_GATE_BYPASS"]);
  });

  it("says gated for an unresolved task that reaches its gate, as the report does, and lists the warning", async () => {
    const [risk] = taskBadges(await checkProcess(loanXml, {}));
    expect(risk).toMatchObject({ gate: "reached", level: "2", text: "L2 · gated" });
    expect(risk?.findings.map((f) => f.code)).toEqual(["AGENT_UNRESOLVED"]);
  });

  it("shows an unreadable level as unknown", async () => {
    const xml = loanXml.replace('autonomyLevel="2"', 'autonomyLevel="high"');
    const [risk] = taskBadges(await checkProcess(xml, {}));
    expect(risk).toMatchObject({ level: "unknown", gate: "reached", text: "L? · gated" });
    expect(risk?.findings.map((f) => f.code)).toContain("AGENT_AUTONOMY_INVALID");
  });
});

describe("badgeGate", () => {
  const task = (
    requirement: AgentTaskSummary["requirement"],
    gate: AgentTaskSummary["gate"],
    resolution: AgentTaskSummary["resolution"] = "registry",
  ) => badgeGate({ requirement, gate, resolution });

  it("maps every requirement and verdict to one of the six statuses", () => {
    const table = (["required", "optional", "none"] as const).flatMap((requirement) =>
      (["reached", "bypassed", "missing"] as const).map((gate) => [
        requirement,
        gate,
        task(requirement, gate),
      ]),
    );
    expect(table).toEqual([
      ["required", "reached", "reached"],
      ["required", "bypassed", "bypass"],
      ["required", "missing", "missing"],
      ["optional", "reached", "reached"],
      ["optional", "bypassed", "optional"],
      ["optional", "missing", "optional"],
      ["none", "reached", "reached"],
      ["none", "bypassed", "not-needed"],
      ["none", "missing", "not-needed"],
    ]);
    expect(new Set(table.map((row) => row[2]))).toEqual(
      new Set(BADGE_GATES.filter((g) => g !== "unresolved")),
    );
  });

  it("puts a required gate's problem before an unresolved workflow, and unresolved before the rest", () => {
    expect(task("required", "bypassed", "unresolved")).toBe("bypass");
    expect(task("required", "missing", "unresolved")).toBe("missing");
    // A gate on every path is a fact of the process, whatever the workflow: the report agrees.
    expect(task("required", "reached", "unresolved")).toBe("reached");
    expect(task("none", "reached", "registry")).toBe(
      gateMark_({ requirement: "none", gate: "reached", resolution: "registry" }),
    );
    expect(task("none", "missing", "unresolved")).toBe("unresolved");
    expect(task("required", "reached", "snapshot")).toBe("reached");
  });
});

describe("gateMark", () => {
  it("names the approver role when there is one", () => {
    expect(gateMark("UnderwriterReview", "underwriter")).toEqual({
      elementId: "UnderwriterReview",
      approverRole: "underwriter",
      text: "Gate · underwriter",
    });
    expect(gateMark("Review", "  ")).toEqual({
      elementId: "Review",
      approverRole: undefined,
      text: "Gate",
    });
  });

  // The role is the diagram's text: a bidi override, a zero-width space or a newline is shown
  // escaped, so the marker cannot read as another role; `approverRole` keeps it as written.
  it.each<[string, string]>([
    ["\u202Erotirwrednu\u202C", "Gate · \\u{202E}rotirwrednu\\u{202C}"],
    ["under\u200Bwriter", "Gate · under\\u{200B}writer"],
    ["underwriter\nsenior", "Gate · underwriter\\nsenior"],
    ["senior-credit-officer", "Gate · senior-credit-officer"],
  ])("shows the role %j as %j", (role, text) => {
    expect(gateMark("Review", role)).toEqual({ elementId: "Review", approverRole: role, text });
  });
});
