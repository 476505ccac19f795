import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApprovedModel, RunEvent } from "../../../src/conform/index.js";
import { createConformanceChecker } from "../../../src/conform/index.js";
import { langGraphReader } from "../../../src/conform/read/langgraph.js";
import type { AgentWorkflow, ToolContract } from "../../../src/model/index.js";
import { simulate } from "../../../src/simulate/index.js";
import { LOOP_WORKFLOW } from "../../fixtures/conform/langgraph/workflow.js";
import { build, fixturesOf, specArb } from "../../simulate/random-workflow.js";
import { langgraphRecording } from "../export/langgraph.js";

const DIR = join(import.meta.dirname, "../../fixtures/conform/langgraph");

/** Reads JSON lines (a bad line is passed as its text, as a truncated record would be). */
function read(text: string, file = "run.jsonl"): RunEvent[] {
  const reader = langGraphReader.create();
  const events: RunEvent[] = [];
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .forEach((line, index) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = line;
      }
      events.push(...reader.push({ value, index, line: index + 1, file }));
    });
  events.push(...reader.end());
  return events;
}

const fixture = (name: string): RunEvent[] => read(readFileSync(join(DIR, name), "utf8"), name);
const lines = (...records: unknown[]): string => records.map((r) => JSON.stringify(r)).join("\n");
const brief = (events: readonly RunEvent[]) =>
  events.map((e) =>
    e.kind === "step"
      ? [e.kind, e.run, e.nodeType, e.node ?? e.tool, e.status, e.output, e.args]
      : e.kind === "unknown"
        ? [e.kind, e.run, e.class, e.at.line]
        : e.kind === "route"
          ? [e.kind, e.run, e.node, e.route, e.next]
          : e.kind === "run-end"
            ? [e.kind, e.run, e.status]
            : [e.kind, "run" in e ? e.run : undefined],
  );

const T0 = Date.UTC(2026, 0, 1);
const LOOP_STEPS = [
  ["step", "thread-1", "llm", "a", "ok", { n: 1 }, undefined],
  ["step", "thread-1", "llm", "a", "ok", { n: 2 }, undefined],
  ["step", "thread-1", "tool", "t", "ok", {}, { q: "x" }],
];

