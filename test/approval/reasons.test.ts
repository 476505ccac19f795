/** The reasons' table: one message per code, digests and durations shortened one way. */
import { describe, expect, it } from "vitest";
import { APPROVAL_REASON_CODES } from "../../src/approval/index.js";
import {
  approvalReason,
  formatDuration,
  shortDigest,
  sortReasons,
} from "../../src/approval/reasons.js";

describe("reasons", () => {
  it("lists each code once", () => {
    expect(new Set(APPROVAL_REASON_CODES).size).toBe(APPROVAL_REASON_CODES.length);
    expect(APPROVAL_REASON_CODES).toHaveLength(20);
  });

  it.each([
    [86_400_000 * 30, "30d"],
    [3_600_000 * 36, "36h"],
    [90_000, "90s"],
    [120_000, "2m"],
    [1500, "1500ms"],
    [0, "0ms"],
  ])("formats %d ms as %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("shortens a digest to 12 hex digits, keeping its sha256: prefix", () => {
    expect(shortDigest("4bfaa9f8a7cb".padEnd(64, "0"))).toBe("4bfaa9f8a7cb…");
    expect(shortDigest(`sha256:${"c".repeat(64)}`)).toBe("sha256:cccccccccccc…");
    expect(shortDigest("abc")).toBe("abc");
  });

  it("takes the subject from the data's name or process", () => {
    expect(approvalReason("ROLE_MISSING", { role: "r" }).subject).toBeUndefined();
    expect(
      approvalReason("SUBJECT_REMOVED", { name: "a.json", kind: "tool", sha256: "0".repeat(64) }),
    ).toEqual({
      code: "SUBJECT_REMOVED",
      subject: "a.json",
      message: "a.json: removed since the approval (approved as a tool contract)",
      data: { name: "a.json", kind: "tool", sha256: "0".repeat(64) },
    });
  });

  it("words a threshold of one in the singular and several refs in the plural", () => {
    expect(approvalReason("THRESHOLD_NOT_MET", { threshold: 1, verified: 0 }).message).toBe(
      "1 distinct trusted signature needed, 0 verified",
    );
    expect(
      approvalReason("SUBJECT_ADDED", {
        name: "w.yaml",
        kind: "workflow",
        sha256: "",
        refs: ["agent:a@1.0.0", "agent:b@1.0.0"],
      }).message,
    ).toBe("w.yaml: added since the approval (agent:a@1.0.0, agent:b@1.0.0 now resolve to it)");
  });

  it("sorts by subject (none first), then code order, then message", () => {
    const reasons = sortReasons([
      approvalReason("SUBJECT_ADDED", { name: "b", kind: "tool", sha256: "", refs: [] }),
      approvalReason("SUBJECT_CHANGED", { name: "b", field: "sha256", approved: "", current: "" }),
      approvalReason("RULESET_CHANGED", { field: "preset", approved: "a", current: "b" }),
      approvalReason("SUBJECT_REMOVED", { name: "a", kind: "tool", sha256: "" }),
    ]);
    expect(reasons.map((r) => [r.subject ?? "", r.code])).toEqual([
      ["", "RULESET_CHANGED"],
      ["a", "SUBJECT_REMOVED"],
      ["b", "SUBJECT_CHANGED"],
      ["b", "SUBJECT_ADDED"],
    ]);
  });
});
