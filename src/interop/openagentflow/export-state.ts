/**
 * The workflow's schemas back to `state.variables`: input fields first (a required one gets
 * `@required`), then output fields not already declared, then the fields of each llm node's
 * `outputSchema` not already declared (what a decision after it reads, and the agent's
 * `outputs`: OAF state is every value agents share). A field type with no descriptor is left out
 * and declared.
 */
import type { AgentWorkflow, FieldType } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { ExportWarnings } from "../warnings.js";
import type { OafVariable } from "./ir-types.js";
import { descriptorOf } from "./type-descriptor.js";
import { omitted } from "../warnings.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables of a workflow, in schema order, and the names declared. */
export function exportVariables(wf: AgentWorkflow, warnings: ExportWarnings): OafVariable[] {
  const variables: OafVariable[] = [];
  const seen = new Set<string>();
  const add = (
    schema: "inputSchema" | "outputSchema" | "node",
    path: string,
    key: string,
    type: FieldType,
  ): void => {
    const optional = key.endsWith("?");
    const name = optional ? key.slice(0, -1) : key;
    if (seen.has(name)) return;
    const descriptor = descriptorOf(type);
    if (!NAME.test(name) || descriptor === undefined) {
      warnings.add("schema field", () =>
        omitted(
          path,
          `field '${key}' left out: ${descriptor === undefined ? "its type has no OAF type descriptor" : "its name is not an OAF identifier"}`,
          { key },
        ),
      );
      return;
    }
    seen.add(name);
    const required = schema === "inputSchema" && !optional;
    if (schema === "outputSchema" && !optional) {
      warnings.add("required output", () =>
        omitted(
          path,
          `output field '${key}' is written as a plain variable: OAF state has no required outputs`,
          { key },
        ),
      );
    }
    variables.push({
      name,
      type: descriptor,
      options: required ? [{ name: "required", args: [] }] : [],
    });
  };
  for (const [key, type] of Object.entries(wf.inputSchema))
    add("inputSchema", pointer("inputSchema", key), key, type);
  for (const [key, type] of Object.entries(wf.outputSchema))
    add("outputSchema", pointer("outputSchema", key), key, type);
  wf.nodes.forEach((node, i) => {
    if (node.type !== "llm") return;
    for (const [key, type] of Object.entries(node.config.outputSchema ?? {}))
      add("node", pointer("nodes", i, "config", "outputSchema", key), key, type);
  });
  return variables;
}
