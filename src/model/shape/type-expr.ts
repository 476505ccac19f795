/**
 * The type language (SPEC 2.4): the AST every schema, contract and assignability check shares,
 * and a linear, hand-written parser for type-expression strings such as `WorkItem[1..6]`.
 *
 * The parser never backtracks and never recurses: the grammar has no recursive production (a
 * `member<…>` holds a bare identifier), and array suffixes are folded in a loop, so adversarial
 * input costs O(n) time and constant stack.
 */
import type { JsonSchemaField } from "../types.js";

/**
 * Primitive names after alias folding. `integer` stays distinct from `number` so that it compiles
 * to `{"type":"integer"}` and so that `number` is not assignable to it.
 */
export type PrimitiveName = "text" | "number" | "integer" | "bool" | "path" | "duration";

/** A primitive: `text`, `number`, `integer`, `bool`, `path` or `duration` (milliseconds). */
export interface PrimitiveTypeNode {
  readonly kind: "primitive";
  readonly name: PrimitiveName;
}

/** `any`: accepts every value and is assignable both ways with every type. */
export interface AnyTypeNode {
  readonly kind: "any";
}

/** `member<Team>`: a member id of the team bound to that alias. */
export interface MemberTypeNode {
  readonly kind: "member";
  readonly team: string;
}

/**
 * A reference to a type declared in the workflow's `types`. It only appears before resolution:
 * `resolveShape` inlines every reference it can resolve.
 */
export interface NamedTypeNode {
  readonly kind: "named";
  readonly name: string;
}

