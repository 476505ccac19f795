/**
 * Pack rules judging subjects (issue 40, item 3): feelin's FEEL over the fact model, unknown
 * facts tried at every value they can take, undecided subjects selected with the reason, the
 * `require` predicates answered by the gate engine, and each subject reported where it is.
 * Views are built by hand and the rules run through the kit's one loop (`runRules`).
 */
import { describe, expect, it } from "vitest";
import {
  agentTask,
  onePack,
  processView,
  runProcess,
  runWorkflow,
  tool,
  workflow,
  workflowView,
} from "./helpers.js";

/** The element ids an agent-task rule with `when` selects among `tasks`. */
function selected(when: string, tasks: Parameters<typeof processView>[0]): string[] {
  const findings = runProcess(onePack({ for: "agentTask", when }), processView(tasks));
  return findings.map((f) => (f.target.kind === "bpmn-element" ? f.target.elementId : "?"));
}

describe("FEEL over the fact model (feelin)", () => {
  const commits = agentTask("Commit", {
    level: 4,
    tools: [tool("pay", "external-commitment"), tool("crm", "write-irreversible", "automatic")],
    lane: { id: "L1", name: "Sales" },
    gates: [{ id: "G1", name: "Approve", role: "Sales" }],
  });
  const reads = agentTask("Read", {
    level: 2,
    tools: [tool("crm-read", "read")],
    models: ["llama-3"],
  });
  const idle = agentTask("Idle", { level: 1, tools: [] });
  const tasks = [commits, reads, idle];

  it("some / every, with every over an empty list true", () => {
    expect(selected('some t in tools satisfies t.effect = "external-commitment"', tasks)).toEqual([
      "Commit",
    ]);
    expect(selected('every t in tools satisfies t.effect = "read"', tasks)).toEqual([
      "Read",
      "Idle",
    ]);
  });

  it("in [..] with values and ranges, and comparisons", () => {
    expect(selected("level in [4, 5]", tasks)).toEqual(["Commit"]);
    expect(selected("level in [1..2]", tasks)).toEqual(["Read", "Idle"]);
    expect(selected("level >= 2 and level < 4", tasks)).toEqual(["Read"]);
  });

  it("filters on fields and on item, count(), and paths over lists", () => {
    expect(
      selected('count(tools[effect in ["external-commitment", "write-irreversible"]]) >= 2', tasks),
    ).toEqual(["Commit"]);
    expect(selected('count(tools[item.authorization = "automatic"]) > 0', tasks)).toEqual([
      "Commit",
    ]);
    expect(selected('count(models[item != "gpt-4o"]) > 0', tasks)).toEqual(["Read"]);
    expect(selected('list contains(tools.effect, "read")', tasks)).toEqual(["Read"]);
    expect(selected("count(for t in tools return t.id) = 0", tasks)).toEqual(["Idle"]);
  });

  it("nested facts, and a gate role equal to the agent's lane (separation of duties)", () => {
    expect(
      selected("lane != null and some g in gates satisfies g.role = lane.name", tasks),
    ).toEqual(["Commit"]);
    expect(selected('element.id = "Read" or process.id = "Other"', tasks)).toEqual(["Read"]);
  });

  it("a fact absent as data (no lane) is FEEL null, not unknown", () => {
    // `lane.name` on a task without a lane is null; null = "Sales" is false: not undecided.
    expect(selected('lane.name = "Sales"', tasks)).toEqual(["Commit"]);
  });

  it("records of any key: an amount not stated is null, not a mistake", () => {
    const costly = agentTask("Costly", {
      budget: { maxSteps: 30, maxTokens: null, maxWallTimeMs: null, maxCost: { USD: 50 } },
    });
    expect(selected("budget.maxCost.USD > 10", [costly, idle])).toEqual(["Costly"]);
    expect(selected("budget.maxCost.EUR = null", [costly])).toEqual(["Costly"]);
  });

  it("a budget ceiling that says what an absent budget means", () => {
    const open = agentTask("Open", { level: 4, budget: null });
    const tight = agentTask("Tight", { level: 4 });
    const loose = agentTask("Loose", {
      level: 4,
      budget: { maxSteps: 100, maxTokens: null, maxWallTimeMs: null, maxCost: {} },
    });
    const when = "level >= 3 and (budget = null or budget.maxSteps = null or budget.maxSteps > 20)";
    expect(selected(when, [open, tight, loose])).toEqual(["Open", "Loose"]);
  });
});