describe("langgraph reader: LangGraph JS 1.7.3 records (fixtures made by LangGraph)", () => {
  it("reads a plain updates stream as one run named after its file, ended where the file ends", () => {
    const events = fixture("loop-updates.jsonl");
    expect(brief(events)).toEqual([
      ["run-start", "loop-updates.jsonl"],
      ...LOOP_STEPS.map((s) => [s[0], "loop-updates.jsonl", ...s.slice(2)]),
      ["run-end", "loop-updates.jsonl", "ended"],
    ]);
    expect(events[1]?.at).toEqual({
      index: 0,
      file: "loop-updates.jsonl",
      line: 1,
      ids: { node: "a" },
    });
  });

  it("reads a debug stream: thread, workflow, step times, task ids and the end", () => {
    const events = fixture("loop-debug.jsonl");
    expect(brief(events)).toEqual([
      ["run-start", "thread-1"],
      ...LOOP_STEPS,
      ["run-end", "thread-1", "completed"],
    ]);
    const [start, first, , , end] = events;
    expect(start).toMatchObject({
      time: T0,
      workflow: "agnt-loop@1.0.0",
      at: { index: 0, line: 1 },
    });
    expect(first).toMatchObject({
      start: T0 + 2,
      end: T0 + 3,
      at: { line: 4, time: "2026-01-01T00:00:00.003Z" },
    });
    expect(first?.at.ids?.task_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(end).toMatchObject({ time: T0 + 10, at: { line: 11 } });
  });

  it("merges [mode, chunk] updates with the debug task of the same execution", () => {
    expect(brief(fixture("loop-updates-debug.jsonl"))).toEqual([
      ["run-start", "thread-1"],
      ...LOOP_STEPS,
      ["run-end", "thread-1", "completed"],
    ]);
  });

  it("reads checkpoint tuples listed newest first, in step order", () => {
    const events = fixture("loop-tuples.jsonl");
    expect(brief(events)).toEqual([
      ["run-start", "thread-1"],
      ...LOOP_STEPS,
      ["run-end", "thread-1", "completed"],
    ]);
    expect(events.map((e) => e.at.line)).toEqual([5, 3, 2, 1, 1]);
    expect(events[0]).toMatchObject({ time: T0 });
  });

  it("reads tool calls from messages: ToolNode answers are tool steps with the call's args", () => {
    const events = fixture("messages-updates.jsonl");
    expect(brief(events).slice(1)).toEqual([
      ["step", "messages-updates.jsonl", "llm", "agent", "ok", expect.any(Object), undefined],
      ["step", "messages-updates.jsonl", "tool", "web_search", "ok", undefined, { q: "x" }],
      ["step", "messages-updates.jsonl", "llm", "agent", "ok", expect.any(Object), undefined],
      ["run-end", "messages-updates.jsonl", "ended"],
    ]);
    expect(events[1]).toMatchObject({
      identity: { model: "gpt-4o", provider: "openai" },
      tokens: 7,
    });
    expect(events[2]).toMatchObject({ at: { ids: { node: "tools" } } });
    expect(events[2]).not.toHaveProperty("node");
  });

  it("counts an interrupt as unknown and reads the resumed node", () => {
    expect(brief(fixture("interrupt-updates.jsonl"))).toEqual([
      ["run-start", "interrupt-updates.jsonl"],
      ["unknown", "interrupt-updates.jsonl", "unknown", 1],
      ["step", "interrupt-updates.jsonl", "llm", "ask", "ok", { answer: "yes" }, undefined],
      ["run-end", "interrupt-updates.jsonl", "ended"],
    ]);
  });

  it("ends a run whose task failed as failed, the step an error", () => {
    expect(brief(fixture("failed-debug.jsonl"))).toEqual([
      ["run-start", "fail-1"],
      ["step", "fail-1", "llm", "a", "ok", { n: 1 }, undefined],
      ["step", "fail-1", "llm", "b", "error", undefined, undefined],
      ["run-end", "fail-1", "failed"],
    ]);
  });

  it("sniffs its own records and not other sources'", () => {
    for (const name of [
      "loop-updates.jsonl",
      "loop-debug.jsonl",
      "loop-updates-debug.jsonl",
      "loop-tuples.jsonl",
      "messages-updates.jsonl",
    ]) {
      const first = readFileSync(join(DIR, name), "utf8").split("\n")[0] ?? "";
      expect(langGraphReader.sniff(JSON.parse(first))).toBe(true);
    }
    expect(langGraphReader.sniff({ resourceSpans: [] })).toBe(false);
    expect(langGraphReader.sniff({ partitionId: 1, intent: "ELEMENT_COMPLETED", value: {} })).toBe(
      false,
    );
    expect(langGraphReader.sniff("text")).toBe(false);
  });
});

const checkpoint = (
  thread: string,
  step: number,
  next: string[],
  tasks: [string, string][],
  time: string,
) => ({
  type: "checkpoint",
  step,
  timestamp: time,
  payload: {
    config: {
      configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: `${thread}-${step}` },
    },
    metadata: { source: step < 0 ? "input" : "loop", step },
    next,
    tasks: tasks.map(([id, name]) => ({ id, name })),
  },
});
const task = (id: string, name: string, step: number, time: string) => ({
  type: "task",
  step,
  timestamp: time,
  payload: { id, name, input: {} },
});
const result = (id: string, name: string, step: number, time: string, value: object) => ({
  type: "task_result",
  step,
  timestamp: time,
  payload: { id, name, result: value, interrupts: [], error: null },
});

