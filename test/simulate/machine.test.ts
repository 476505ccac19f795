/**
 * The machine itself: its states, driving it by hand with the pure transition functions, and
 * running it for real with a provided executor, which must agree with `simulate` record for
 * record (the machine's actions call the run simulate makes; these tests hold the pauses at each
 * attempt and the copies a snapshot keeps). The example in docs/simulation.md is run as written.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, initialTransition, toPromise, transition } from "xstate";
import type { ExecutorInput, FlowEvent, JsonObject } from "../../src/simulate/index.js";
import { EXECUTOR, simulate, snapshotState, toMachine } from "../../src/simulate/index.js";
import { decision, edge, llm, template, tool, workflow } from "./builders.js";

const root = new URL("../../", import.meta.url);

const odd = workflow(
  [
    llm("plan.v1#a"),
    tool("tool:x", { q: "{{plan.v1#a.output.q}}" }),
    decision("d.1", {
      condition: "output.ok = true",
      onTrue: { next: "end" },
      onFalse: { next: "end" },
    }),
  ],
  [edge("plan.v1#a", "tool:x"), edge("tool:x", "d.1")],
);

const done = (output: JsonObject): FlowEvent => ({
  type: `xstate.done.actor.${EXECUTOR}`,
  actorId: EXECUTOR,
  output,
});

describe("toMachine", () => {
  it("has four states whatever the workflow: run, check, completed and blocked", () => {
    expect(Object.keys(toMachine(odd).states)).toEqual(["check", "run", "completed", "blocked"]);
    const chain = workflow(
      Array.from({ length: 300 }, (_, i) => llm(`s${String(i)}`)),
      Array.from({ length: 299 }, (_, i) => edge(`s${String(i)}`, `s${String(i + 1)}`)),
    );
    expect(Object.keys(toMachine(chain).states)).toHaveLength(4);
  });

  it("is memoised per workflow object", () => {
    expect(toMachine(odd)).toBe(toMachine(odd));
  });

  it("can be driven by hand with initialTransition and transition", () => {
    const machine = toMachine(odd);
    const [initial, actions] = initialTransition(machine, {});
    let snapshot = initial;
    expect(snapshot.value).toBe("run");
    expect(snapshotState(odd, snapshot).tokens).toEqual(["plan.v1#a"]);
    // XState types the executable actions of this machine as `never`; they are plain objects.
    expect((actions as readonly { type: string }[]).map((a) => a.type)).toEqual([
      "xstate.spawnChild",
    ]);
    [snapshot] = transition(machine, snapshot, done({ q: "x" }));
    expect(snapshot.value).toBe("run");
    expect(snapshotState(odd, snapshot).tokens).toEqual(["tool:x"]);
    expect(snapshotState(odd, snapshot).visitedNodes).toEqual(["plan.v1#a"]);
    expect(snapshotState(odd, snapshot).trail.at(-1)?.output).toEqual({ q: "x" });
    [snapshot] = transition(machine, snapshot, done({ ok: true }));
    expect(snapshot.status).toBe("done");
    expect(snapshot.value).toBe("completed");
    expect(snapshot.output?.traversedEdges).toEqual([
      "plan.v1#a->tool:x",
      "tool:x->d.1",
      "d.1->end",
    ]);
  });

  it("keeps old snapshots valid (a transition goes on in a copy of the run)", () => {
    const machine = toMachine(odd);
    const [first] = initialTransition(machine, {});
    const before = JSON.stringify(snapshotState(odd, first));
    const [taken] = transition(machine, first, done({ q: "x" }));
    expect(JSON.stringify(snapshotState(odd, first))).toBe(before);
    expect(snapshotState(odd, first).tokens).toEqual(["plan.v1#a"]);
    // Two hosts going on from one snapshot with different results do not see each other's.
    const [other] = transition(machine, first, done({ q: "y" }));
    expect(snapshotState(odd, taken).trail.map((r) => r.output)).toEqual([{ q: "x" }]);
    expect(snapshotState(odd, other).trail.map((r) => r.output)).toEqual([{ q: "y" }]);
    const [end] = transition(machine, other, done({ ok: false }));
    expect(end.output?.trail.map((r) => r.type)).toEqual(["move", "move", "decision", "end"]);
  });

  it("fails an attempt with the error event, as the error boundary sees it", () => {
    const machine = toMachine(odd);
    const [first] = initialTransition(machine, {});
    const failed: FlowEvent = {
      type: `xstate.error.actor.${EXECUTOR}`,
      actorId: EXECUTOR,
      error: new Error("model down"),
    };
    const [snapshot] = transition(machine, first, failed);
    expect(snapshot.value).toBe("blocked");
    expect(snapshot.output?.blockedDecision).toEqual({
      nodeId: "plan.v1#a",
      cell: "execution",
      reason: "execution failed: model down",
    });
  });

  it("ends without invoking the executor when no attempt is reached", () => {
    const routeOnly = workflow(
      [
        decision("d", {
          condition: "output.ok = true",
          onTrue: { next: "end" },
          onFalse: { next: "end" },
        }),
      ],
      [],
    );
    const [snapshot] = initialTransition(toMachine(routeOnly), {});
    expect(snapshot.value).toBe("blocked");
    expect(snapshot.output?.blockedDecision?.cell).toBe("condition");
  });
});

describe("running for real with a provided executor", () => {
  const fixtures = {
    "llm-1": { outputs: [{ query: "q1" }, { query: "q2" }], fails: 2 },
    "tool-2": {
      outputs: [
        { answer: "a", sources: ["s"], is_complete: false },
        { answer: "b", sources: ["s"], is_complete: true },
      ],
    },
  };

  /** An executor replaying the fixtures, the way a real one would call a model or a tool. */
  function fake(seen: ExecutorInput[]) {
    return fromPromise<JsonObject, ExecutorInput>(({ input }) => {
      seen.push(input);
      const fixture = fixtures[input.nodeId as keyof typeof fixtures];
      const fails = "fails" in fixture ? fixture.fails : 0;
      if (input.execution <= fails) {
        return Promise.reject(new Error(`fixture failure ${input.execution} of 2`));
      }
      const outputs: readonly JsonObject[] = fixture.outputs;
      return Promise.resolve(outputs[Math.min(input.visit, outputs.length) - 1] ?? {});
    });
  }

  it("agrees with simulate byte for byte", async () => {
    const wf = template("research");
    const seen: ExecutorInput[] = [];
    const actor = createActor(toMachine(wf).provide({ actors: { execute: fake(seen) } }), {
      input: {},
    });
    actor.start();
    const state = await toPromise(actor);
    expect(JSON.stringify(state)).toBe(JSON.stringify(simulate(wf, { fixtures })));
    expect(seen.map((i) => [i.nodeId, i.visit, i.attempt, i.execution, i.logicalTime])).toEqual([
      ["llm-1", 1, 1, 1, 0],
      ["llm-1", 1, 2, 2, 1],
      ["llm-1", 1, 3, 3, 3],
      ["tool-2", 1, 1, 1, 3],
      ["llm-1", 2, 1, 4, 3],
      ["tool-2", 2, 1, 2, 3],
    ]);
    expect(seen[3]?.params).toEqual({ query: "q1" });
    expect(seen[5]?.output).toEqual({
      query: "q2",
      answer: "a",
      sources: ["s"],
      is_complete: false,
    });
  });

  it("stops with cell execution when the executor returns something other than an object", async () => {
    const machine = toMachine(workflow([llm("a")], [])).provide({
      actors: {
        execute: fromPromise<JsonObject, ExecutorInput>(() =>
          Promise.resolve([] as unknown as JsonObject),
        ),
      },
    });
    const state = await toPromise(createActor(machine).start());
    expect(state.blockedDecision).toEqual({
      nodeId: "a",
      cell: "execution",
      reason: '"a" returned a non-object output',
    });
  });

  it("without a provided executor, every llm/tool node fails", async () => {
    const state = await toPromise(createActor(toMachine(workflow([llm("a")], []))).start());
    expect(state.blockedDecision).toEqual({
      nodeId: "a",
      cell: "execution",
      reason: 'execution failed: no "execute" actor provided to run "a"',
    });
  });
});

describe("docs/simulation.md", () => {
  const markdown = readFileSync(new URL("docs/simulation.md", root), "utf8");
  const examples = [...markdown.matchAll(/```ts example\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");

  it("has runnable examples", () => {
    expect(examples).toHaveLength(2);
  });

  it.each(examples.map((code, i) => [i, code] as const))(
    "example %i prints what it says",
    (_i, code) => {
      const expected = code
        .split("\n")
        .filter((line) => line.startsWith("// → "))
        .map((line) => line.slice("// → ".length) + "\n")
        .join("");
      const runnable = code
        .replaceAll('"agentflow/model"', JSON.stringify(new URL("src/model/index.ts", root).href))
        .replaceAll(
          '"agentflow/simulate"',
          JSON.stringify(new URL("src/simulate/index.ts", root).href),
        );
      // The examples are written as JavaScript-compatible TypeScript, so tsx only has to load `src`.
      const stdout = execFileSync(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", runnable],
        {
          cwd: new URL(".", root),
          encoding: "utf8",
          env: { ...process.env, TSX_DISABLE_CACHE: "1" }, // tsx would leave a cache in /tmp
        },
      );
      expect(expected).not.toBe("");
      expect(stdout).toBe(expected);
    },
  );
});