describe("unknown facts are tried at every value (fail closed)", () => {
  it("selects a tool of unknown effect that could commit, saying what was assumed", () => {
    const pack = onePack({
      for: "agentTask",
      when: 'some t in tools satisfies t.effect = "external-commitment"',
      message: "{{element.id}} can commit",
    });
    const unknown = agentTask("U", { tools: [tool("legacy", null)] });
    const safe = agentTask("S", { tools: [tool("crm", "read")] });
    const findings = runProcess(pack, processView([unknown, safe]));
    expect(findings.map((f) => [f.target, f.messageId, f.message])).toEqual([
      [
        { kind: "bpmn-element", elementId: "U", path: "/rootElements/0/flowElements/U" },
        "assumed",
        'U can commit (assuming effect = "external-commitment", since the facts are unknown)',
      ],
    ]);
    expect(findings[0]?.data.assumed).toEqual({ effect: "external-commitment" });
    // The finding's data keeps the fact unknown.
    expect((findings[0]?.data.tools as { effect: unknown }[])[0]?.effect).toBeNull();
  });

  it("tries an unknown level, and each level fact on its own", () => {
    const u = agentTask("U", { level: null, justifiedLevel: null });
    expect(
      runProcess(onePack({ for: "agentTask", when: "level >= 4" }), processView([u]))[0]?.data
        .assumed,
    ).toEqual({
      level: 4,
    });
    const both = runProcess(
      onePack({ for: "agentTask", when: "level > justifiedLevel" }),
      processView([u]),
    );
    expect(both[0]?.data.assumed).toEqual({ level: 1, justifiedLevel: 0 });
  });

  it("tries a declared level that is no level; a level declared by none is null, as data", () => {
    const seven = agentTask("Seven", { level: null, declaredLevel: null, declaredLevelText: "7" });
    const none = agentTask("None", { declaredLevel: null, declaredLevelText: null });
    const four = agentTask("Four", { level: 4, declaredLevel: 4, declaredLevelText: "4" });
    const tasks = [seven, none, four];
    const when = "declaredLevel != null and declaredLevel > 3";
    expect(selected(when, tasks)).toEqual(["Seven", "Four"]);
    expect(
      runProcess(onePack({ for: "agentTask", when }), processView([seven]))[0]?.data,
    ).toMatchObject({
      assumed: { declaredLevel: 4 },
      declaredLevel: null,
      declaredLevelText: "7",
    });
    expect(selected("declaredLevel = null", tasks)).toEqual(["None"]);
    expect(selected("level > 3", tasks)).toEqual(["Seven", "Four"]);
  });

  // Red team: a rule written to flag unmapped tools compiled, and passed every one of them.
  it("selects an unknown fact for a rule that asks whether it is unknown", () => {
    const u = agentTask("U", {
      level: null,
      justifiedLevel: null,
      tools: [tool("legacy", null, null)],
    });
    const k = agentTask("K", { tools: [tool("known", "read", "automatic")] });
    const tasks = [u, k];
    expect(selected("level = null", tasks)).toEqual(["U"]);
    expect(selected("justifiedLevel = null", tasks)).toEqual(["U"]);
    expect(selected("some t in tools satisfies t.effect = null", tasks)).toEqual(["U"]);
    expect(selected("count(tools[authorization = null]) > 0", tasks)).toEqual(["U"]);
    expect(selected("not(every t in tools satisfies t.effect != null)", tasks)).toEqual(["U"]);
    const [finding] = runProcess(
      onePack({ for: "agentTask", when: "some t in tools satisfies t.effect = null" }),
      processView([u]),
    );
    expect(finding?.messageId).toBe("assumed");
    expect(finding?.data.assumed).toEqual({ effect: null });
    expect(finding?.data.assumption).toBe("effect = null");
    // A known value is tried first, and null is tried only when none made it true.
    expect(
      runProcess(onePack({ for: "agentTask", when: "level != null" }), processView([u]))[0]?.data
        .assumed,
    ).toEqual({ level: 0 });
    // A comparison that meets null decides nothing the known values did not.
    expect(selected("level > 5", tasks)).toEqual([]);
  });

  it("takes the product over kinds (effect and authorization)", () => {
    const u = agentTask("U", { tools: [tool("legacy", null, null)] });
    const when =
      'some t in tools satisfies t.effect = "write-irreversible" and t.authorization = "automatic"';
    const [finding] = runProcess(onePack({ for: "agentTask", when }), processView([u]));
    expect(finding?.data.assumed).toEqual({
      effect: "write-irreversible",
      authorization: "automatic",
    });
    expect(finding?.data.assumption).toBe(
      'effect = "write-irreversible", authorization = "automatic"',
    );
  });

  it("does not select when no value makes `when` true, nor try facts it does not read", () => {
    const u = agentTask("U", { level: null, tools: [tool("legacy", null)] });
    const none = 'some t in tools satisfies (t.effect = "read" and t.effect = "notify")';
    expect(selected(none, [u])).toEqual([]);
    expect(selected("camunda", [u])).toEqual([]);
  });

  it("tries unknowns a function reads without naming them", () => {
    const u = agentTask("U", { tools: [tool("legacy", null)] });
    expect(selected('contains(string(tools), "external-commitment")', [u])).toEqual(["U"]);
  });
});

