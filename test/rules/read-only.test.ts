/**
 * The read-only view a plugin's rule is given: reads answer what the real value answers (its
 * members viewed in turn), every way of writing is refused with the place named, and nothing of
 * the caller's is frozen or copied.
 */
import { describe, expect, it } from "vitest";
import { readOnlyViews } from "../../src/rules/internal.js";

/** A value with the kinds of things a context holds. */
class Graph {
  readonly #succ = new Map([["a", ["b", "c"]]]);
  successors(id: string): readonly string[] {
    return this.#succ.get(id) ?? [];
  }
  get size(): number {
    return this.#succ.size;
  }
}

function world() {
  const node = { id: "a", config: { model: "m" } };
  return {
    workflow: Object.freeze({
      nodes: [node, { id: "b", config: { model: "n" } }],
      edges: [] as unknown[],
    }),
    byId: new Map([["a", node]]),
    seen: new Set(["a"]),
    flags: new Int32Array([1, 2, 3]),
    graph: new Graph(),
    lookup: (id: string) => (id === "a" ? node : undefined),
    each: (fn: (n: typeof node) => void) => {
      fn(node);
    },
  };
}
type World = ReturnType<typeof world>;

const READS: readonly (readonly [string, (w: World) => unknown])[] = [
  ["a member", (w) => w.workflow.nodes[0]?.config.model],
  ["JSON text", (w) => JSON.stringify(w.workflow)],
  ["keys and entries", (w) => [Object.keys(w.workflow), Object.entries(w.workflow.nodes[0] ?? {})]],
  [
    "a filtered copy, sorted",
    (w) =>
      w.workflow.nodes
        .filter((n) => n.id !== "")
        .sort()
        .map((n) => n.id),
  ],
  ["a spread copy, reversed", (w) => [...w.workflow.nodes].reverse().map((n) => n.id)],
  ["Array.isArray and instanceof", (w) => [Array.isArray(w.workflow.nodes), w.byId instanceof Map]],
  [
    "a Map's get, size and iteration",
    (w) => [w.byId.get("a")?.id, w.byId.size, [...w.byId.keys()]],
  ],
  ["a Set's has", (w) => w.seen.has("a")],
  ["a typed array", (w) => [w.flags[1], w.flags.length, Array.from(w.flags)]],
  [
    "a class's private fields, through its methods and getters",
    (w) => [w.graph.successors("a"), w.graph.size],
  ],
  ["a function's result", (w) => w.lookup("a")?.config.model],
  [
    "identity among paths",
    (w) => w.lookup("a") === w.workflow.nodes[0] && w.byId.get("a") === w.workflow.nodes[0],
  ],
  [
    "a callback's argument",
    (w) => {
      let id = "";
      w.each((n) => {
        id = n.id;
      });
      return id;
    },
  ],
];

const WRITES: readonly (readonly [string, (w: World) => unknown, string])[] = [
  [
    "an assignment",
    (w) => Reflect.set(w.workflow, "nodes", []),
    "context.workflow is read-only: a rule is given the shared context to read, never to change (it tried to set 'nodes')",
  ],
  [
    "a nested assignment",
    (w) => Reflect.set(w.workflow.nodes[0]?.config ?? {}, "model", "x"),
    "context.workflow.nodes[0].config is read-only: a rule is given the shared context to read, never to change (it tried to set 'model')",
  ],
  [
    "a splice",
    (w) => w.workflow.nodes.splice(0),
    "context.workflow.nodes is read-only: a rule is given the shared context to read, never to change (it tried to delete '1')",
  ],
  [
    "a sort in place",
    (w) => (w.workflow.nodes as { id: string }[]).sort(),
    "context.workflow.nodes is read-only: a rule is given the shared context to read, never to change (it tried to set '0')",
  ],
  [
    "a delete",
    (w) => Reflect.deleteProperty(w.workflow.nodes[1] ?? {}, "config"),
    "context.workflow.nodes[1] is read-only: a rule is given the shared context to read, never to change (it tried to delete 'config')",
  ],
  [
    "a defineProperty",
    (w) => Object.defineProperty(w.byId, "x", { value: 1 }),
    "context.byId is read-only: a rule is given the shared context to read, never to change (it tried to define 'x')",
  ],
  [
    "a freeze",
    (w) => Object.freeze(w.seen),
    "context.seen is read-only: a rule is given the shared context to read, never to change (it tried to freeze, seal or close it)",
  ],
  [
    "a prototype change",
    (w) => Reflect.setPrototypeOf(w.graph, null),
    "context.graph is read-only: a rule is given the shared context to read, never to change (it tried to change its prototype)",
  ],
  [
    "a Map's set",
    (w) => w.byId.set("z", { id: "z", config: { model: "" } }),
    "context.byId.set is read-only: a rule is given the shared context to read, never to change (it tried to call a method that changes it)",
  ],
  [
    "a Map's clear",
    (w) => {
      w.byId.clear();
    },
    "context.byId.clear is read-only: a rule is given the shared context to read, never to change (it tried to call a method that changes it)",
  ],
  [
    "a Set's add",
    (w) => w.seen.add("z"),
    "context.seen.add is read-only: a rule is given the shared context to read, never to change (it tried to call a method that changes it)",
  ],
  [
    "a typed array's fill",
    (w) => w.flags.fill(0),
    "context.flags.fill is read-only: a rule is given the shared context to read, never to change (it tried to call a method that changes it)",
  ],
  [
    "a typed array's element",
    (w) => Reflect.set(w.flags, "0", 9),
    "context.flags is read-only: a rule is given the shared context to read, never to change (it tried to set '0')",
  ],
  [
    "a function's result",
    (w) => Reflect.set(w.lookup("a") ?? {}, "id", "z"),
    "context.lookup(…) is read-only: a rule is given the shared context to read, never to change (it tried to set 'id')",
  ],
  [
    "a callback's argument",
    (w) => {
      w.each((n) => {
        Reflect.set(n, "id", "z");
      });
    },
    "context.each(…) is read-only: a rule is given the shared context to read, never to change (it tried to set 'id')",
  ],
];

describe("a read-only view", () => {
  it.each(READS)("reads %s as the real value answers", (_, read) => {
    const view = readOnlyViews().view(world(), "context");
    expect(JSON.stringify(read(view))).toBe(JSON.stringify(read(world())));
  });

  it.each(WRITES)("refuses %s, naming where", (_, write, message) => {
    const real = world();
    const before = JSON.stringify({
      ...real,
      byId: [...real.byId],
      seen: [...real.seen],
      flags: [...real.flags],
    });
    expect(() => write(readOnlyViews().view(real, "context"))).toThrow(new TypeError(message));
    const after = JSON.stringify({
      ...real,
      byId: [...real.byId],
      seen: [...real.seen],
      flags: [...real.flags],
    });
    expect(after).toBe(before);
    expect([Object.isFrozen(real), Object.isFrozen(real.byId), Object.isFrozen(real.seen)]).toEqual(
      [false, false, false],
    );
  });
});
