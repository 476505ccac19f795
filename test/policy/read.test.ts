/**
 * Reading policy packs (issue 40, item 3): a good pack compiles to kit rules named
 * `<pack>/<id>` with a stable content hash; every bad pack is a list of problems, each placed
 * (file, line, column, rule, place) and worded exactly — never a silent pass.
 */
import { describe, expect, it } from "vitest";
import type { PolicyProblem } from "../../src/policy/index.js";
import {
  compilePolicyPack,
  formatPolicyProblem,
  PolicyPackError,
  readPolicyPack,
} from "../../src/policy/index.js";

const HEAD = "kind: PolicyPack\nname: bank\nversion: 1.0.0\n";

/** The formatted problems of a pack text (fails if it compiles). */
function problems(text: string, source = "bank.policy.yaml"): string[] {
  const reading = readPolicyPack(text, source);
  if ("pack" in reading) throw new Error("the pack compiled");
  return reading.problems.map(formatPolicyProblem);
}

/** A pack with one rule, written as YAML lines under `rules:`. */
const oneRule = (...lines: string[]): string =>
  `${HEAD}rules:\n  - id: r1\n${lines.map((l) => `    ${l}\n`).join("")}`;

/** The end of the problem of a pack waiver that names no rule of its pack. */
const FOREIGN = (own: string): string =>
  `is no rule of pack 'bank' (${own}): a pack waives only its own rules; waive another pack's, a plugin's or agentflow's in the config's waivers`;

const FACTS =
  "process, element, lane, ref, level, declaredLevel, declaredLevelText, justifiedLevel, camunda, tools, models, budget, gates, gateStatus, unread";
const TOOL_FIELDS = "ref, id, version, effect, authorization";

