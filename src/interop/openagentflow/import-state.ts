/**
 * `state.variables` to the workflow's schemas. A variable an agent writes is a field of
 * `outputSchema` (optional: the IR does not say which outputs every run writes); a variable no
 * agent writes is a workflow input, and `@required` makes an input field required.
 */
import type { FieldType, SchemaShape } from "../../model/index.js";
import { pointer } from "../../model/index.js";
import type { InteropWarning } from "../types.js";
import { fail } from "./ir-types.js";
import type { At, Obj } from "./read.js";
import { dropUnknown, needArray, needItem, needString } from "./read.js";
import { fieldTypeOf, parseDescriptor, unsupportedMapKey } from "./type-descriptor.js";
import { dropped } from "../warnings.js";

const VARIABLE_KEYS = new Set(["name", "type", "options"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One variable, read: its field type and whether `@required` is set. */
export interface StateVariable {
  readonly name: string;
  readonly fieldType: FieldType;
  readonly required: boolean;
}

function readOptions(raw: Obj, at: At, name: string, warnings: InteropWarning[]): boolean {
  if (!Object.hasOwn(raw, "options")) return false;
  let required = false;
  needArray(raw, "options", at, name).forEach((item, j) => {
    const option = needItem(item, [...at, "options", j], `option ${j} of '${name}'`);
    const optionName = needString(option, "name", [...at, "options", j], name);
    if (optionName === "required") {
      required = true;
      return;
    }
    warnings.push(
      dropped(
        pointer(...at, "options", j),
        `variable '${name}': option '@${optionName}' has no agentflow form (outputs are merged by replacement)`,
        { variable: name, option: optionName },
      ),
    );
  });
  return required;
}

/** Reads `state.variables` in order; a descriptor the seed does not document fails loudly. */
export function readVariables(state: Obj, warnings: InteropWarning[]): readonly StateVariable[] {
  const seen = new Set<string>();
  return needArray(state, "variables", ["state"]).map((item, i) => {
    const at = ["state", "variables", i];
    const raw = needItem(item, at, `variable ${i}`);
    const name = needString(raw, "name", at);
    if (!NAME.test(name) || seen.has(name)) {
      throw fail(pointer(...at, "name"), `variable name '${name}' is not a fresh identifier`, name);
    }
    seen.add(name);
    dropUnknown(raw, VARIABLE_KEYS, at, `variable '${name}'`, warnings);
    const descriptor = needString(raw, "type", at, name);
    const type = parseDescriptor(descriptor);
    if (type === undefined || unsupportedMapKey(type)) {
      throw fail(
        pointer(...at, "type"),
        `type descriptor '${descriptor}' is not one the IR documents (string, int, float, bool, list<T>, map<string|int,V>)`,
        name,
      );
    }
    return { name, fieldType: fieldTypeOf(type), required: readOptions(raw, at, name, warnings) };
  });
}

/** The workflow's input and output schemas, from the variables and what the agents write. */
export function schemasOf(
  variables: readonly StateVariable[],
  written: ReadonlySet<string>,
): { inputSchema: SchemaShape; outputSchema: SchemaShape } {
  // Entries, not assignment: a variable named `__proto__` must stay an ordinary key.
  const inputs: [string, FieldType][] = [];
  const outputs: [string, FieldType][] = [];
  for (const v of variables) {
    if (v.required) inputs.push([v.name, v.fieldType]);
    else if (!written.has(v.name)) inputs.push([`${v.name}?`, v.fieldType]);
    if (written.has(v.name)) outputs.push([`${v.name}?`, v.fieldType]);
  }
  return { inputSchema: Object.fromEntries(inputs), outputSchema: Object.fromEntries(outputs) };
}