describe("undecided subjects are selected, with the reason", () => {
  const pack = (when: string) => onePack({ for: "agentTask", when });
  const run = (when: string, task: ReturnType<typeof agentTask>) =>
    runProcess(pack(when), processView([task])).map((f) => [f.messageId, f.data.reason, f.message]);

  it("reading tools (or models) that are unknown", () => {
    const lost = agentTask("Lost", { level: 5, tools: null, models: null });
    expect(run('some t in tools satisfies t.effect = "read"', lost)).toEqual([
      [
        "undecided",
        "it reads 'tools', which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)",
        "agent task \"Lost\": policy rule r of t cannot be decided (it reads 'tools', which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)), so it counts as broken",
      ],
    ]);
    expect(run('"gpt-4o" in models', lost)[0]?.[1]).toBe(
      "it reads 'models', which is unknown because a workflow could not be read (or a model is not stated: an imported workflow's, whose format names none or shows a step that may call any model, or a Camunda agent's, or it is a FEEL expression)",
    );
    // Not read: decided by what is known.
    expect(run("level = 5", lost)[0]?.[0]).toBe("default");
    expect(run("level = 4", lost)).toEqual([]);
  });

  it("a result that is not true or false", () => {
    expect(run("level + 1", agentTask("A"))[0]?.[1]).toBe("'when' gives 3, not true or false");
    expect(run("budget.maxSteps > 5", agentTask("B", { budget: null }))[0]?.[1]).toBe(
      "'when' gives null, not true or false",
    );
  });

  it("a FEEL warning: a type error, or a fact the view does not hold", () => {
    expect(run('level + "a" > 1', agentTask("A"))[0]?.[1]).toMatch(/^FEEL INVALID_TYPE: /);
    const partial = Object.fromEntries(
      Object.entries(agentTask("P")).filter(([key]) => key !== "gateStatus"),
    );
    const view = processView([partial as ReturnType<typeof agentTask>]);
    const [finding] = runProcess(pack('gateStatus = "missing"'), view);
    expect(finding?.data.reason).toBe("FEEL NO_VARIABLE_FOUND: Variable 'gateStatus' not found");
  });

  it("an unknown whose every value fails to decide stays undecided, naming the assumption", () => {
    const u = agentTask("U", { level: null });
    expect(run('level + "a" > 1', u)[0]?.[1]).toMatch(/ \(assuming level = 0\)$/);
  });
});

