/** langgraph-gen export: a router's cases that quote the spec's spelling of a renamed node. */
import { describe, expect, it } from "vitest";
import { exportLangGraphGen, importLangGraphGen } from "../../src/interop/langgraph-gen/index.js";
import { codes, readFixture } from "./helpers.js";

describe("exportLangGraphGen: router names of cases quoting a renamed node", () => {
  it.each([
    {
      name: "langgraph-gen's own sample_01 (paths 'Node 2', 'Node 3' read as Node-2, Node-3)",
      spec: readFixture("langgraph-gen/sample_01.yml"),
      from: "Node 1",
      condition: "conditional_edge",
      paths: ["Node 2", "Node 3"],
    },
    {
      name: "a renamed first path, a kept second one",
      spec: {
        name: "g",
        entrypoint: "a",
        nodes: [{ name: "a" }, { name: "fetch data" }, { name: "done" }],
        edges: [
          { from: "a", condition: "pick", paths: ["fetch data", "done"] },
          { from: "fetch data", to: "__end__" },
          { from: "done", to: "__end__" },
        ],
      },
      from: "a",
      condition: "pick",
      paths: ["fetch data", "done"],
    },
    {
      name: "a renamed node among three paths, the end among them",
      spec: {
        name: "g",
        entrypoint: "a",
        nodes: [{ name: "a" }, { name: "b" }, { name: "x y" }],
        edges: [
          { from: "a", condition: "choose", paths: ["b", "x y", "__end__"] },
          { from: "b", to: "__end__" },
          { from: "x y", to: "__end__" },
        ],
      },
      from: "a",
      condition: "choose",
      paths: ["b", "x y", "__end__"],
    },
  ])("$name: keeps the router's name; the round trip is deep-equal", (c) => {
    const first = importLangGraphGen(c.spec).workflow;
    const { document, warnings } = exportLangGraphGen(first);
    expect(document.edges).toContainEqual({ from: c.from, condition: c.condition, paths: c.paths });
    expect(codes(warnings)).toEqual([["NOT_EXPORTABLE", "/autonomyLevel"]]);
    expect(importLangGraphGen(document).workflow).toStrictEqual(first);
  });
});
