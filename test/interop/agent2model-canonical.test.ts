/**
 * The canonical JSON form that `agent2model compile` writes to `flowchart.json` (pydantic's
 * `model_dump`: every optional field present, `null` or its default): it imports to the same
 * workflow as the YAML it was compiled from, and `null` means absent for every optional field.
 */
import { describe, expect, it } from "vitest";
import {
  checkAgent2ModelInvariants,
  detectAgent2Model,
  importAgent2Model,
} from "../../src/interop/agent2model/index.js";
import { detectFormat, ImportError } from "../../src/interop/index.js";
import type { Obj } from "./helpers.js";
import { readFixture } from "./helpers.js";

const EXAMPLES = ["travel_booking", "zoom_support", "insurance_claims"];

function canonical(name: string): Obj & { nodes: Record<string, Obj & { next: Obj[] }> } {
  return readFixture(`agent2model/${name}.flowchart.json`) as Obj & {
    nodes: Record<string, Obj & { next: Obj[] }>;
  };
}

describe.each(EXAMPLES)("%s: flowchart.json beside flowchart.yaml", (name) => {
  it("is the canonical form: every node has role, prompt, next, terminal; every edge to, when", () => {
    const doc = canonical(name);
    const nodes = Object.values(doc.nodes);
    expect(nodes.every((n) => Object.keys(n).join() === "role,prompt,next,terminal")).toBe(true);
    expect(nodes.flatMap((n) => n.next).every((e) => Object.keys(e).join() === "to,when")).toBe(
      true,
    );
    expect(nodes.some((n) => n.terminal === null && n.role !== null)).toBe(true);
    expect(nodes.some((n) => n.terminal !== null && n.role === null && n.prompt === null)).toBe(
      true,
    );
  });

  it("imports to the same workflow, with the same warnings, as the YAML", () => {
    const fromYaml = importAgent2Model(readFixture(`agent2model/${name}.flowchart.yaml`));
    const fromJson = importAgent2Model(canonical(name));
    expect(fromJson.workflow).toStrictEqual(fromYaml.workflow);
    expect(fromJson.warnings).toStrictEqual(fromYaml.warnings);
  });

  it("is detected as agent2model and satisfies the invariants", () => {
    expect(detectAgent2Model(canonical(name))).toBe(true);
    expect(detectFormat(canonical(name))?.id).toBe("agent2model");
    expect(checkAgent2ModelInvariants(canonical(name))).toEqual([]);
  });
});

/** A small flowchart in the YAML form, and the same in the canonical form. */
function yamlForm(): Obj {
  return {
    name: "desk",
    description: "A help desk.",
    start: "greet",
    nodes: {
      greet: { role: "agent", prompt: "Greet.", next: ["ask"] },
      ask: { role: "user", prompt: "Ask for help.", next: [{ to: "route" }] },
      route: {
        role: "decision",
        next: [{ to: "done", when: "the user is helped" }, { to: "greet" }],
      },
      done: { terminal: "success" },
    },
    scenario_variables: { moods: ["calm", "angry"] },
  };
}

function canonicalForm(): Obj & { nodes: Record<string, Obj> } {
  return {
    name: "desk",
    description: "A help desk.",
    start: "greet",
    nodes: {
      greet: {
        role: "agent",
        prompt: "Greet.",
        next: [{ to: "ask", when: null }],
        terminal: null,
      },
      ask: {
        role: "user",
        prompt: "Ask for help.",
        next: [{ to: "route", when: null }],
        terminal: null,
      },
      route: {
        role: "decision",
        prompt: null,
        next: [
          { to: "done", when: "the user is helped" },
          { to: "greet", when: null },
        ],
        terminal: null,
      },
      done: { role: null, prompt: null, next: [], terminal: "success" },
    },
    scenario_variables: { moods: ["calm", "angry"] },
  };
}