describe("subjects of a process, placed where they are", () => {
  const a = agentTask("A", { level: 4, tools: [tool("pay", "external-commitment")] });
  const b = agentTask("B", { level: 4 });
  const c = agentTask("C", { level: 1, tools: [tool("crm", "read")] });

  it("a process rule judges the process, at the process", () => {
    const findings = runProcess(
      onePack({
        for: "process",
        when: "count(agentTasks[level >= 4]) >= 2",
        message: "{{id}} has many",
      }),
      processView([a, b, c]),
    );
    expect(findings.map((f) => [f.target, f.message, f.data.ruleId, f.data.pack])).toEqual([
      [
        { kind: "bpmn-element", elementId: "Loans", path: "/rootElements/0/flowElements/Loans" },
        "Loans has many",
        "r",
        "t",
      ],
    ]);
    expect((findings[0]?.data.agentTasks as unknown[]).length).toBe(3);
    expect(findings[0]?.data).not.toHaveProperty("place");
  });

  it("a tool rule judges each agent's tools at the agent task; a workflow rule each agent's workflow", () => {
    const toolFindings = runProcess(
      onePack({ for: "tool", when: 'effect != "read"' }),
      processView([a, b, c]),
    );
    expect(
      toolFindings.map((f) => [f.target.kind === "bpmn-element" && f.target.elementId, f.data.id]),
    ).toEqual([["A", "tool:pay"]]);
    const view = processView([a, c], {
      workflows: { A: workflow("agnt-a", { level: 5 }), C: workflow("agnt-c") },
    });
    const wf = runProcess(onePack({ for: "workflow", when: "level = 5" }), view);
    expect(
      wf.map((f) => [f.target.kind === "bpmn-element" && f.target.elementId, f.message]),
    ).toEqual([["A", 'workflow "agnt-a@1.0.0" breaks policy rule r of t']]);
  });

  it("reports the subject's facts, the rule and the pack as data", () => {
    const [finding] = runProcess(
      onePack({ for: "agentTask", when: "level = 1" }),
      processView([c]),
    );
    // The task's facts as given (the view's `place` is no fact), the rule and the pack.
    expect(finding?.data).toEqual({ ...c, ruleId: "r", pack: "t" });
  });

  it("tries the unknowns of a process's agent tasks, and is undecided on their unknown tools", () => {
    const unknownLevel = agentTask("U", { level: null });
    const found = runProcess(
      onePack({ for: "process", when: "some a in agentTasks satisfies a.level >= 4" }),
      processView([c, unknownLevel]),
    );
    expect(found.map((f) => [f.messageId, f.data.assumed])).toEqual([["assumed", { level: 4 }]]);
    const lost = agentTask("L", { tools: null });
    const undecided = runProcess(
      onePack({
        for: "process",
        when: 'some a in agentTasks satisfies list contains(a.tools.effect, "read")',
      }),
      processView([c, lost]),
    );
    expect(undecided.map((f) => f.messageId)).toEqual(["undecided"]);
  });

  it("judges nothing without a view (a process that could not be read)", () => {
    expect(runProcess(onePack({ for: "agentTask" }), undefined)).toEqual([]);
  });
});