describe("langgraph reader: literal records", () => {
  it("keeps interleaved threads apart by thread and task id", () => {
    const events = read(
      lines(
        checkpoint("A", 0, ["x"], [["ta", "x"]], "2026-01-01T00:00:00.000Z"),
        checkpoint("B", 0, ["y"], [["tb", "y"]], "2026-01-01T00:00:00.001Z"),
        task("tb", "y", 1, "2026-01-01T00:00:00.002Z"),
        task("ta", "x", 1, "2026-01-01T00:00:00.003Z"),
        result("ta", "x", 1, "2026-01-01T00:00:00.004Z", { v: 1 }),
        result("tb", "y", 1, "2026-01-01T00:00:00.005Z", { v: 2 }),
        checkpoint("B", 1, [], [], "2026-01-01T00:00:00.006Z"),
        checkpoint("A", 1, [], [], "2026-01-01T00:00:00.007Z"),
      ),
    );
    expect(brief(events)).toEqual([
      ["run-start", "B"],
      ["step", "B", "llm", "y", "ok", { v: 2 }, undefined],
      ["run-end", "B", "completed"],
      ["run-start", "A"],
      ["step", "A", "llm", "x", "ok", { v: 1 }, undefined],
      ["run-end", "A", "completed"],
    ]);
    expect(events[1]).toMatchObject({
      at: { index: 5, line: 6, ids: { task_id: "tb", node: "y" } },
    });
  });

  it("orders a run's steps by superstep and start time, not by file order", () => {
    const events = read(
      lines(
        checkpoint("A", 0, ["x"], [["t1", "x"]], "2026-01-01T00:00:00.000Z"),
        task("t2", "y", 2, "2026-01-01T00:00:00.005Z"),
        result("t2", "y", 2, "2026-01-01T00:00:00.006Z", { second: true }),
        task("t1", "x", 1, "2026-01-01T00:00:00.001Z"),
        result("t1", "x", 1, "2026-01-01T00:00:00.002Z", { first: true }),
      ),
    );
    expect(brief(events).map((e) => e[3])).toEqual([undefined, "x", "y", undefined]);
  });

  it("a run whose records stop without an end is ended there, status unknown (`ended`)", () => {
    const events = read(
      lines(
        checkpoint("A", 0, ["x"], [["t1", "x"]], "2026-01-01T00:00:00.000Z"),
        task("t1", "x", 1, "2026-01-01T00:00:00.001Z"),
      ),
    );
    expect(brief(events)).toEqual([
      ["run-start", "A"],
      ["unknown", "A", "unknown", 2],
      ["run-end", "A", "ended"],
    ]);
    expect(events[1]?.kind === "unknown" ? events[1].reason : "").toContain("no result");
  });

  it("says a StateSnapshot of getStateHistory is not read, rather than take its keys for nodes", () => {
    const snapshot = {
      values: { n: 1 },
      next: ["b"],
      config: { configurable: { thread_id: "t", checkpoint_id: "c" } },
      metadata: { source: "loop", step: 1 },
      createdAt: "2026-01-01T00:00:00.000Z",
      tasks: [{ id: "t1", name: "b", interrupts: [] }],
    };
    const events = read(JSON.stringify(snapshot));
    expect(brief(events)).toEqual([["unknown", undefined, "unknown", 1]]);
    expect(events[0]?.kind === "unknown" ? events[0].reason : "").toContain("StateSnapshot");
  });

  it("an update with several runs open is ambiguous; unreadable records are unknown", () => {
    const events = read(
      [
        JSON.stringify(checkpoint("A", 0, ["x"], [], "2026-01-01T00:00:00.000Z")),
        JSON.stringify(checkpoint("B", 0, ["x"], [], "2026-01-01T00:00:00.000Z")),
        JSON.stringify({ x: { v: 1 } }),
        '{"x": {"v": 1',
        JSON.stringify(["values", { v: 1 }]),
        JSON.stringify([["sub:1"], "updates", { x: {} }]),
        JSON.stringify({ type: "task", step: 1, payload: { name: "x" } }),
      ].join("\n"),
    );
    expect(brief(events)).toEqual([
      ["unknown", undefined, "ambiguous", 3],
      ["unknown", undefined, "unknown", 4],
      // line 5, a `values` chunk, shows no node execution: not needed, not reported
      ["unknown", undefined, "unknown", 6],
      ["unknown", undefined, "unknown", 7],
      ["run-start", "A"],
      ["run-end", "A", "ended"],
      ["run-start", "B"],
      ["run-end", "B", "ended"],
    ]);
  });

  it("reads agentflow's keys: node id, output text, tool args, route, workflow, identity", () => {
    const events = read(
      lines(
        {
          node_1: {
            "agentflow.node.id": "x:y",
            "agentflow.node.output": '{"__proto__":1}',
            "agentflow.workflow": "w@1.0.0",
            "agentflow.prompt.sha256": "ab",
          },
        },
        { router: { "agentflow.route.label": "onTrue", "agentflow.route.next": "t" } },
        { t: { "agentflow.tool.args": { q: 1 }, "agentflow.cost.USD": 0.5 } },
        { bad: { "agentflow.node.output": "{" } },
        { z: 3 },
      ),
    );
    const [start, x, route, t, bad, badWhy, z] = events;
    expect(start).toMatchObject({ kind: "run-start", workflow: "w@1.0.0" });
    expect(x).toMatchObject({ kind: "step", node: "x:y", identity: { promptSha256: "ab" } });
    expect(x?.kind === "step" ? Object.entries(x.output ?? {}) : []).toEqual([["__proto__", 1]]);
    expect(route).toMatchObject({ kind: "route", node: "router", route: "onTrue", next: "t" });
    expect(t).toMatchObject({
      kind: "step",
      nodeType: "tool",
      node: "t",
      args: { q: 1 },
      output: {},
      cost: { USD: 0.5 },
    });
    expect(bad).toMatchObject({ kind: "step", node: "bad" });
    expect(bad).not.toHaveProperty("output");
    expect(badWhy?.kind === "unknown" ? badWhy.reason : "").toContain("not JSON");
    expect(z?.kind === "unknown" ? z.reason : "").toContain("not an object");
  });

  it("says a cost it cannot read as an unread record, and reads a tool answer's cost", () => {
    const events = read(
      lines(
        { plan: { "agentflow.cost.usd": 5, "agentflow.cost.EUR": -1, n: 1 } },
        {
          tools: {
            messages: [{ type: "tool", name: "search", tool_call_id: "c1", content: "ok" }],
            "agentflow.cost.USD": 0.25,
          },
        },
      ),
    );
    expect(events.map((e) => (e.kind === "unknown" ? e.reason : e.kind))).toEqual([
      "run-start",
      "step",
      "agentflow.cost.usd names no currency: a cost is agentflow.cost.<ISO 4217 code>, such as agentflow.cost.USD, in the update of node 'plan'.",
      "agentflow.cost.EUR is not an amount (a number, zero or more), in the update of node 'plan'.",
      "step",
      "run-end",
    ]);
    expect(events[1]).not.toHaveProperty("cost");
    expect(events[4]).toMatchObject({ nodeType: "tool", tool: "search", cost: { USD: 0.25 } });
  });

  it("reads no tool step from an answer that names another tool than the call it answers", () => {
    const events = read(
      lines(
        {
          agent: {
            messages: [
              {
                type: "ai",
                content: "",
                tool_calls: [{ id: "c1", name: "wire_transfer", args: {} }],
              },
            ],
          },
        },
        {
          tools: {
            messages: [{ type: "tool", name: "search", tool_call_id: "c1", content: "ok" }],
          },
        },
      ),
    );
    expect(events.map((e) => e.kind)).toEqual(["run-start", "step", "unknown", "run-end"]);
    expect(events[2]).toMatchObject({
      class: "ambiguous",
      reason:
        "The tool message of node 'tools' answers call 'c1' as tool 'search', but the call asked for tool 'wire_transfer', so which tool ran is ambiguous.",
    });
  });

  it("reads Python's task_result pairs and snake_case tuples", () => {
    const events = read(
      lines(
        checkpoint("P", 0, ["x"], [["t1", "x"]], "2026-01-01T00:00:00.000Z"),
        {
          type: "task_result",
          step: 1,
          timestamp: "2026-01-01T00:00:00.001Z",
          payload: { id: "t1", name: "x", result: [["v", 1]], error: null, interrupts: [] },
        },
        checkpoint("P", 1, [], [], "2026-01-01T00:00:00.002Z"),
      ),
    );
    expect(brief(events)[1]).toEqual(["step", "P", "llm", "x", "ok", { v: 1 }, undefined]);
  });
});