describe("null (or the pydantic default) means absent", () => {
  it("the canonical form of a flowchart imports as its YAML form", () => {
    expect(importAgent2Model(canonicalForm())).toStrictEqual(importAgent2Model(yamlForm()));
  });

  const withoutTop = (key: string): Obj => {
    return Object.fromEntries(Object.entries(yamlForm()).filter(([k]) => k !== key));
  };
  it.each([
    ["description: null", { ...yamlForm(), description: null }, withoutTop("description")],
    [
      'description: "" (the default)',
      { ...yamlForm(), description: "" },
      withoutTop("description"),
    ],
    [
      "scenario_variables: null",
      { ...yamlForm(), scenario_variables: null },
      withoutTop("scenario_variables"),
    ],
    [
      "scenario_variables: {} (the default)",
      { ...yamlForm(), scenario_variables: {} },
      withoutTop("scenario_variables"),
    ],
  ])("%s", (_what, doc, same) => {
    expect(importAgent2Model(doc)).toStrictEqual(importAgent2Model(same));
  });

  const node = (id: string, value: Obj): Obj => {
    const doc = yamlForm() as Obj & { nodes: Obj };
    return { ...doc, nodes: { ...doc.nodes, [id]: value } };
  };
  it.each([
    [
      "terminal: null on an agent",
      "greet",
      { role: "agent", prompt: "Greet.", next: ["ask"], terminal: null },
    ],
    [
      "prompt: null on a decision",
      "route",
      {
        role: "decision",
        prompt: null,
        next: [{ to: "done", when: "the user is helped" }, { to: "greet" }],
      },
    ],
    [
      "when: null on an edge",
      "ask",
      { role: "user", prompt: "Ask for help.", next: [{ to: "route", when: null }] },
    ],
    [
      "role, prompt null and next [] on a terminal",
      "done",
      { role: null, prompt: null, next: [], terminal: "success" },
    ],
    ["next: null on a terminal", "done", { next: null, terminal: "success" }],
  ])("%s", (_what, id, value) => {
    expect(importAgent2Model(node(id, value))).toStrictEqual(importAgent2Model(yamlForm()));
  });

  it("an edge with when: null is unconditional (no label, the default condition)", () => {
    const { workflow } = importAgent2Model(canonicalForm());
    expect(workflow.edges.find((e) => e.from === "ask")).toStrictEqual({
      from: "ask",
      to: "route",
      edgeType: "data",
    });
  });

  it.each([
    ["name: null", { ...yamlForm(), name: null }, "/name", undefined],
    ["start: null", { ...yamlForm(), start: null }, "/start", undefined],
    ["a node that is null", node("greet", null as unknown as Obj), "/nodes/greet", "greet"],
    [
      "an edge to null",
      node("ask", { role: "user", prompt: "Ask.", next: [{ to: null, when: null }] }),
      "/nodes/ask/next/0/to",
      "ask",
    ],
    [
      "role and terminal both null",
      node("greet", { role: null, prompt: "Greet.", next: ["ask"], terminal: null }),
      "/nodes/greet/role",
      "greet",
    ],
    [
      "a terminal that still has an edge",
      node("done", {
        role: null,
        prompt: null,
        next: [{ to: "greet", when: null }],
        terminal: "success",
      }),
      "/nodes/done/next",
      "done",
    ],
    [
      "an agent without prompt (null)",
      node("greet", { role: "agent", prompt: null, next: ["ask"], terminal: null }),
      "/nodes/greet/prompt",
      "greet",
    ],
  ])("a required field stays required: %s", (_what, doc, path, elementId) => {
    let caught: unknown;
    try {
      importAgent2Model(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect([(caught as ImportError).path, (caught as ImportError).elementId]).toEqual([
      path,
      elementId,
    ]);
  });

  it("an unknown key is still declared when it holds null", () => {
    const { warnings } = importAgent2Model(
      node("greet", { role: "agent", prompt: "Greet.", next: ["ask"], extra: null }),
    );
    expect(warnings.filter((w) => w.code === "FIELD_DROPPED")).toEqual([
      {
        code: "FIELD_DROPPED",
        message: "key 'extra' of node 'greet' is not in the IR",
        path: "/nodes/greet/extra",
        data: { key: "extra" },
      },
    ]);
  });

  it("the invariants read the canonical form as the YAML form", () => {
    expect(checkAgent2ModelInvariants(canonicalForm())).toEqual([]);
  });
});