describe("require: the gate engine's path predicates", () => {
  const risky = agentTask("Risky", { tools: [tool("pay", "external-commitment")] });
  const calm = agentTask("Calm", { tools: [tool("crm", "read")] });
  const rule = (gates: Record<string, unknown>) =>
    onePack({
      for: "agentTask",
      when: 'some t in tools satisfies t.effect = "external-commitment"',
      message: "{{element.id}} commits",
      require: { gates },
    });

  it("asks only for selected tasks, and a requirement that holds gives nothing", () => {
    const view = processView([risky, calm]);
    expect(runProcess(rule({ min: 2 }), view)).toEqual([]);
    expect(view.asked).toEqual([["Risky", { min: 2 }]]);
  });

  it("reports the failed predicate with the bypass path, as AGENT_GATE_BYPASS does", () => {
    const path = ["Risky", "Approve", "Send", "End"];
    const view = processView([risky], {
      gatePaths: {
        Risky: (r) =>
          r.roles !== undefined
            ? {
                holds: false,
                failed: "roles",
                path,
                rolesOnPath: ["risk"],
                gatesOnPath: 1,
                missingRole: "legal",
              }
            : r.distinctRoles !== undefined
              ? {
                  holds: false,
                  failed: "distinctRoles",
                  path,
                  rolesOnPath: ["risk"],
                  gatesOnPath: 1,
                }
              : { holds: false, failed: "min", path, rolesOnPath: ["risk"], gatesOnPath: 1 },
      },
    });
    const min = runProcess(rule({ min: 2 }), view)[0];
    expect([min?.messageId, min?.message]).toEqual([
      "requireMin",
      "Risky commits: every path from it to an end must pass at least 2 approval gate(s), but this one passes 1: Risky → Approve → Send → End",
    ]);
    expect(min?.data).toMatchObject({
      failed: "min",
      required: 2,
      bypassPath: "Risky → Approve → Send → End",
      pathIds: path,
      rolesOnPath: ["risk"],
      gatesOnPath: 1,
    });
    expect(runProcess(rule({ distinctRoles: 2 }), view)[0]?.message).toBe(
      'Risky commits: every path from it to an end must pass at least 2 gates whose approvers do not overlap (no one group, user or assignee may approve two of them), but this one passes only gates of "risk": Risky → Approve → Send → End',
    );
    const roles = runProcess(rule({ roles: ["risk", "legal"] }), view)[0];
    expect(roles?.message).toBe(
      'Risky commits: every path from it to an end must pass a gate of each role in [risk, legal], but this one passes no gate of role "legal": Risky → Approve → Send → End',
    );
    expect(roles?.data.missingRole).toBe("legal");
  });

  it("a requirement the engine cannot decide fails, with its reason", () => {
    const view = processView([risky], {
      gatePaths: {
        Risky: () => ({ holds: false, failed: "undecidable", reason: "too many roles", path: [] }),
      },
    });
    const [finding] = runProcess(rule({ distinctRoles: 3 }), view);
    expect([finding?.messageId, finding?.data.reason]).toEqual([
      "requireUndecided",
      "too many roles",
    ]);
  });

  it("an undecided `when` still asks the engine, and keeps its own reason apart", () => {
    const lost = agentTask("Lost", { tools: null });
    const failing = processView([lost], {
      gatePaths: {
        Lost: () => ({
          holds: false,
          failed: "min",
          path: ["Lost", "End"],
          rolesOnPath: [],
          gatesOnPath: 0,
        }),
      },
    });
    const [finding] = runProcess(rule({ min: 1 }), failing);
    expect([finding?.messageId, finding?.data.whenReason]).toEqual([
      "requireMin",
      "it reads 'tools', which is unknown because a workflow could not be read (or a Camunda agent's tool container could not be found)",
    ]);
    expect(runProcess(rule({ min: 1 }), processView([lost]))).toEqual([]);
  });
});

describe("workflow rules", () => {
  const w = workflow("agnt-offer", { level: 4, models: ["gpt-4o", "mystery-1"] });
  const view = workflowView(w, [
    { ...tool("pay", null), nodeId: "pay" },
    { ...tool("crm", "read"), nodeId: "lookup" },
  ]);

  it("judge the workflow as a whole and each tool call at its node", () => {
    const models = onePack({
      for: "workflow",
      when: 'some m in models satisfies not(m in ["gpt-4o"])',
    });
    expect(runWorkflow(models, view).map((f) => [f.target, f.path, f.message])).toEqual([
      [{ kind: "workflow" }, "", 'workflow "agnt-offer@1.0.0" breaks policy rule r of t'],
    ]);
    const tools = onePack({
      for: "tool",
      when: 'effect in ["write-irreversible", "external-commitment"]',
    });
    expect(
      runWorkflow(tools, view).map((f) => [f.target, f.path, f.messageId, f.data.assumed]),
    ).toEqual([
      [
        { kind: "node", nodeId: "pay" },
        "/nodes/0/config/usesTool",
        "assumed",
        { effect: "write-irreversible" },
      ],
    ]);
  });

  it("agent-task and process rules have none", () => {
    expect(onePack({ for: "agentTask" }).workflowRules).toEqual([]);
    expect(onePack({ for: "process" }).workflowRules).toEqual([]);
  });
});