const TOOL: ToolContract = {
  kind: "ToolContract",
  id: "tool:s",
  version: "1.0.0",
  name: "S",
  inputSchema: { q: "text" },
  outputSchema: {},
  effect: "read",
  authorization: "automatic",
};

describe("langgraph exporter: a simulated run recorded by LangGraph conforms", () => {
  const wf = LOOP_WORKFLOW as unknown as AgentWorkflow;
  const approved: ApprovedModel = {
    workflows: [{ ref: "agnt-loop@1.0.0", workflow: wf, tools: new Map([["tool:s@1.0.0", TOOL]]) }],
    processes: [],
  };
  const cases = [
    { a: { outputs: [{ n: 1 }, { n: 2 }], fails: 1 } },
    { a: { outputs: [{ n: 5, "x:y": 1 }] } },
    { a: { outputs: [{ n: 0 }] } },
  ];
  for (const how of ["updates", "debug", "updates+debug", "tuples"] as const)
    it.each(cases)(`${how}: %j`, async (fixtures) => {
      const state = simulate(wf, { input: { q: "x" }, fixtures, maxSteps: 12 });
      if (how === "tuples" && !state.complete) return;
      const text = await langgraphRecording(wf, state, { id: "r", startMs: T0 }, how, {
        models: true,
      });
      const checker = createConformanceChecker(approved);
      const events = read(text);
      for (const e of events) checker.push(e);
      const report = checker.end();
      expect(report.runs[0]?.deviations ?? []).toEqual([]);
      expect(events.filter((e) => e.kind === "step").length).toBe(
        state.trail.filter((r) => r.type === "move").length,
      );
    });
});