/** `T[]` or `T[min..max]`. Bounds are runtime constraints; assignability ignores them. */
export interface ArrayTypeNode {
  readonly kind: "array";
  readonly element: TypeNode;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** One field of an object type, with the `?` marker already folded into `optional`. */
export interface ObjectField {
  readonly name: string;
  readonly optional: boolean;
  readonly type: TypeNode;
}

/**
 * A structural object type. `typeName` remembers the declaration an inlined named type came from,
 * so that messages can say `Evidence` instead of spelling out its fields.
 */
export interface ObjectTypeNode {
  readonly kind: "object";
  readonly fields: readonly ObjectField[];
  readonly typeName?: string;
}

/**
 * A JSON Schema field whose structure could not be converted faithfully (`anyOf`, `$ref`, a type
 * list…). Statically it behaves like `any`; at run time the schema itself is enforced.
 */
export interface SchemaTypeNode {
  readonly kind: "schema";
  readonly schema: JsonSchemaField;
}

/** Every type the language can express. */
export type TypeNode =
  | PrimitiveTypeNode
  | AnyTypeNode
  | MemberTypeNode
  | NamedTypeNode
  | ArrayTypeNode
  | ObjectTypeNode
  | SchemaTypeNode;

/** Why a type expression was rejected; `offset` is a 0-based index into the expression. */
export interface TypeExpressionError {
  readonly message: string;
  readonly offset: number;
}

/** The outcome of {@link parseTypeExpression}: problems are data, never exceptions. */
export type TypeExpressionResult =
  | { readonly ok: true; readonly type: TypeNode }
  | { readonly ok: false; readonly error: TypeExpressionError };

/** Longer expressions are rejected before scanning, so no caller pays for pathological input. */
export const MAX_TYPE_EXPRESSION_LENGTH = 1000;

/** Deeper array nesting is rejected, which bounds every later walk over a parsed type. */
export const MAX_ARRAY_NESTING = 32;

const PRIMITIVES: ReadonlyMap<string, TypeNode> = new Map<string, TypeNode>([
  ["text", { kind: "primitive", name: "text" }],
  ["string", { kind: "primitive", name: "text" }],
  ["number", { kind: "primitive", name: "number" }],
  ["integer", { kind: "primitive", name: "integer" }],
  ["bool", { kind: "primitive", name: "bool" }],
  ["boolean", { kind: "primitive", name: "bool" }],
  ["path", { kind: "primitive", name: "path" }],
  ["duration", { kind: "primitive", name: "duration" }],
  ["any", { kind: "any" }],
]);

/**
 * Looks up a primitive or alias name (`string` → `text`, `boolean` → `bool`, `integer` kept).
 * Returns undefined for anything else, which is then a named-type reference.
 */
export function primitiveType(name: string): TypeNode | undefined {
  return PRIMITIVES.get(name);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdPart = (c: number): boolean => isIdStart(c) || isDigit(c);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
/** Characters some token may start with; anything else is reported as a bad character. */
const isKnown = (c: number): boolean =>
  isIdPart(c) || isSpace(c) || c === 60 || c === 62 || c === 91 || c === 93 || c === 46;

/** Unwinds the scanner to {@link parseTypeExpression}, which turns it back into data. */
class ParseFailure extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** A cursor over the expression; every method moves forward, which keeps parsing linear. */
class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  code(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  skipSpace(): void {
    while (isSpace(this.code())) this.pos += 1;
  }

  /** Quotes what is at the cursor for messages, whole code points included. */
  found(): string {
    if (this.pos >= this.text.length) return "the end of the expression";
    const point = this.text.codePointAt(this.pos) ?? 0;
    return JSON.stringify(String.fromCodePoint(point));
  }

  fail(expected: string): ParseFailure {
    const c = this.code();
    if (c !== -1 && !isKnown(c))
      return new ParseFailure(`unexpected character ${this.found()}`, this.pos);
    return new ParseFailure(`expected ${expected} but found ${this.found()}`, this.pos);
  }

  identifier(expected: string): string {
    this.skipSpace();
    const start = this.pos;
    if (!isIdStart(this.code())) throw this.fail(expected);
    while (isIdPart(this.code())) this.pos += 1;
    return this.text.slice(start, this.pos);
  }

  /** Reads a non-negative integer bound; `opener` is where the `[` was, for unclosed input. */
  bound(which: string, opener: number): number {
    this.skipSpace();
    const start = this.pos;
    const c = this.code();
    if (c === -1) throw new ParseFailure("unclosed '['", opener);
    if (c === 45) throw new ParseFailure("array bounds must be non-negative integers", start);
    if (!isDigit(c)) throw this.fail(`an integer ${which} bound`);
    while (isDigit(this.code())) this.pos += 1;
    const next = this.code();
    const fraction = next === 46 && isDigit(this.text.charCodeAt(this.pos + 1));
    if (fraction || isIdStart(next)) {
      throw new ParseFailure("array bounds must be non-negative integers", start);
    }
    const value = Number(this.text.slice(start, this.pos));
    if (!Number.isSafeInteger(value)) {
      throw new ParseFailure(`array bound ${this.text.slice(start, this.pos)} is too large`, start);
    }
    return value;
  }

  expect(char: string, opener: number, openerChar: string): void {
    this.skipSpace();
    if (this.code() === -1) throw new ParseFailure(`unclosed '${openerChar}'`, opener);
    if (this.text.startsWith(char, this.pos)) this.pos += char.length;
    else throw this.fail(`'${char}'`);
  }
}

function parsePrimary(s: Scanner): TypeNode {
  const name = s.identifier("a type name");
  const primitive = PRIMITIVES.get(name);
  if (primitive) return primitive;
  if (name === "member") {
    s.skipSpace();
    if (s.code() === 60) {
      const opener = s.pos;
      s.pos += 1;
      s.skipSpace();
      if (s.code() === -1) throw new ParseFailure("unclosed '<'", opener);
      const team = s.identifier("a team alias");
      s.expect(">", opener, "<");
      return { kind: "member", team };
    }
  }
  return { kind: "named", name };
}

function parseSuffix(s: Scanner, element: TypeNode): ArrayTypeNode {
  const opener = s.pos;
  s.pos += 1;
  s.skipSpace();
  if (s.code() === 93) {
    s.pos += 1;
    return { kind: "array", element };
  }
  const minStart = s.pos;
  const min = s.bound("lower", opener);
  s.expect("..", opener, "[");
  const max = s.bound("upper", opener);
  s.expect("]", opener, "[");
  if (min > max) {
    throw new ParseFailure(`lower bound ${min} is greater than upper bound ${max}`, minStart);
  }
  return { kind: "array", element, minItems: min, maxItems: max };
}

function parse(text: string): TypeNode {
  if (text.length > MAX_TYPE_EXPRESSION_LENGTH) {
    throw new ParseFailure(
      `type expression is longer than ${MAX_TYPE_EXPRESSION_LENGTH} characters`,
      MAX_TYPE_EXPRESSION_LENGTH,
    );
  }
  const s = new Scanner(text);
  s.skipSpace();
  if (s.code() === -1) throw new ParseFailure("type expression is empty", 0);
  let type = parsePrimary(s);
  let depth = 0;
  for (;;) {
    s.skipSpace();
    if (s.code() !== 91) break;
    depth += 1;
    if (depth > MAX_ARRAY_NESTING) {
      throw new ParseFailure(`arrays are nested deeper than ${MAX_ARRAY_NESTING} levels`, s.pos);
    }
    type = parseSuffix(s, type);
  }
  if (s.code() !== -1) {
    const c = s.code();
    if (!isKnown(c)) throw new ParseFailure(`unexpected character ${s.found()}`, s.pos);
    const rest = text.slice(s.pos, s.pos + 20);
    throw new ParseFailure(`unexpected ${JSON.stringify(rest)} after the type`, s.pos);
  }
  return type;
}

/**
 * Parses a type expression (`text`, `path[]`, `WorkItem[1..6]`, `member<engineering>[]`).
 * Named types are left as references; resolving them needs the workflow's `types`.
 *
 * @example
 * ```ts
 * import { parseTypeExpression } from "agentflow/model";
 *
 * parseTypeExpression("WorkItem"); // → { ok: true, type: { kind: "named", name: "WorkItem" } }
 * parseTypeExpression("text["); // → { ok: false, error: { message: "unclosed '['", offset: 4 } }
 *
 * const list = parseTypeExpression("text[1..6]");
 * if (!list.ok) throw new Error(list.error.message);
 * list.type; // → { kind: "array", element: { kind: "primitive", name: "text" }, minItems: 1, maxItems: 6 }
 * ```
 */
export function parseTypeExpression(text: string): TypeExpressionResult {
  try {
    return { ok: true, type: parse(text) };
  } catch (e) {
    if (e instanceof ParseFailure) {
      return { ok: false, error: { message: e.message, offset: e.offset } };
    }
    throw e;
  }
}
