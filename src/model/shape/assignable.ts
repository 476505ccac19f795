/**
 * Static assignability `S <: T` (SPEC 2.4, seed "Assignability"), used for delegate contracts and
 * tool params. It works on resolved types (see `resolveShape`).
 */
import type { ObjectField, PrimitiveName, TypeNode } from "./type-expr.js";

/**
 * Which primitives each primitive is assignable to. The seed's rule is "same name", plus
 * `number <: duration` and `duration <: number` (a duration is a number of milliseconds), plus
 * `integer <: number` (every integer is a number; the converse is not).
 *
 * `path` and `text` are deliberately NOT assignable to each other. The seed's table says `path`
 * compiles to a string and is "structurally text", which describes its runtime representation;
 * the assignability rule it states is still "same name", and it lists only number/duration as an
 * exception. Keeping them apart is what makes `path` useful: it marks values that become
 * permissions and write scopes, so free text must not flow into them unnoticed, and both
 * directions are treated alike rather than inventing a one-way rule the seed does not state.
 */
const PRIMITIVE_SUPERTYPES: ReadonlyMap<PrimitiveName, ReadonlySet<PrimitiveName>> = new Map([
  ["text", new Set<PrimitiveName>(["text"])],
  ["path", new Set<PrimitiveName>(["path"])],
  ["bool", new Set<PrimitiveName>(["bool"])],
  ["number", new Set<PrimitiveName>(["number", "duration"])],
  ["duration", new Set<PrimitiveName>(["duration", "number"])],
  ["integer", new Set<PrimitiveName>(["integer", "number", "duration"])],
]);

/** Where `S <: T` fails, for messages that name the field. */
export interface TypeMismatch {
  /** Field names from the root to the failing position; `[]` stands for an array element. */
  readonly path: readonly string[];
  /** The source type there, or undefined when a required target field is missing. */
  readonly source?: TypeNode;
  readonly target: TypeNode;
}

/**
 * `any`, JSON Schema types that could not be converted, and unresolved references (external
 * types) are unknown statically, so they are assignable both ways with anything.
 */
const isOpen = (type: TypeNode): boolean =>
  type.kind === "any" || type.kind === "schema" || type.kind === "named";

function fieldsByName(fields: readonly ObjectField[]): ReadonlyMap<string, ObjectField> {
  return new Map(fields.map((f) => [f.name, f]));
}

interface Pending {
  readonly s: TypeNode;
  readonly t: TypeNode;
  readonly path: readonly string[];
}

/**
 * The first position (depth-first, in field order) where `s` is not assignable to `t`, or
 * undefined when it is. Iterative, and each pair of nodes is compared once, so inlined types that
 * share structure cost their size, not their expansion.
 *
 * @example
 * ```ts
 * import { findMismatch, formatType, resolveShape } from "agentflow/model";
 *
 * const search = resolveShape({ query: "text", scope: "text" }, undefined, "/outputSchema").type;
 * const write = resolveShape({ query: "text", scope: "path" }, undefined, "/inputSchema").type;
 * // free text must not become a write scope
 * const mismatch = findMismatch(search, write);
 * mismatch?.path; // → ["scope"]
 * formatType(mismatch?.source ?? write); // → "text"
 * formatType(mismatch?.target ?? write); // → "path"
 * findMismatch(write, write); // → undefined
 * ```
 */
export function findMismatch(s: TypeNode, t: TypeNode): TypeMismatch | undefined {
  const stack: Pending[] = [{ s, t, path: [] }];
  const compared = new Map<TypeNode, Set<TypeNode>>();
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { s: source, t: target, path } = item;
    if (isOpen(source) || isOpen(target)) continue;
    const seen = compared.get(source) ?? new Set<TypeNode>();
    if (seen.has(target)) continue;
    seen.add(target);
    compared.set(source, seen);
    const mismatch: TypeMismatch = { path, source, target };
    switch (target.kind) {
      case "primitive":
        if (source.kind === "primitive") {
          if (PRIMITIVE_SUPERTYPES.get(source.name)?.has(target.name) !== true) return mismatch;
        } else if (!(source.kind === "member" && target.name === "text")) {
          return mismatch;
        }
        break;
      case "member":
        if (source.kind !== "member" || source.team !== target.team) return mismatch;
        break;
      case "array":
        // Bounds are runtime business (Ajv); statically only the elements are compared.
        if (source.kind !== "array") return mismatch;
        stack.push({ s: source.element, t: target.element, path: [...path, "[]"] });
        break;
      case "object": {
        if (source.kind !== "object") return mismatch;
        const available = fieldsByName(source.fields);
        const next: Pending[] = [];
        for (const field of target.fields) {
          const have = available.get(field.name);
          const fieldPath = [...path, field.name];
          if (have === undefined || (have.optional && !field.optional)) {
            if (field.optional) continue;
            return have === undefined
              ? { path: fieldPath, target: field.type }
              : { path: fieldPath, source: have.type, target: field.type };
          }
          next.push({ s: have.type, t: field.type, path: fieldPath });
        }
        // Reversed so that the first field is compared first.
        for (let i = next.length - 1; i >= 0; i -= 1) {
          const pending = next[i];
          if (pending !== undefined) stack.push(pending);
        }
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

/**
 * `S <: T` by the seed's rules: `any`, unconvertible JSON Schemas and external types both ways;
 * primitives by name with `integer <: number` and `number`/`duration` both ways (`path` and `text`
 * are distinct, as explained on the primitive table); `member<T> <: text` and `member<T> <:
 * member<T>` for the same alias only; arrays by element, bounds ignored; objects structurally
 * (every required field of T present and required in S with an assignable type, optional fields
 * of T assignable when S has them, extra fields of S allowed).
 *
 * @example
 * ```ts
 * import { isAssignable, parseTypeExpression, resolveShape } from "agentflow/model";
 *
 * const produced = resolveShape({ query: "text", limit: "integer" }, undefined, "").type;
 * const accepted = resolveShape({ query: "text", "limit?": "number" }, undefined, "").type;
 * // integer <: number, and a field the target marks optional may be required in the source
 * isAssignable(produced, accepted); // → true
 * // the other way round `limit` may be missing
 * isAssignable(accepted, produced); // → false
 *
 * const duration = parseTypeExpression("duration");
 * const number = parseTypeExpression("number");
 * if (!duration.ok || !number.ok) throw new Error("not a type");
 * isAssignable(duration.type, number.type); // → true
 * ```
 */
export function isAssignable(s: TypeNode, t: TypeNode): boolean {
  return findMismatch(s, t) === undefined;
}