describe("langgraph exporter: random simulated runs recorded by LangGraph conform", () => {
  const RANDOM_TOOL: ToolContract = { ...TOOL, id: "tool:x", inputSchema: { q: {}, r: "text" } };
  it.each(["updates", "debug", "updates+debug"] as const)("%s", async (how) => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const wf = build(spec);
        const approved: ApprovedModel = {
          workflows: [
            {
              ref: `${wf.id}@${wf.version}`,
              workflow: wf,
              tools: new Map([["tool:x@1.0.0", RANDOM_TOOL]]),
            },
          ],
          processes: [],
        };
        const state = simulate(wf, { fixtures: fixturesOf(spec), maxSteps: spec.maxSteps });
        const text = await langgraphRecording(wf, state, { id: "r", startMs: T0 }, how, {
          models: true,
        });
        const checker = createConformanceChecker(approved);
        const events = read(text);
        for (const e of events) checker.push(e);
        const run = checker.end().runs[0];
        // A named llm or tool node is that node whatever kind the reader guessed: a failed task,
        // which carries no update to hint its kind, is still the node it names.
        const deviations = run?.deviations ?? [];
        expect(deviations).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

/** An AIMessage as LangGraph Python and the Platform API write it (a plain dict). */
const ai = (model: string, calls: { id: string; name: string; args: object }[] = []) => ({
  type: "ai",
  content: "",
  tool_calls: calls,
  response_metadata: { model_name: model },
});
const answer = (name: unknown, id: string) => ({
  type: "tool",
  name,
  tool_call_id: id,
  content: "ok",
});
const refund = { id: "c9", name: "tool:payments-refund", args: { amount: 5000 } };
const route = { "agentflow.route.label": "onTrue", "agentflow.route.next": "t" };

describe("langgraph reader: every tool call and answer, every model call, in any update", () => {
  const cases: readonly {
    readonly name: string;
    readonly records: readonly unknown[];
    readonly events: readonly unknown[];
    readonly reasons?: readonly string[];
  }[] = [
    {
      name: "a ToolMessage in an llm node's update is a tool step after the node's own",
      records: [{ a: { n: 1, messages: [ai("m", [refund]), answer(refund.name, "c9"), ai("m")] } }],
      events: [
        ["step", "run.jsonl", "llm", "a", "ok", expect.any(Object), undefined],
        ["step", "run.jsonl", "tool", "tool:payments-refund", "ok", undefined, { amount: 5000 }],
      ],
    },
    {
      name: "a ToolMessage in a router node's update is a tool step after the decision",
      records: [{ d: { ...route, messages: [answer(refund.name, "c7")] } }],
      events: [
        ["route", "run.jsonl", "d", "onTrue", "t"],
        ["step", "run.jsonl", "tool", "tool:payments-refund", "ok", undefined, undefined],
      ],
    },
    {
      name: "a router node's model calls and spending are said, not dropped",
      records: [{ d: { ...route, "agentflow.cost.USD": 2, messages: [ai("m")] } }],
      events: [
        ["route", "run.jsonl", "d", "onTrue", "t"],
        ["unknown", "run.jsonl", "unknown", 1],
        ["unknown", "run.jsonl", "unknown", 1],
      ],
      reasons: [
        "The update of router node 'd' holds 1 AIMessage(s): a decision is no llm node, so its model calls are not checked.",
        "The update of router node 'd' records spending (agentflow.cost.*, tokens): a decision is no step, so the budget cannot count it.",
      ],
    },
    {
      name: "a tool call no ToolMessage answers is said when the run ends",
      records: [{ a: { n: 1, messages: [ai("m", [refund])] } }],
      events: [
        ["step", "run.jsonl", "llm", "a", "ok", expect.any(Object), undefined],
        ["unknown", "run.jsonl", "unknown", 1],
      ],
      reasons: [
        "The model of node 'a' asked for tool 'tool:payments-refund' (call 'c9'), and no tool message in the records answers it, so whether it ran is not known.",
      ],
    },
    {
      name: "a ToolMessage whose name is a list, answering no call, is no step but a record not read",
      records: [{ tools: { messages: [answer(["tool:payments-refund"], "c8")] } }],
      events: [
        ["unknown", "run.jsonl", "unknown", 1],
        ["unknown", "run.jsonl", "unknown", 1],
      ],
      reasons: [
        "A tool message of node 'tools' names no tool and answers no call the records show (call 'c8'), so which tool ran is not known.",
        "The name of a ToolMessage is a list, not text, in the update of node 'tools'.",
      ],
    },
    {
      name: "a model name that is a list is a record not read, never an absent model",
      records: [
        { a: { messages: [{ ...ai("m"), response_metadata: { model_name: ["gpt-5"] } }] } },
      ],
      events: [
        ["step", "run.jsonl", "llm", "a", "ok", expect.any(Object), undefined],
        ["unknown", "run.jsonl", "unknown", 1],
      ],
      reasons: [
        "response_metadata.model_name of an AIMessage is a list, not text, in the update of node 'a'.",
      ],
    },
    {
      name: "agentflow keys of an update that are not text are records not read",
      records: [{ a: { "agentflow.node.id": ["x"], "agentflow.workflow": 3, n: 1 } }],
      events: [
        ["step", "run.jsonl", "llm", "a", "ok", { n: 1 }, undefined],
        ["unknown", "run.jsonl", "unknown", 1],
        ["unknown", "run.jsonl", "unknown", 1],
      ],
      reasons: [
        "agentflow.node.id is a list, not text, in the update of node 'a'.",
        "agentflow.workflow is a number, not text, in the update of node 'a'.",
      ],
    },
  ];
  it.each(cases)("$name", ({ records, events, reasons }) => {
    const got = read(lines(...records));
    expect(brief(got)).toEqual([
      ["run-start", "run.jsonl"],
      ...events,
      ["run-end", "run.jsonl", "ended"],
    ]);
    expect(got.flatMap((e) => (e.kind === "unknown" ? [e.reason] : []))).toEqual(reasons ?? []);
  });

  it("gives the model of each AIMessage of an update when they differ, in order", () => {
    const [, step] = read(lines({ a: { messages: [ai("gpt-5"), ai("m")] } }));
    expect(step).toMatchObject({ kind: "step", modelCalls: [{ model: "gpt-5" }, { model: "m" }] });
    expect(step).not.toHaveProperty("identity");
    const [, same] = read(lines({ a: { messages: [ai("m"), ai("m")] } }));
    expect(same).toMatchObject({ kind: "step", identity: { model: "m" } });
    expect(same).not.toHaveProperty("modelCalls");
  });

  it("reads a run-level key of the checkpoint metadata that is not text as a record not read", () => {
    const first = checkpoint("A", -1, ["a"], [], "2026-01-01T00:00:00.000Z");
    const metadata = { ...first.payload.metadata, "agentflow.workflow": ["w@1.0.0"] };
    const start = { ...first, payload: { ...first.payload, metadata } };
    const events = read(lines(start));
    expect(brief(events)).toEqual([
      ["run-start", "A"],
      ["unknown", "A", "unknown", 1],
      ["run-end", "A", "ended"],
    ]);
    expect(events[0]).not.toHaveProperty("workflow");
    expect(events[1]).toMatchObject({
      reason: "agentflow.workflow of the checkpoint metadata is a list, not text.",
    });
  });

  // Checked against the loop workflow (a → d → t, t using tool:s): what each loss would hide.
  const approved: ApprovedModel = {
    workflows: [
      {
        ref: "agnt-loop@1.0.0",
        workflow: LOOP_WORKFLOW as unknown as AgentWorkflow,
        tools: new Map([["tool:s@1.0.0", TOOL]]),
      },
    ],
    processes: [],
  };
  const tail = { t: { "agentflow.node.type": "tool", "agentflow.tool.args": { q: "x" } } };
  it.each([
    {
      name: "a tool run inside an llm node",
      records: [{ a: { n: 2, messages: [ai("m", [refund]), answer(refund.name, "c9"), ai("m")] } }],
      found: [["TOOL_UNKNOWN", "tool:payments-refund", 1]],
    },
    {
      name: "a tool run inside a router node",
      records: [
        { a: { n: 2, messages: [ai("m")] } },
        { d: { ...route, messages: [answer(refund.name, "c7")] } },
      ],
      found: [["TOOL_UNKNOWN", "tool:payments-refund", 2]],
    },
    {
      name: "an unapproved model before the approved one in one update",
      records: [{ a: { n: 2, messages: [ai("gpt-5"), ai("m")] } }],
      found: [["IDENTITY_MISMATCH", "a", 1]],
    },
  ])("finds $name", ({ records, found }) => {
    const checker = createConformanceChecker(approved);
    for (const e of read(lines(...records, tail))) checker.push(e);
    const run = checker.end().runs[0];
    expect(run?.deviations.map((d) => [d.class, d.node, d.at.line])).toEqual(found);
  });
});
