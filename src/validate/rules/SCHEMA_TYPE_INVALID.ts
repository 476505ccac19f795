import { escapePointerToken, NODE_KIND, pointer, pointerTokens } from "../../model/index.js";
import type { DiagnosticTarget, SchemaShape, ShapeProblem } from "../../model/index.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/** One shape the rule checks, in document order. */
interface Section {
  readonly base: string;
  readonly shape: SchemaShape;
  readonly target: DiagnosticTarget;
}

const WORKFLOW: DiagnosticTarget = { kind: "workflow" };

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A field type that cannot be enforced: a type expression that does not parse, an unknown or
 * recursive type, an invalid JSON Schema, or an expansion too large to compile. Such a field
 * silently degrades to `any`, so the contract it was meant to state is never checked.
 *
 * Problems inside a named type are located at that type's own field (`/types/Plan/work`), so
 * every shape using the type yields the same problem: each is reported once, and reports come
 * in document order of their paths, whichever shape revealed them.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "SCHEMA_TYPE_INVALID",
    defaultSeverity: "error",
    description: "A field type does not parse, is unknown or recursive, or is not a valid schema",
    docs: "docs/rules/SCHEMA_TYPE_INVALID.md",
    messages: {
      default: 'field "{{field}}" at {{path}} has an unusable type ({{reason}}): {{detail}}',
    },
    remediation:
      "use a primitive (text, number, bool, ...), a type declared under types, T[] or a valid " +
      "JSON Schema; break recursive types by referring to an id instead of nesting the type",
  },
  check(context) {
    // `report` is a method of the context, so it is called on it rather than destructured.
    const { workflow, facts } = context;
    const sections: Section[] = [
      { base: pointer("inputSchema"), shape: workflow.inputSchema, target: WORKFLOW },
      { base: pointer("outputSchema"), shape: workflow.outputSchema, target: WORKFLOW },
    ];
    const types: unknown = workflow.types;
    if (isRecord(types)) {
      for (const [name, shape] of Object.entries(types)) {
        sections.push({
          base: pointer("types", name),
          shape: shape as SchemaShape,
          target: WORKFLOW,
        });
      }
    }
    const { kind } = context.graph;
    workflow.nodes.forEach((node, i) => {
      if (kind[i] !== NODE_KIND.llm) return;
      if (node.type !== "llm" || node.config.outputSchema === undefined) return;
      sections.push({
        base: pointer("nodes", i, "config", "outputSchema"),
        shape: node.config.outputSchema,
        target: { kind: "node", nodeId: node.id },
      });
    });

    const seen = new Set<string>();
    const found: ShapeProblem[] = [];
    for (const section of sections) {
      for (const problem of facts.shape(section.shape, section.base).problems) {
        const key = `${problem.path}\u0000${problem.reason}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push(problem);
      }
    }
    if (found.length === 0) return;

    // Rank every place a problem can point at (a shape, or one of its fields) in document order;
    // only when there is a problem: a shape may have 100,000 fields.
    const rank = new Map<string, { readonly order: number; readonly section: Section }>();
    for (const section of sections) {
      rank.set(section.base, { order: rank.size, section });
      if (!isRecord(section.shape)) continue;
      for (const key of Object.keys(section.shape)) {
        rank.set(`${section.base}/${escapePointerToken(key)}`, { order: rank.size, section });
      }
    }

    // Stable: problems at the same field keep the order the model found them in.
    const orderOf = (p: ShapeProblem): number => rank.get(p.path)?.order ?? Number.MAX_SAFE_INTEGER;
    found.sort((a, b) => orderOf(a) - orderOf(b));

    for (const problem of found) {
      const section = rank.get(problem.path)?.section;
      const target = section?.target ?? WORKFLOW;
      context.report({
        target,
        path: problem.path,
        data: {
          ...(target.kind === "node" ? { nodeId: target.nodeId } : {}),
          path: problem.path,
          shape: section?.base ?? problem.path,
          field: pointerTokens(problem.path).at(-1) ?? "",
          reason: problem.reason,
          detail: problem.message,
          ...(problem.typeName === undefined ? {} : { typeName: problem.typeName }),
          ...(problem.cycle === undefined ? {} : { cycle: problem.cycle }),
          ...(problem.offset === undefined ? {} : { offset: problem.offset }),
        },
      });
    }
  },
});
