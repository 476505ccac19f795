/**
 * The placeholders of a pack rule's `message` and `remediation` (`{{element.name}}`) must name a
 * fact of the rule's subject (or the rule's own `ruleId` and `pack`): a misspelt one would show
 * as `{{elemnt.name}}` in every finding, which a compliance team reads as a broken tool.
 */
import type { PolicySubject } from "./facts.js";
import type { FactType } from "./fact-types.js";
import { fieldNames, fieldOf, SUBJECT_TYPES } from "./fact-types.js";
import { EXTRA_DATA, TOOL_DATA } from "./messages.js";

/** The placeholder names of a template, as `interpolate` splits it (trimmed). */
function placeholders(template: string): string[] {
  const names: string[] = [];
  let i = 0;
  for (;;) {
    const open = template.indexOf("{{", i);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    if (close < 0) break;
    names.push(template.slice(open + 2, close).trim());
    i = close + 2;
  }
  return names;
}

/** Why a dotted name names no fact, or `undefined` when it does. */
function problemOf(name: string, subject: PolicySubject): string | undefined {
  const root = SUBJECT_TYPES[subject];
  const [first = "", ...rest] = name.split(".");
  const extra = subject === "tool" ? [...EXTRA_DATA, TOOL_DATA] : EXTRA_DATA;
  if (rest.length === 0 && extra.includes(first)) return undefined;
  const field = fieldOf(root, first);
  if (field === undefined) {
    const names = `${fieldNames(root)}, ${extra.join(", ")}`;
    return `placeholder '{{${name}}}' names no fact (facts of ${subject}: ${names})`;
  }
  let type: FactType = field.type;
  let path = first;
  for (const step of rest) {
    if (type.kind === "map") {
      if (type.keys !== undefined && !type.keys.pattern.test(step)) {
        return `placeholder '{{${name}}}' names no fact (the keys of ${path} are each ${type.keys.words})`;
      }
      type = type.value;
    } else if (type.kind === "object") {
      const next = fieldOf(type, step);
      if (next === undefined) {
        return `placeholder '{{${name}}}' names no fact (fields of ${path}: ${fieldNames(type)})`;
      }
      type = next.type;
    } else if (type.kind === "list") {
      return `placeholder '{{${name}}}': '${path}' is a list; a placeholder can show it whole, not a field of its items`;
    } else {
      return `placeholder '{{${name}}}': '${path}' has no fields`;
    }
    path = `${path}.${step}`;
  }
  return undefined;
}

/** Why the placeholders of `template` do not all name facts of `subject` (empty when they do). */
export function placeholderProblems(template: string, subject: PolicySubject): string[] {
  const out: string[] = [];
  for (const name of placeholders(template)) {
    const problem = problemOf(name, subject);
    if (problem !== undefined && !out.includes(problem)) out.push(problem);
  }
  return out;
}
