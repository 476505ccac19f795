/**
 * The wording of every parsing diagnostic, in one place. Callers act on `code`, `path` and
 * `data`; these sentences are for people.
 */

/** What a structural message is built from. */
export interface StructureMessageInput {
  readonly keyword: string;
  readonly path: string;
  readonly documentKind: string;
  readonly data: Readonly<Record<string, unknown>>;
}

const ARTICLE: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

function quoteList(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(", ") : String(values);
}

function describeNames(names: readonly unknown[]): string {
  return names.map((n) => ARTICLE[String(n)] ?? String(n)).join(" or ");
}

/** Descriptions of Ajv's type names: a schema has a handful, a document can have 100,000 errors. */
const TYPE_DESCRIPTIONS = new Map<string, string>();

function describeType(expected: unknown): string {
  if (typeof expected !== "string") {
    return describeNames(Array.isArray(expected) ? expected : String(expected).split(","));
  }
  let described = TYPE_DESCRIPTIONS.get(expected);
  if (described === undefined) {
    described = describeNames(expected.split(","));
    // Bounded, whatever schema a caller brings.
    if (TYPE_DESCRIPTIONS.size < 64) TYPE_DESCRIPTIONS.set(expected, described);
  }
  return described;
}

/** The sentence for one structural problem. */
export function parseMessage(input: StructureMessageInput): string {
  const { keyword, data } = input;
  const at = input.path === "" ? `the ${input.documentKind}` : input.path;
  const actual = String(data.actual);
  switch (keyword) {
    case "required":
      return `${at}: required property is missing`;
    case "additionalProperties":
      return `${at}: unknown property, kept but not used by agentflow`;
    case "type":
      return `${at}: must be ${describeType(data.expected)}, found ${ARTICLE[actual] ?? actual}`;
    case "enum":
      return `${at}: must be one of ${quoteList(data.expected)}`;
    case "const":
      return `${at}: must be ${JSON.stringify(data.expected)}`;
    case "minimum":
      return `${at}: must be at least ${String(data.limit)}`;
    case "maximum":
      return `${at}: must be at most ${String(data.limit)}`;
    case "minLength":
      return `${at}: must not be empty`;
    case "minItems":
      return `${at}: must have at least ${String(data.limit)} item(s)`;
    case "pattern":
      return `${at}: is not a valid id (start with a letter; then letters, digits, '.', '_', ':' or '-')`;
    default:
      return `${at}: does not match the ${input.documentKind} schema (${keyword})`;
  }
}

/** The sentence that counts the structural errors a document does not list. */
export function tooManyErrorsMessage(documentKind: string, count: number, limit: number): string {
  return `the ${documentKind}: ${String(count)} more structural errors, not listed (a document lists at most ${String(limit)})`;
}

/** The sentence for a document that is not what was expected at all. */
export function notAnObjectMessage(documentKind: string, actual: string): string {
  return `the ${documentKind} must be a JSON object, found ${ARTICLE[actual] ?? actual}`;
}

/** The sentence for an abbreviated workflow version that was normalised. */
export function versionAbbreviatedMessage(written: string, normalised: string): string {
  return `version "${written}" is abbreviated; read as "${normalised}"`;
}

/** The sentence for a workflow version that is not an exact semantic version. */
export function versionInvalidMessage(reason: string): string {
  return `version: ${reason}`;
}

/** The sentence for a validator that failed internally on a value it could not read. */
export function unreadableMessage(documentKind: string, detail: string): string {
  return `the ${documentKind} could not be read: ${detail}`;
}
