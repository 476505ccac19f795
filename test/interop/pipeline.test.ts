/**
 * The one import pipeline every format runs: build → finish (the model's parser) → check, one
 * ImportError carrying the format, and the one id mapper over any kind of key.
 */
import { describe, expect, it } from "vitest";
import { entryIds, mapIds } from "../../src/interop/ids.js";
import { ImportError } from "../../src/interop/index.js";
import type { Draft } from "../../src/interop/pipeline.js";
import { defineImport } from "../../src/interop/pipeline.js";
import { refusal } from "../../src/interop/types.js";
import { guessed } from "../../src/interop/warnings.js";

const fail = refusal("test-format");

/** A valid draft: one structured llm node. */
function draft(config: Record<string, unknown> = {}): Draft {
  return {
    kind: "AgentWorkflow",
    id: "agnt-t",
    version: "1.0.0",
    name: "T",
    autonomyLevel: 5,
    inputSchema: { q: "text" },
    outputSchema: { a: "text" },
    nodes: [
      {
        id: "a",
        type: "llm",
        config: { model: "m", promptRef: "prm:p@1.0.0", structuredOutput: true, ...config },
      },
    ],
    edges: [],
  };
}

function thrown(run: () => unknown): ImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("defineImport", () => {
  it("returns the parsed workflow at its justified level, with the build's warnings in order", () => {
    const run = defineImport({
      format: "test-format",
      build: (_doc, warnings) => {
        warnings.push(guessed("/x", "x was guessed", { assumed: 1 }));
        return { draft: draft() };
      },
      check: (wf, warnings) => warnings.push(guessed("", `checked ${wf.id}`)),
    });
    const { workflow, warnings } = run({});
    expect(workflow.autonomyLevel).toBe(1);
    expect(warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      ["HEURISTIC", "/x", "x was guessed"],
      ["HEURISTIC", "", "checked agnt-t"],
    ]);
  });

  it("passes a format's refusal through, and wraps anything else with the format and cause", () => {
    const refused = thrown(() =>
      defineImport({
        format: "test-format",
        build: () => {
          throw fail("/nodes/0", "no", "a");
        },
      })({}),
    );
    expect(refused).toMatchObject({ format: "test-format", path: "/nodes/0", elementId: "a" });
    const boom = new TypeError("boom");
    const wrapped = thrown(() =>
      defineImport({
        format: "test-format",
        build: () => {
          throw boom;
        },
      })({}),
    );
    expect(wrapped).toMatchObject({
      name: "ImportError",
      format: "test-format",
      path: "",
      reason: "unexpected failure: boom",
    });
    expect(wrapped.cause).toBe(boom);
  });

  it("refuses a draft the model does not parse: at the root, or where the format points", () => {
    const bad = { draft: draft({ temperature: 9 }) };
    const atRoot = thrown(() => defineImport({ format: "f", build: () => bad })({}));
    expect(atRoot.path).toBe("");
    expect(atRoot.reason).toMatch(/^the mapped workflow does not parse: /);
    const pointed = thrown(() =>
      defineImport({
        format: "f",
        build: () => ({ ...bad, refuse: (d) => fail(`/source${d.path}`, d.message) }),
      })({}),
    );
    expect(pointed.path).toBe("/source/nodes/0/config/temperature");
  });

  it("blocks on what `blocks` names, and drops unknown properties where asked", () => {
    const extra = () => ({ draft: draft({ colour: "red" }) });
    // by default a warning (an unknown property) passes
    expect(defineImport({ format: "f", build: extra })({}).workflow.nodes).toHaveLength(1);
    expect(
      thrown(() => defineImport({ format: "f", build: extra, blocks: () => true })({})).path,
    ).toBe("");
    const dropping = defineImport({
      format: "f",
      build: extra,
      dropUnknownAt: (path) => `/src${path}`,
    })({});
    expect(dropping.workflow.nodes[0]?.config).not.toHaveProperty("colour");
    expect(dropping.warnings).toEqual([
      {
        code: "FIELD_DROPPED",
        message: "'colour' is not a field of the agentflow model",
        path: "/src/nodes/0/config/colour",
        data: { key: "colour" },
      },
    ]);
  });
});

describe("the one id mapper over any key", () => {
  it("keeps valid names first, never keeps a number or `end`, and tells keys apart", () => {
    const a = { name: "node-7" };
    const b = { name: 7 };
    const c = { name: "node-7" };
    const d = { name: "end" };
    const ids = mapIds([b, a, c, d], "n-", (k) => k.name);
    expect([ids.get(a), ids.get(b), ids.get(c), ids.get(d)]).toEqual([
      "node-7",
      "node-7-2",
      "node-7-3",
      "end-2",
    ]);
  });

  it("reads the names of a source array's entries, skipping what is not a named object", () => {
    const ids = entryIds([{ id: "write_draft" }, { id: "" }, 3, { id: "fetch data" }], "id", "n-");
    expect([...ids]).toEqual([
      ["write_draft", "write_draft"],
      ["fetch data", "fetch-data"],
    ]);
  });
});
