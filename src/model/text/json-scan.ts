/**
 * One linear, iterative JSON scanner shared by reading (duplicate keys, syntax error positions)
 * and locating (pointer → offset). It keeps its own stack, so nesting depth is bounded by memory,
 * not by the call stack, and it accepts exactly the grammar `JSON.parse` accepts (RFC 8259).
 */

/** A JSON syntax error: the offset of the offending character and what was wrong there. */
export interface JsonSyntaxError {
  readonly offset: number;
  readonly message: string;
}

/** Callbacks of {@link scanJson}; all optional, called in document order. */
export interface JsonScanVisitor {
  /** A value starts at `offset`: `token` is its member name, its array index, or `undefined` for the root. */
  readonly value?: (offset: number, token: string | number | undefined) => void;
  /** A member name was read (decoded); `offset` is its opening quote. Comes before the member's `value`. */
  readonly member?: (name: string, offset: number) => void;
  /** The value that just started is a container, now open. */
  readonly open?: (kind: "object" | "array") => void;
  /** The innermost open container just closed. */
  readonly close?: () => void;
  /** The number value that just started ends before `end` (JSON.parse may round it to Infinity). */
  readonly number?: (start: number, end: number) => void;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`: the escapes that take no digits. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = ["true", "false", "null"] as const;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= 0x39;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c);
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Skips the four JSON whitespace characters (and nothing else, as `JSON.parse` does). */
export function skipJsonSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return i;
    i += 1;
  }
}

/** Names the character at `offset` for a message; invisible ones by code point. */
function describe(text: string, offset: number): string {
  const cp = text.codePointAt(offset);
  if (cp === undefined) return "the end of the text";
  const visible = cp > SPACE && !(cp >= 0x7f && cp <= 0xa0) && !(cp >= 0xd800 && cp <= 0xdfff);
  return visible
    ? `'${String.fromCodePoint(cp)}'`
    : `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Explains a character that cannot start a value, naming the usual non-JSON habits. */
function badValueStart(text: string, offset: number): string {
  const c = text.charCodeAt(offset);
  if (c === 0x27) return "JSON strings must use double quotes, not single quotes.";
  if (c === SLASH) return "Comments are not allowed in JSON.";
  if (isLetter(c)) {
    // Name the whole word (bounded), so `True`, `None` or `NaN` read as the habit they are.
    let end = offset + 1;
    while (end < offset + 24 && isWordChar(text.charCodeAt(end))) end += 1;
    const word = text.slice(offset, end);
    return `Unexpected '${word}' where a value was expected; the JSON literals are true, false and null.`;
  }
  return `Unexpected ${describe(text, offset)} where a value was expected.`;
}

/**
 * Scans `text` as one JSON value, reporting structure to `visitor`. Returns the first syntax error,
 * or `undefined` when the text is valid JSON. O(n) time; memory O(depth) plus the visitor's.
 */
export function scanJson(text: string, visitor: JsonScanVisitor): JsonSyntaxError | undefined {
  const end = text.length;
  /** Per open container: -1 for an object, else the index of the array's current element. */
  const indexes: number[] = [];
  let pos = skipJsonSpace(text, 0);
  let token: string | number | undefined;
  let escaped = false;
  let lastComma = -1;

  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, message });

  /** Moves `pos` past the string that starts at `pos`; sets `escaped` when it has a backslash. */
  const skipString = (): JsonSyntaxError | undefined => {
    const open = pos;
    escaped = false;
    let i = pos + 1;
    for (;;) {
      if (i >= end) return fail(open, "A string that starts here is not closed.");
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        pos = i + 1;
        return undefined;
      }
      if (c === BACKSLASH) {
        escaped = true;
        const e = text.charCodeAt(i + 1);
        if (SIMPLE_ESCAPES.has(e)) {
          i += 2;
        } else if (e === 0x75) {
          for (let k = 2; k < 6; k += 1) {
            if (!isHex(text.charCodeAt(i + k))) {
              return fail(i, "A \\u escape must be followed by four hexadecimal digits.");
            }
          }
          i += 6;
        } else if (i + 1 >= end) {
          return fail(open, "A string that starts here is not closed.");
        } else {
          return fail(i, `Invalid escape sequence '\\${String.fromCharCode(e)}' in a string.`);
        }
      } else if (c < SPACE) {
        return fail(i, `Control character ${describe(text, i)} must be escaped inside a string.`);
      } else {
        i += 1;
      }
    }
  };

  /** Reads `"name": ` at `pos` and leaves `pos` on the member's value. */
  const readMember = (): JsonSyntaxError | undefined => {
    const c = text.charCodeAt(pos);
    if (c !== QUOTE) {
      if (c === RBRACE && lastComma >= 0) {
        return fail(lastComma, "A trailing comma before '}' is not allowed.");
      }
      if (pos >= end) return fail(pos, "The text ends where a property name was expected.");
      return fail(pos, `Expected a property name in double quotes, found ${describe(text, pos)}.`);
    }
    const keyStart = pos;
    const error = skipString();
    if (error) return error;
    let name = text.slice(keyStart + 1, pos - 1);
    if (escaped) {
      // The slice is a validated JSON string, so JSON.parse decodes it exactly as it would in place.
      const decoded: unknown = JSON.parse(text.slice(keyStart, pos));
      if (typeof decoded === "string") name = decoded;
    }
    visitor.member?.(name, keyStart);
    pos = skipJsonSpace(text, pos);
    if (text.charCodeAt(pos) !== COLON) {
      return fail(pos, `Expected ':' after a property name, found ${describe(text, pos)}.`);
    }
    pos = skipJsonSpace(text, pos + 1);
    token = name;
    return undefined;
  };

  /** Moves `pos` past the number that starts at `pos`. */
  const skipNumber = (): JsonSyntaxError | undefined => {
    let i = pos;
    if (text.charCodeAt(i) === MINUS) i += 1;
    if (text.charCodeAt(i) === ZERO) {
      i += 1;
      if (isDigit(text.charCodeAt(i))) return fail(i, "A number must not have leading zeros.");
    } else if (isDigit(text.charCodeAt(i))) {
      while (isDigit(text.charCodeAt(i))) i += 1;
    } else {
      return fail(i, `Expected a digit after '-', found ${describe(text, i)}.`);
    }
    if (text.charCodeAt(i) === DOT) {
      i += 1;
      if (!isDigit(text.charCodeAt(i))) {
        return fail(i, `Expected a digit after the decimal point, found ${describe(text, i)}.`);
      }
      while (isDigit(text.charCodeAt(i))) i += 1;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i += 1;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i += 1;
      if (!isDigit(text.charCodeAt(i))) {
        return fail(i, `Expected a digit in the exponent, found ${describe(text, i)}.`);
      }
      while (isDigit(text.charCodeAt(i))) i += 1;
    }
    visitor.number?.(pos, i);
    pos = i;
    return undefined;
  };

  /** Moves `pos` past a string, number or literal at `pos`. */
  const skipScalar = (): JsonSyntaxError | undefined => {
    const c = text.charCodeAt(pos);
    if (c === QUOTE) return skipString();
    if (c === MINUS || isDigit(c)) return skipNumber();
    for (const word of LITERALS) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return undefined;
      }
    }
    const inArray = (indexes.at(-1) ?? -1) >= 0;
    if (c === RBRACKET && inArray && lastComma >= 0) {
      return fail(lastComma, "A trailing comma before ']' is not allowed.");
    }
    return fail(pos, badValueStart(text, pos));
  };

  if (pos >= end) return fail(pos, "The text is empty; a JSON value was expected.");
  for (;;) {
    // Here `pos` is where a value must start.
    if (pos >= end) return fail(pos, "The text ends where a value was expected.");
    visitor.value?.(pos, token);
    const c = text.charCodeAt(pos);
    if (c === LBRACE || c === LBRACKET) {
      const isObject = c === LBRACE;
      visitor.open?.(isObject ? "object" : "array");
      indexes.push(isObject ? -1 : 0);
      pos = skipJsonSpace(text, pos + 1);
      if (text.charCodeAt(pos) !== (isObject ? RBRACE : RBRACKET)) {
        lastComma = -1;
        if (isObject) {
          const error = readMember();
          if (error) return error;
        } else {
          token = 0;
        }
        continue;
      }
      pos += 1;
      indexes.pop();
      visitor.close?.();
    } else {
      const error = skipScalar();
      if (error) return error;
    }
    // After a value: close containers until a comma leads to the next value, or the text ends.
    for (;;) {
      pos = skipJsonSpace(text, pos);
      const depth = indexes.length;
      if (depth === 0) {
        if (pos >= end) return undefined;
        return fail(pos, `Unexpected ${describe(text, pos)} after the end of the JSON value.`);
      }
      const isObject = indexes[depth - 1] === -1;
      const next = text.charCodeAt(pos);
      if (next === COMMA) {
        lastComma = pos;
        pos = skipJsonSpace(text, pos + 1);
        if (isObject) {
          const error = readMember();
          if (error) return error;
        } else {
          const index = (indexes[depth - 1] ?? 0) + 1;
          indexes[depth - 1] = index;
          token = index;
        }
        break;
      }
      if (next === (isObject ? RBRACE : RBRACKET)) {
        pos += 1;
        indexes.pop();
        visitor.close?.();
        continue;
      }
      const closer = isObject ? "'}'" : "']'";
      const what = isObject ? "an object member" : "an array element";
      if (pos >= end) {
        return fail(
          pos,
          `The text ends inside ${isObject ? "an object" : "an array"}; expected ',' or ${closer}.`,
        );
      }
      return fail(pos, `Expected ',' or ${closer} after ${what}, found ${describe(text, pos)}.`);
    }
  }
}
