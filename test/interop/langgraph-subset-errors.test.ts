import { describe, expect, it } from "vitest";
import { ImportError, importLangGraph } from "../../src/interop/index.js";
import type { Obj } from "./helpers.js";
import { fixture, mutate } from "./helpers.js";

describe("importLangGraph: unmappable or malformed documents fail loudly", () => {
  const cases: [string, unknown, string, string | undefined][] = [
    ["an array", [], "", undefined],
    ["null", null, "", undefined],
    ["a string", "nodes", "", undefined],
    [
      "a native runnable node",
      mutate((d) => (d.nodes[0].type = "runnable")),
      "/nodes/0/type",
      "llm-1",
    ],
    ["a human node", mutate((d) => (d.nodes[1].type = "human")), "/nodes/1/type", "dec-1"],
    ["a node without type", mutate((d) => delete d.nodes[1].type), "/nodes/1/type", "dec-1"],
    [
      "a node type in another case",
      mutate((d) => (d.nodes[0].type = "LLM")),
      "/nodes/0/type",
      "llm-1",
    ],
    ["no id", mutate((d) => delete d.id), "/id", undefined],
    ["an id the model rejects", mutate((d) => (d.id = "1-bad")), "/id", undefined],
    ["no name", mutate((d) => delete d.name), "/name", undefined],
    ["no version", mutate((d) => delete d.version), "/version", undefined],
    ["a tag version", mutate((d) => (d.version = "latest")), "/version", undefined],
    ["a range version", mutate((d) => (d.version = "^1.0.0")), "/version", undefined],
    ["no input_schema", mutate((d) => delete d.input_schema), "/input_schema", undefined],
    [
      "a bad field type",
      mutate((d) => (d.output_schema = { a: 3 })),
      "/output_schema/a",
      undefined,
    ],
    ["nodes not an array", mutate((d) => (d.nodes = {} as never)), "/nodes", undefined],
    ["no edges", mutate((d) => delete (d as Obj).edges), "/edges", undefined],
    [
      "a node that is not an object",
      mutate((d) => (d.nodes[0] = 3 as never)),
      "/nodes/0",
      undefined,
    ],
    ["a node without id", mutate((d) => delete d.nodes[0].id), "/nodes/0/id", undefined],
    [
      "a node without data",
      mutate((d) => delete (d.nodes[0] as Obj).data),
      "/nodes/0/data",
      "llm-1",
    ],
    [
      "an llm without model",
      mutate((d) => delete d.nodes[0].data.model),
      "/nodes/0/data/model",
      "llm-1",
    ],
    [
      "a route without next",
      mutate((d) => delete d.nodes[1].data.onTrue.next),
      "/nodes/1/data/onTrue/next",
      "dec-1",
    ],
    [
      "an edge without source",
      mutate((d) => delete d.edges[0].source),
      "/edges/0/source",
      undefined,
    ],
    [
      "an edge with string data",
      mutate((d) => (d.edges[0].data = "x")),
      "/edges/0/data",
      undefined,
    ],
    [
      "an unknown edgeType",
      mutate((d) => (d.edges[0].data = { edgeType: "x" })),
      "/edges/0/data/edgeType",
      undefined,
    ],
    [
      "a numeric when",
      mutate((d) => (d.edges[0].data = { edgeType: "data", when: 1 })),
      "/edges/0/data/when",
      undefined,
    ],
  ];

  it.each(cases)("%s → %s", (_name, doc, path, elementId) => {
    let caught: unknown;
    try {
      importLangGraph(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    const error = caught as ImportError;
    expect(error.format).toBe("langgraph-subset");
    expect(error.name).toBe("ImportError");
    expect(error.path).toBe(path);
    expect(error.elementId).toBe(elementId);
    expect(error.reason.length).toBeGreaterThan(0);
    expect(error.message).toContain(error.reason);
  });

  it("speaks of the source, not of the workflow it was mapped to", () => {
    expect(() => importLangGraph(mutate((d) => delete d.nodes[0].data.model))).toThrow(
      expect.objectContaining({
        path: "/nodes/0/data/model",
        reason: expect.not.stringContaining("config") as unknown,
      }),
    );
  });

  it("names the offending node and its type in the reason", () => {
    expect(() => importLangGraph(mutate((d) => (d.nodes[1].type = "human")))).toThrow(
      /node 'dec-1' has type 'human'/,
    );
  });

  it("wraps an unexpected failure in an ImportError with the cause", () => {
    const boom = new Error("boom");
    const doc = { ...fixture() };
    Object.defineProperty(doc, "nodes", {
      enumerable: true,
      get() {
        throw boom;
      },
    });
    let caught: unknown;
    try {
      importLangGraph(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ImportError);
    expect(caught).toMatchObject({
      format: "langgraph-subset",
      reason: "unexpected failure: boom",
    });
    expect((caught as Error).cause).toBe(boom);
    expect((caught as ImportError).path).toBe("");
  });
});
