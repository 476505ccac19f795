/**
 * Rendering types for messages (`WorkItem[1..6]`, `{style: Findings, accuracy: Findings}`).
 */
import type { TypeNode } from "./type-expr.js";

/** Beyond this object depth {@link formatType} abbreviates, so messages stay short. */
const FORMAT_DEPTH = 6;
/** Beyond this nesting anything is abbreviated; parsed expressions never get that deep. */
const MAX_NESTING = 64;

function format(type: TypeNode, depth: number): string {
  if (depth > MAX_NESTING) return "…";
  switch (type.kind) {
    case "primitive":
      return type.name;
    case "any":
      return "any";
    case "member":
      return `member<${type.team}>`;
    case "named":
      return type.name;
    case "schema":
      return "schema";
    case "array": {
      const bounds =
        type.minItems !== undefined && type.maxItems !== undefined
          ? `${type.minItems}..${type.maxItems}`
          : "";
      return `${format(type.element, depth + 1)}[${bounds}]`;
    }
    case "object": {
      if (type.typeName !== undefined) return type.typeName;
      if (depth >= FORMAT_DEPTH) return "{…}";
      const fields = type.fields.map(
        (f) => `${f.name}${f.optional ? "?" : ""}: ${format(f.type, depth + 1)}`,
      );
      return `{${fields.join(", ")}}`;
    }
  }
}

/**
 * Renders a type for messages. Expression types (primitives, members, references, arrays) come
 * back as text that `parseTypeExpression` reads to the same node; inlined objects print
 * their declaration name, anonymous ones their fields.
 *
 * @example
 * ```ts
 * import { formatType, parseTypeExpression, resolveShape } from "agentflow/model";
 *
 * const parsed = parseTypeExpression("member<engineering>[1..6]");
 * if (!parsed.ok) throw new Error(parsed.error.message);
 * formatType(parsed.type); // → "member<engineering>[1..6]"
 *
 * const types = { Clause: { title: "text", "risk?": "number" } };
 * const { type } = resolveShape({ clauses: "Clause[]", note: { type: "string" } }, types, "");
 * formatType(type); // → "{clauses: Clause[], note: text}"
 * ```
 */
export function formatType(type: TypeNode): string {
  return format(type, 0);
}
