/**
 * parseWorkflowTextAsync, which the gate evaluation reads embedded snapshots with, gives what
 * parseWorkflowText gives: the workflow, its diagnostics with their positions, the format.
 */
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { parseWorkflowText } from "../../../src/model/index.js";
import { parseWorkflowTextAsync } from "../../../src/model/internal.js";
import { getTemplate } from "../../../src/model/index.js";

const research = getTemplate("research");

const TEXTS: readonly (readonly [string, string])[] = [
  ["a valid JSON workflow", JSON.stringify(research, null, 2)],
  ["a valid YAML workflow", stringify(research)],
  ["a YAML workflow with a wrong field", stringify({ ...research, autonomyLevel: 9 })],
  ["a JSON workflow with a duplicate key", '{ "kind": "AgentWorkflow", "kind": "x" }'],
  ["YAML that does not parse", "kind: [AgentWorkflow\n"],
];

describe("parseWorkflowTextAsync", () => {
  it.each(TEXTS)("parses %s as parseWorkflowText does", async (_name, text) => {
    const expected = parseWorkflowText(text);
    expect(await parseWorkflowTextAsync(text)).toEqual(expected);
  });

  it("places a YAML document's errors at their lines", async () => {
    const text = stringify({ ...research, autonomyLevel: 9 });
    const { workflow, diagnostics, format } = await parseWorkflowTextAsync(text);
    expect(format).toBe("yaml");
    expect(workflow).toBeUndefined();
    const line = text.split("\n").findIndex((l) => l.startsWith("autonomyLevel:")) + 1;
    expect(diagnostics.find((d) => d.path === "/autonomyLevel")?.location?.line).toBe(line);
  });

  it("takes a forced format", async () => {
    const { format, diagnostics } = await parseWorkflowTextAsync("{kind: AgentWorkflow}", {
      format: "yaml",
    });
    expect(format).toBe("yaml");
    expect(diagnostics.some((d) => d.code === "SYNTAX_ERROR")).toBe(false);
  });
});
