/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The overlays' DOM shows the diagram's and the config's text as a reviewer must read it: a
 * waiver's reason, its grantor, a finding's message and code and a gate's role with invisible
 * characters escaped (textContent already keeps them from being markup).
 */
import { describe, expect, it } from "vitest";
import type { TaskBadge } from "../../src/bpmn-js/badges.js";
import { gateMark } from "../../src/bpmn-js/badges.js";
import { gateMarkElement, taskBadgeElement } from "../../src/bpmn-js/draw.js";

const badge = (finding: TaskBadge["findings"][number]): TaskBadge => ({
  elementId: "Send",
  level: "3",
  gate: "missing",
  text: "L3 · gate missing",
  findings: [finding],
});

describe("taskBadgeElement", () => {
  it.each<[string, string, string]>([
    ["pilot", "cro", "bank/four-eyes msg (waived by cro until 2099-01-01: pilot)"],
    [
      "pilot\nALLOWED",
      "cro",
      "bank/four-eyes msg (waived by cro until 2099-01-01: pilot\\nALLOWED)",
    ],
    ["pilot", "\u202Eorc", "bank/four-eyes msg (waived by \\u{202E}orc until 2099-01-01: pilot)"],
    [
      "pi\u200Blot\r\u001b[2K",
      "cro",
      "bank/four-eyes msg (waived by cro until 2099-01-01: pi\\u{200B}lot\\r\\u{1B}[2K)",
    ],
  ])("shows the waiver %j by %j escaped", (reason, grantedBy, shown) => {
    const element = taskBadgeElement(
      document,
      badge({
        code: "bank/four-eyes",
        severity: "error",
        message: "msg",
        waived: { reason, grantedBy, expires: "2099-01-01" },
      }),
    );
    const item = element.querySelector(".agentflow-finding-waived");
    expect(item?.textContent).toBe(shown);
    expect(item?.querySelector(".agentflow-waiver")?.textContent).toBe(
      shown.slice("bank/four-eyes msg".length),
    );
  });

  it("shows a finding's code and message escaped", () => {
    const element = taskBadgeElement(
      document,
      badge({ code: "acme/X\u202E", severity: "warning", message: "m\nn" }),
    );
    expect(element.querySelector(".agentflow-finding")?.textContent).toBe("acme/X\\u{202E} m\\nn");
  });
});

describe("gateMarkElement", () => {
  it.each<[string, string]>([
    ["\u202Erotirwrednu\u202C", "Gate · \\u{202E}rotirwrednu\\u{202C}"],
    ["underwriter", "Gate · underwriter"],
  ])("shows the role %j as %j, and keeps it as written in its data", (role, text) => {
    const element = gateMarkElement(document, gateMark("Review", role));
    expect(element.textContent).toBe(text);
    expect(element.getAttribute("data-agentflow-gate-marker")).toBe(role);
  });
});