describe("readPolicyPack: a good pack", () => {
  const text = `kind: PolicyPack
name: acme-bank-agents
version: 1.2.0
rules:
  - id: no-commitments-above-3
    severity: error
    for: agentTask          # agentTask | workflow | tool | process
    when: level >= 4 and some t in tools satisfies t.effect = "external-commitment"
    message: "{{element.name}} runs at level {{level}} and can commit the bank"
  - id: four-eyes-on-commitments
    severity: warning
    for: agentTask
    when: some t in tools satisfies t.effect in ["external-commitment", "write-irreversible"]
    require:
      gates: { distinctRoles: 2 }
  - id: model-allow-list
    severity: info
    for: workflow
    description: Workflows use approved models only
    docs: https://bank.example/policy#models
    when: some m in models satisfies not(m in ["gpt-4o", "claude-sonnet"])
waivers:
  - rule: four-eyes-on-commitments
    process: LoanOrigination
    element: DraftAndSendOffer
    reason: pilot with a single approver
    grantedBy: cro@bank.example
    expires: "2027-03-31"
`;

  it("compiles to kit rules coded <pack>/<id>, with severity, docs and scope", () => {
    const reading = readPolicyPack(text, "policy/bank.policy.yaml");
    if (!("pack" in reading)) throw new Error(reading.problems.map(formatPolicyProblem).join("\n"));
    const { pack } = reading;
    expect([pack.name, pack.version, pack.source]).toEqual([
      "acme-bank-agents",
      "1.2.0",
      "policy/bank.policy.yaml",
    ]);
    expect(
      pack.processRules.map((r) => [r.meta.code, r.meta.defaultSeverity, r.meta.scope]),
    ).toEqual([
      ["acme-bank-agents/no-commitments-above-3", "error", "process"],
      ["acme-bank-agents/four-eyes-on-commitments", "warning", "process"],
      ["acme-bank-agents/model-allow-list", "info", "process"],
    ]);
    expect(pack.workflowRules.map((r) => [r.meta.code, r.meta.scope])).toEqual([
      ["acme-bank-agents/model-allow-list", "workflow"],
    ]);
    expect(pack.processRules.map((r) => r.meta.docs)).toEqual([
      "policy/bank.policy.yaml#no-commitments-above-3",
      "policy/bank.policy.yaml#four-eyes-on-commitments",
      "https://bank.example/policy#models",
    ]);
    expect(pack.processRules[2]?.meta.description).toBe("Workflows use approved models only");
    expect(pack.processRules[0]?.meta.messages.default).toBe(
      "{{element.name}} runs at level {{level}} and can commit the bank",
    );
    expect(pack.waivers).toEqual([
      {
        rule: "four-eyes-on-commitments",
        process: "LoanOrigination",
        element: "DraftAndSendOffer",
        reason: "pilot with a single approver",
        grantedBy: "cro@bank.example",
        expires: "2027-03-31",
      },
    ]);
    expect(pack.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("hashes the content, not its syntax: YAML and JSON, key order and comments agree", () => {
    const yaml = readPolicyPack(text, "a.yaml");
    const spec = "pack" in yaml ? yaml.pack.spec : undefined;
    const reordered = JSON.stringify({
      rules: spec?.rules,
      waivers: spec?.waivers,
      version: "1.2.0",
      name: "acme-bank-agents",
      kind: "PolicyPack",
    });
    const json = readPolicyPack(reordered, "b.json");
    expect("pack" in json && "pack" in yaml && json.pack.sha256 === yaml.pack.sha256).toBe(true);
    const changed = readPolicyPack(text.replace("level >= 4", "level >= 3"), "a.yaml");
    expect("pack" in changed && "pack" in yaml && changed.pack.sha256 !== yaml.pack.sha256).toBe(
      true,
    );
  });

  it("compiles plain data, and a later edit of that data changes nothing", () => {
    const spec = {
      kind: "PolicyPack",
      name: "bank",
      version: "1.0.0",
      rules: [{ id: "high", severity: "error", for: "agentTask", when: "level = 5" }],
    };
    const pack = compilePolicyPack(spec);
    spec.rules[0] = { id: "high", severity: "error", for: "agentTask", when: "level = 1" };
    expect(pack.source).toBe("<pack>");
    expect(pack.spec.rules[0]?.when).toBe("level = 5");
    expect(pack.processRules[0]?.meta.docs).toBe("<pack>#high");
  });
});

describe("readPolicyPack: every problem, placed and worded", () => {
  it("not YAML or JSON", () => {
    expect(problems(`${HEAD}rules: [a\n`)).toEqual([
      "bank.policy.yaml:5:1: cannot be read as YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ].",
    ]);
    expect(problems('{"kind": "PolicyPack",}', "bank.json")).toEqual([
      "bank.json:1:22: cannot be read as YAML or JSON: A trailing comma before '}' is not allowed.",
    ]);
    expect(problems(`${HEAD}name: again\nrules: []\n`)[0]).toMatch(
      /^bank\.policy\.yaml:4:1: cannot be read as YAML or JSON: Key "name" appears more than once/,
    );
  });

  it("not a pack: a scalar, a list, another kind", () => {
    expect(problems("just some words")).toEqual([
      "bank.policy.yaml:1:1: not a policy pack: the document is a string, not a mapping",
    ]);
    expect(problems("- 1\n")).toEqual([
      "bank.policy.yaml:1:1: not a policy pack: the document is a list, not a mapping",
    ]);
    expect(problems("kind: AgentWorkflow\nname: x\nversion: 1.0.0\nrules: []\n")).toEqual([
      'bank.policy.yaml:1:7: kind: not a policy pack: kind is "AgentWorkflow", expected "PolicyPack"',
    ]);
  });

  it("missing name, version, rules; a bad name, an unquoted version, rules not a list", () => {
    expect(problems("kind: PolicyPack\n")).toEqual([
      "bank.policy.yaml:1:1: missing 'name'",
      "bank.policy.yaml:1:1: missing 'version'",
      "bank.policy.yaml:1:1: missing 'rules'",
    ]);
    expect(problems("kind: PolicyPack\nname: Bank Pack\nversion: 1.2\nrules: {}\n")).toEqual([
      `bank.policy.yaml:2:7: name: "Bank Pack" is no pack name (lowercase letters, digits, '.', '_' and '-', starting with a letter or digit)`,
      'bank.policy.yaml:3:10: version: must be a string, not a number (quote it: "1.2")',
      "bank.policy.yaml:4:8: rules: must be a list, not a mapping",
    ]);
  });

  it("a duplicate rule id, an unknown subject, an unknown severity, a missing id, an unknown key", () => {
    const text = `${HEAD}rules:
  - id: a
    severity: error
    for: agentTask
  - id: a
    severity: fatal
    for: agent
  - severity: error
    for: tool
    when: efect = "read"
    colour: red
`;
    expect(problems(text)).toEqual([
      "bank.policy.yaml:8:9: rule a: id: duplicate rule id 'a' (also rules[0])",
      'bank.policy.yaml:9:15: rule a: severity: unknown severity "fatal" (severities: error, warning, info)',
      'bank.policy.yaml:10:10: rule a: for: unknown subject "agent" (subjects: agentTask, workflow, tool, process)',
      "bank.policy.yaml:11:5: rules[2]: missing 'id'",
      `bank.policy.yaml:13:11: rules[2].when: unknown fact 'efect' (facts of tool: ${TOOL_FIELDS})`,
      'bank.policy.yaml:14:13: rules[2].colour: unknown key "colour" (keys here: id, severity, for, when, message, description, remediation, docs, require)',
    ]);
  });

  it("a FEEL syntax error, at its column in the file", () => {
    expect(problems(oneRule("severity: error", "for: agentTask", "when: level > 3 3"))).toEqual([
      "bank.policy.yaml:8:21: rule r1: when: FEEL syntax error: unexpected '3'",
    ]);
    expect(problems(oneRule("severity: error", "for: agentTask", "when: level >"))).toEqual([
      "bank.policy.yaml:8:18: rule r1: when: FEEL syntax error: the expression is incomplete (it ends inside a comparison)",
    ]);
    // FEEL strings are double-quoted; a single-quoted YAML scalar keeps its own quoting apart.
    expect(
      problems(oneRule("severity: error", "for: agentTask", "when: 'element.name = ''x'''")),
    ).toEqual(["bank.policy.yaml:8:27: rule r1: when: FEEL syntax error: unexpected '''"]);
  });

  it("unknown facts: a root name, a field of an object fact, of a bound name, in a filter", () => {
    const when =
      'tools[efect = "x"] = [] or element.nme = 1 or tool = 2 or (some t in tools satisfies t.efect = "x")';
    // Line 8 is `    when: '…'`: the expression starts in column 12.
    const at = (offset: number): string => `bank.policy.yaml:8:${12 + offset}`;
    expect(problems(oneRule("severity: error", "for: agentTask", `when: '${when}'`))).toEqual([
      `${at(when.indexOf("efect"))}: rule r1: when: unknown name 'efect' in a filter over 'tools' (fields of a tool: ${TOOL_FIELDS})`,
      `${at(when.indexOf("nme"))}: rule r1: when: unknown fact 'element.nme' (fields of element: id, name, type)`,
      `${at(when.indexOf("tool = 2"))}: rule r1: when: unknown fact 'tool' (facts of agentTask: ${FACTS})`,
      `${at(when.lastIndexOf("efect"))}: rule r1: when: unknown field 't.efect' (fields of a tool: ${TOOL_FIELDS})`,
    ]);
    expect(at(when.indexOf("efect"))).toBe("bank.policy.yaml:8:18");
  });

  it("unknown names in nested scopes, paths into scalars, and unknown functions", () => {
    const when =
      "some a in agentTasks satisfies (some g in a.gates satisfies g.rol = null) or a.level.x = 1 or foo(a) or gates[item.nam = 1] = []";
    const at = (offset: number): string => `bank.policy.yaml:8:${11 + offset}`;
    expect(problems(oneRule("severity: error", "for: process", `when: ${when}`))).toEqual([
      `${at(when.indexOf("rol"))}: rule r1: when: unknown field 'g.rol' (fields of a gate: id, name, role)`,
      `${at(when.indexOf("x = 1"))}: rule r1: when: 'a.level' is a level (0-5) or null; it has no field 'x'`,
      `${at(when.indexOf("foo"))}: rule r1: when: unknown function 'foo'`,
      `${at(when.indexOf("nam ="))}: rule r1: when: unknown field 'item.nam' (fields of a gate: id, name, role)`,
    ]);
  });

  it("a filter feelin would run without its item (a call, not a test)", () => {
    const when = 'count(models[not(item = "gpt-4o")]) > 0';
    expect(problems(oneRule("severity: error", "for: agentTask", `when: '${when}'`))).toEqual([
      `bank.policy.yaml:8:${12 + when.indexOf("item")}: rule r1: when: unknown name 'item' in a filter over 'models': feelin gives a filter its item only when the filter is a comparison, 'and'/'or', 'some'/'every' or 'instance of' (write tools[effect != "read"], not tools[not(effect = "read")])`,
    ]);
  });

  it("maps a column inside a JSON string with escapes and a literal block to the file", () => {
    const json = JSON.stringify({
      kind: "PolicyPack",
      name: "bank",
      version: "1.0.0",
      rules: [{ id: "r1", severity: "error", for: "tool", when: 'effect = "read" and efect = 1' }],
    });
    const column = json.indexOf("efect =") + 1;
    expect(problems(json, "bank.json")).toEqual([
      `bank.json:1:${column}: rule r1: when: unknown fact 'efect' (facts of tool: ${TOOL_FIELDS})`,
    ]);
    const block = oneRule(
      "severity: error",
      "for: agentTask",
      "when: |",
      "  level >= 4 and",
      "    some t in tools satisfies t.efect = 1",
    );
    expect(problems(block)).toEqual([
      `bank.policy.yaml:10:37: rule r1: when: unknown field 't.efect' (fields of a tool: ${TOOL_FIELDS})`,
    ]);
    // A folded scalar's lines are joined: the problem is placed at the start of the value.
    expect(problems(block.replace("when: |", "when: >"))).toEqual([
      `bank.policy.yaml:8:11: rule r1: when: unknown field 't.efect' (fields of a tool: ${TOOL_FIELDS})`,
    ]);
  });

  it("placeholders in message and remediation must name facts", () => {
    const text = oneRule(
      "severity: error",
      "for: agentTask",
      'message: "{{elemnt.name}} uses {{tools.effect}} at {{level}} ({{pack}}/{{ruleId}})"',
      'remediation: "ask {{lane.nme}}"',
    );
    expect(problems(text)).toEqual([
      `bank.policy.yaml:8:14: rule r1: message: placeholder '{{elemnt.name}}' names no fact (facts of agentTask: ${FACTS}, ruleId, pack)`,
      "bank.policy.yaml:8:14: rule r1: message: placeholder '{{tools.effect}}': 'tools' is a list; a placeholder can show it whole, not a field of its items",
      "bank.policy.yaml:9:18: rule r1: remediation: placeholder '{{lane.nme}}' names no fact (fields of lane: id, name)",
    ]);
  });

  it("require: only on agent tasks, and only well-formed predicates", () => {
    expect(
      problems(oneRule("severity: error", "for: workflow", "require: { gates: { min: 1 } }")),
    ).toEqual([
      "bank.policy.yaml:8:14: rule r1: require: 'require' needs paths from an agent task; this rule is for 'workflow' (only 'for: agentTask' rules can require gates)",
    ]);
    const bad = 'require: { gates: { min: 1.5, distinctRoles: "2", roles: ["", 3], max: 1 } }';
    expect(problems(oneRule("severity: error", "for: agentTask", bad))).toEqual([
      "bank.policy.yaml:8:30: rule r1: require.gates.min: must be a non-negative integer, not 1.5",
      'bank.policy.yaml:8:50: rule r1: require.gates.distinctRoles: must be a non-negative integer, not "2"',
      "bank.policy.yaml:8:63: rule r1: require.gates.roles[0]: must not be empty",
      'bank.policy.yaml:8:67: rule r1: require.gates.roles[1]: must be a string, not an integer (quote it: "3")',
      'bank.policy.yaml:8:76: rule r1: require.gates.max: unknown key "max" (keys here: min, distinctRoles, roles)',
    ]);
    expect(
      problems(oneRule("severity: error", "for: agentTask", "require: { gates: { min: -1 } }")),
    ).toEqual([
      "bank.policy.yaml:8:30: rule r1: require.gates.min: must be a non-negative integer, not -1",
    ]);
    expect(
      problems(oneRule("severity: error", "for: agentTask", "require: { gates: {} }")),
    ).toEqual([
      "bank.policy.yaml:8:23: rule r1: require.gates: is empty: give at least one of min, distinctRoles, roles",
    ]);
    expect(
      problems(oneRule("severity: error", "for: agentTask", "require: { gates: { roles: risk } }")),
    ).toEqual([
      "bank.policy.yaml:8:32: rule r1: require.gates.roles: must be a list, not a string",
    ]);
    expect(
      problems(oneRule("severity: error", "for: agentTask", "require: { gates: { roles: [] } }")),
    ).toEqual(["bank.policy.yaml:8:32: rule r1: require.gates.roles: must name at least one role"]);
    expect(
      problems(oneRule("severity: error", "for: agentTask", "require: { gate: { min: 1 } }")),
    ).toEqual([
      "bank.policy.yaml:8:14: rule r1: require: missing 'gates'",
      'bank.policy.yaml:8:22: rule r1: require.gate: unknown key "gate" (keys here: gates)',
    ]);
  });

  it("malformed waivers", () => {
    const text = `${HEAD}rules: []
waivers:
  - rule: x
    workflow: agnt-x
    reason: r
    grantedBy: g
    expires: "2027-1-1"
    note: 1
  - 3
  - { rule: x, process: P, workflow: w@1.0.0, reason: r, grantedBy: 5, expires: 2027-02-29 }
  - { rule: x, element: E, reason: " ", expires: 2028-02-29 }
`;
    const line13 = text.split("\n")[12] ?? "";
    const col = (needle: string): number => line13.indexOf(needle) + 1;
    const foreign = `"x" ${FOREIGN("it has none")}`;
    expect(problems(text)).toEqual([
      `bank.policy.yaml:6:11: waivers[0].rule: ${foreign}`,
      'bank.policy.yaml:7:15: waivers[0].workflow: "agnt-x" is not written id@version',
      'bank.policy.yaml:10:14: waivers[0].expires: "2027-1-1" is not a calendar date written YYYY-MM-DD',
      'bank.policy.yaml:11:11: waivers[0].note: unknown key "note" (keys here: rule, process, element, workflow, reason, grantedBy, expires)',
      "bank.policy.yaml:12:5: waivers[1]: must be a mapping, not an integer",
      "bank.policy.yaml:13:5: waivers[2]: names both a process and a workflow; a waiver covers one subject",
      `bank.policy.yaml:13:13: waivers[2].rule: ${foreign}`,
      `bank.policy.yaml:13:${col("5,")}: waivers[2].grantedBy: must be a string, not an integer`,
      `bank.policy.yaml:13:${col("2027")}: waivers[2].expires: "2027-02-29" is not a calendar date written YYYY-MM-DD`,
      "bank.policy.yaml:14:5: waivers[3]: missing 'grantedBy'",
      "bank.policy.yaml:14:5: waivers[3]: names no subject: give 'process' (with an optional 'element') or 'workflow'",
      `bank.policy.yaml:14:13: waivers[3].rule: ${foreign}`,
      "bank.policy.yaml:14:25: waivers[3].element: 'element' needs 'process' (the process it is in)",
      "bank.policy.yaml:14:36: waivers[3].reason: must not be empty",
    ]);
  });
});

describe("a path into budget.maxCost must be a currency code", () => {
  it("in when and in a placeholder (budget.maxCost.usd is never present)", () => {
    const text = `${HEAD}rules:
  - id: r1
    severity: error
    for: agentTask
    when: budget.maxCost.usd > 1
    message: "costs {{budget.maxCost.usd}}, at most {{budget.maxCost.USD}}"
`;
    expect(problems(text)).toEqual([
      "bank.policy.yaml:8:26: rule r1: when: unknown field 'budget.maxCost.usd' (the keys of maxCost (amounts by currency code) are each a currency code of three capital letters (USD, EUR), so 'usd' is never present)",
      "bank.policy.yaml:9:14: rule r1: message: placeholder '{{budget.maxCost.usd}}' names no fact (the keys of budget.maxCost are each a currency code of three capital letters (USD, EUR))",
    ]);
  });
});

describe("a pack's waivers name its own rules only", () => {
  const pack = (waived: string) => `${HEAD}rules:
  - { id: four-eyes, severity: error, for: agentTask }
waivers:
  - { rule: ${waived}, process: P, reason: r, grantedBy: g, expires: "2027-03-31" }
`;

  it.each(["four-eyes", "bank/four-eyes"])("accepts %s, bare or with its pack's name", (rule) => {
    const reading = readPolicyPack(pack(rule), "bank.policy.yaml");
    expect("pack" in reading ? reading.pack.waivers.map((w) => w.rule) : reading).toEqual([rule]);
  });

  it.each([
    ["four-eye", "a typo"],
    ["security/four-eyes", "another pack's rule"],
    ["AGENT_GATE_UNREACHABLE", "agentflow's rule (red team: a team's pack waived it)"],
    ["acme/MODEL_ALLOWED", "a plugin's rule"],
  ])("refuses %s: %s", (rule) => {
    expect(problems(pack(rule))).toEqual([
      `bank.policy.yaml:7:13: waivers[0].rule: "${rule}" ${FOREIGN("its rules: four-eyes")}`,
    ]);
  });
});

describe("sound FEEL is not refused", () => {
  it.each([
    ["agentTask", '{a: tools, b: a}.b.effect = ["read"]'],
    ["agentTask", "some i in 1..3 satisfies i = level"],
    ["agentTask", "count(sort(tools, function(a, b) a.id < b.id)) > 1"],
    ["agentTask", 'if lane = null then false else lane.name = "Risk"'],
    ["agentTask", "element.name instance of string"],
    ["agentTask", 'every g in gates satisfies g.role != null and matches(g.role, "^risk")'],
    ["agentTask", 'tools[item.effect = "read" and (authorization = "gate")][1].id = "x"'],
    ["agentTask", "budget.maxCost.USD > 10 and string length(element.id) > 2"],
    ["workflow", 'some n in nodes satisfies n.model = null and n.type = "llm"'],
    ["workflow", "count(delegates) = 0 and level = justifiedLevel"],
    [
      "tool",
      '(effect in ["write-irreversible", "external-commitment"]) and authorization != "gate"',
    ],
    ["process", 'count(agentTasks[gateStatus = "bypassed"]) > 0 or count(gates[role = null]) > 1'],
  ])("%s: %s", (subject, when) => {
    const pack = compilePolicyPack({
      kind: "PolicyPack",
      name: "ok",
      version: "1",
      rules: [{ id: "r", severity: "error", for: subject, when }],
    });
    expect(pack.processRules).toHaveLength(1);
  });
});

describe("compilePolicyPack and formatPolicyProblem", () => {
  it("throws a PolicyPackError with every problem, without lines", () => {
    let caught: unknown;
    try {
      compilePolicyPack({
        kind: "PolicyPack",
        name: "bank",
        version: "1",
        rules: [
          { id: "a", severity: "error", for: "agentTask", when: "tool = 1" },
          { id: "b", severity: "error", for: "process", when: "level > 1" },
        ],
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PolicyPackError);
    const error = caught as PolicyPackError;
    expect(error.problems.map((p) => [p.ruleId, p.place, p.line])).toEqual([
      ["a", "rules[0].when", undefined],
      ["b", "rules[1].when", undefined],
    ]);
    expect(error.message).toBe(
      [
        `<pack>: rule a: when: unknown fact 'tool' (facts of agentTask: ${FACTS})`,
        "<pack>: rule b: when: unknown fact 'level' (facts of process: id, name, agentTasks, gates)",
      ].join("\n"),
    );
  });

  it("refuses data that is not JSON (a function, a lone surrogate)", () => {
    expect(() =>
      compilePolicyPack({
        kind: "PolicyPack",
        name: "b",
        version: "1",
        rules: [],
        description: () => 1,
      }),
    ).toThrow("<pack>: description: must be a string, not a function");
    expect(() =>
      compilePolicyPack({ kind: "PolicyPack", name: "b", version: "\ud800", rules: [] }),
    ).toThrow(/^<pack>: has no canonical JSON form/);
  });

  it("formats a problem with and without a rule, a place and a position", () => {
    const base: PolicyProblem = { source: "p.yaml", place: "", message: "m" };
    expect(formatPolicyProblem(base)).toBe("p.yaml: m");
    expect(formatPolicyProblem({ ...base, line: 3, column: 9, place: "waivers[0].expires" })).toBe(
      "p.yaml:3:9: waivers[0].expires: m",
    );
    expect(formatPolicyProblem({ ...base, ruleId: "four-eyes", place: "rules[12]" })).toBe(
      "p.yaml: rule four-eyes: m",
    );
    expect(
      formatPolicyProblem({
        ...base,
        ruleId: "x",
        place: "rules[1].require.gates.min",
        line: 2,
        column: 1,
      }),
    ).toBe("p.yaml:2:1: rule x: require.gates.min: m");
  });
});
