/**
 * Output names for CONDITION_UNKNOWN_FIELD: what each node declares it adds to `output`, and the
 * top-level fields the conditions read.
 */
import type { AgentWorkflow } from "../model/index.js";
import { shapeNames, topField } from "../model/internal.js";
import type { DecisionCondition, Facts } from "./types.js";
import { perNode } from "./facts.js";

/** The shape node `i` declares for `output`: `null` for a decision, `undefined` if unknown. */
function declaredShape(wf: AgentWorkflow, facts: Facts, i: number): unknown {
  const node = wf.nodes[i];
  if (node === undefined) return undefined;
  if (node.type === "decision") return null;
  if (node.type === "llm") return node.config.outputSchema;
  const ref = facts.nodeRefs()[i];
  const contract = ref?.ok === true ? facts.resolved.tools.get(ref.canonical) : undefined;
  return contract?.status === "resolved" ? contract.value.outputSchema : undefined;
}

/** What each node adds to `output`: the names it declares, `undefined` if unknown, `null` if none. */
export function produced(wf: AgentWorkflow, facts: Facts): (string[] | null | undefined)[] {
  return perNode(wf.nodes.length, (i) => {
    const shape = declaredShape(wf, facts, i);
    return shape === null ? null : shapeNames(shape);
  });
}

/**
 * Whether some node declares its output ({@link produced} would hold a list): asked first, so
 * that most workflows build no per-node list at all.
 */
export function anyDeclared(wf: AgentWorkflow, facts: Facts): boolean {
  for (let i = 0; i < wf.nodes.length; i++) {
    const shape = declaredShape(wf, facts, i);
    if (typeof shape === "object" && shape !== null && !Array.isArray(shape)) return true;
  }
  return false;
}

/**
 * The top-level fields (by {@link topField}) the conditions read, in order of first reading.
 * Index loops, not flat/flatMap or for-of: a decision may have 100,000 cases, each with an array
 * of fields, and this runs once per validation, too rarely for the optimiser to remove the
 * iterators' result per step.
 */
export function fieldsRead(
  conditions: readonly (readonly DecisionCondition[])[],
): Set<string | undefined> {
  const read = new Set<string | undefined>();
  // Consecutive conditions mostly read the same name (the cases of a wide decision share one
  // analysis): its field is cut out once, not once per case.
  let name: string | undefined;
  let field: string | undefined;
  /* eslint-disable @typescript-eslint/prefer-for-of -- see above */
  for (let i = 0; i < conditions.length; i++) {
    const list = conditions[i] ?? [];
    for (let k = 0; k < list.length; k++) {
      const fields = list[k]?.analysis.fields ?? [];
      for (let f = 0; f < fields.length; f++) {
        const next = fields[f] ?? "";
        if (next !== name) {
          name = next;
          field = topField(next);
        }
        read.add(field);
      }
    }
  }
  /* eslint-enable @typescript-eslint/prefer-for-of */
  return read;
}
