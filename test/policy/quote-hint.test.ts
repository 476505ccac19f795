/**
 * A number or a boolean where a pack wants a string: the advice quotes it as the file writes it
 * (red team: `version: 1.0` was told `(quote it: "1")`, a value the author never wrote).
 */
import { describe, expect, it } from "vitest";
import { compilePolicyPack, formatPolicyProblem, readPolicyPack } from "../../src/policy/index.js";

const problems = (text: string, source = "bank.policy.yaml"): string[] => {
  const reading = readPolicyPack(text, source);
  return "problems" in reading ? reading.problems.map(formatPolicyProblem) : [];
};
const pack = (version: string): string =>
  `kind: PolicyPack\nname: bank\nversion: ${version}\nrules: []\n`;

describe("quoting a scalar that should be a string", () => {
  it.each([
    ["1.0", "an integer", "1.0"],
    ["1.0 # the first", "an integer", "1.0"],
    ["2.10", "a number", "2.10"],
    ["0x1F", "an integer", "0x1F"],
    ["1e3", "an integer", "1e3"],
    ["True", "a boolean", "True"],
    ["3", "an integer", "3"],
  ])("version: %s → quote it as written", (written, kind, quoted) => {
    expect(problems(pack(written))).toEqual([
      `bank.policy.yaml:3:10: version: must be a string, not ${kind} (quote it: "${quoted}")`,
    ]);
  });

  it.each([
    [
      "bank.policy.json",
      '{"kind": "PolicyPack", "name": "bank", "version": 1.0, "rules": []}',
      'bank.policy.json:1:51: version: must be a string, not an integer (quote it: "1.0")',
    ],
    [
      "bank.policy.yaml",
      pack('"1"').replace(
        "rules: []",
        "rules:\n  - { id: r, severity: error, for: agentTask, require: { gates: { roles: [a, 3.50] } } }",
      ),
      'bank.policy.yaml:5:78: rule r: require.gates.roles[1]: must be a string, not a number (quote it: "3.50")',
    ],
  ])("in JSON and in a flow sequence: %s", (source, text, line) => {
    expect(problems(text, source)).toEqual([line]);
  });

  it("says the value as it reads when there is no text (a pack given as data)", () => {
    expect(() =>
      compilePolicyPack({ kind: "PolicyPack", name: "bank", version: 1.5, rules: [] }),
    ).toThrow('<pack>: version: must be a string, not a number (quote it: "1.5")');
  });
});
