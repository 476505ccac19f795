/**
 * fieldSource: a field of the job's variables as the engine builds it from the input mappings,
 * in order, through objects given as FEEL context literals; unknown (no `field`) where an object
 * that holds it is any other FEEL.
 */
import { describe, expect, it } from "vitest";
import { fieldSource } from "../../../src/bpmn/camunda/zeebe.js";

const FIELD = "data.tools.containerElementId";

describe("fieldSource", () => {
  it.each([
    ["the field itself", [[FIELD, "Tools"]], { input: FIELD, source: "Tools", field: "Tools" }],
    [
      "an entry of a context given to its object",
      [["data.tools", '={containerElementId: "Tools", toolCallResults: r}']],
      {
        input: "data.tools",
        source: '={containerElementId: "Tools", toolCallResults: r}',
        field: '="Tools"',
      },
    ],
    [
      "an entry of nested contexts given to a grandparent",
      [["data", "={tools: {containerElementId: toolsId}}"]],
      { input: "data", source: "={tools: {containerElementId: toolsId}}", field: "=toolsId" },
    ],
    [
      "an object given as other FEEL: the field is unknown",
      [["data.tools", "=config.tools"]],
      { input: "data.tools", source: "=config.tools" },
    ],
    [
      "a later mapping of the field over the object",
      [
        ["data.tools", "=config.tools"],
        [FIELD, "Tools"],
      ],
      { input: FIELD, source: "Tools", field: "Tools" },
    ],
    [
      "a later object over the field",
      [
        [FIELD, "Tools"],
        ["data.tools", '={containerElementId: "Other"}'],
      ],
      { input: "data.tools", source: '={containerElementId: "Other"}', field: '="Other"' },
    ],
  ] as const)("%s", (_label, mappings, expected) => {
    expect(fieldSource(mappings, FIELD)).toEqual(expected);
  });

  it.each([
    ["no mapping", []],
    ["a context without the field", [["data.tools", "={toolCallResults: r}"]]],
    ["an object given as static text", [["data.tools", "Tools"]]],
    ["an object given as a FEEL literal", [["data", "=null"]]],
    [
      "a later object without the field",
      [
        [FIELD, "Tools"],
        ["data", "={limits: {}}"],
      ],
    ],
    ["a sibling", [["data.toolsX", '={containerElementId: "Tools"}']]],
  ] as const)("%s gives no field", (_label, mappings) => {
    expect(fieldSource(mappings, FIELD)).toBeUndefined();
  });
});
