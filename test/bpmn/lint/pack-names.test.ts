/**
 * bpmnlint's `policies` option refuses two packs of one name, as `agentflow check` does: either's
 * waivers would waive the other's rules.
 */
import { describe, expect, it } from "vitest";
import { readPacks } from "../../../src/bpmn/lint/pack-read.js";

const pack = (name: string) => ({
  kind: "PolicyPack",
  name,
  version: "1",
  rules: [{ id: "high", severity: "error", for: "agentTask", when: "level >= 4" }],
});

describe("readPacks with packs of one name", () => {
  it.each([
    [
      "two as data, named bank",
      [pack("bank"), pack("bank")],
      {
        problems: [
          "policies: policy pack policies[1] is named 'bank', as policy pack policies[0] is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules",
        ],
      },
    ],
  ])("%s: a problem naming both", (_name, entries, expected) => {
    expect(readPacks(entries, "policies", undefined)).toEqual(expected);
  });

  it("names of their own: both read", () => {
    const read = readPacks([pack("bank"), pack("team")], "policies", undefined);
    expect("packs" in read ? read.packs.map((p) => p.name) : read).toEqual(["bank", "team"]);
  });
});
