/**
 * Fast paths for a text `JSON.parse` has already accepted. The validating scanner
 * (`json-scan.ts`) calls back for every value and keeps a set of keys per object, which costs
 * more than `JSON.parse` itself. On a text known to be valid, strings
 * and brackets are all there is to find.
 */

import type { PointerTrieNode } from "./pointer-trie.js";

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (isSpace(text.charCodeAt(i))) i += 1;
  return i;
}

/**
 * The offset just after the string whose opening quote is at `open`. The closing quote is found
 * by the engine's own search, several times faster than a loop over characters: a quote ends the
 * string unless an odd run of backslashes comes before it. Each run is counted once, so the whole
 * search stays linear.
 */
function stringEnd(text: string, open: number): number {
  for (let close = text.indexOf('"', open + 1); close >= 0; close = text.indexOf('"', close + 1)) {
    let before = close - 1;
    // The opening quote stops the walk: it is not a backslash.
    while (text.charCodeAt(before) === BACKSLASH) before -= 1;
    if ((close - before) % 2 === 1) return close + 1;
  }
  return text.length;
}

/** The offset just after the value (of any kind) that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  let i = start;
  if (first !== LBRACE && first !== LBRACKET) {
    // A number or a literal: it ends at the first delimiter.
    for (; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) break;
    }
    return i;
  }
  for (let depth = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === LBRACE || c === LBRACKET) depth += 1;
    else if (c === RBRACE || c === RBRACKET) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return i;
}

/**
 * How many object members a valid JSON text writes, duplicates included: each string followed by
 * a colon is a member name.
 */
export function memberCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i)) {
    i = stringEnd(text, i);
    if (text.charCodeAt(skipSpace(text, i)) === COLON) count += 1;
  }
  return count;
}

/** Whether `Object.prototype` has an enumerable property, which `for...in` would also visit. */
function prototypePolluted(): boolean {
  for (const _ in {}) return true;
  return false;
}

/**
 * How many own keys the objects in a parsed JSON value have in all; -1 when the value holds a
 * number that is not finite (a literal beyond a double's range). Iterative. With
 * {@link memberCount}, it says whether a text repeats a key: each repetition is a member that
 * `JSON.parse` folded into an earlier one.
 *
 * It allocates nothing per object: `for...in` reads the key list cached on the object's hidden
 * class, where `Object.keys` built an array per object (270 bytes a node on a large workflow),
 * and only containers wait on the stack. Were `Object.prototype` given an enumerable property,
 * `Object.keys` is used instead, so that inherited keys are never counted.
 */
export function keyCount(value: unknown): number {
  if (typeof value !== "object" || value === null) {
    return typeof value === "number" && !Number.isFinite(value) ? -1 : 0;
  }
  const ownKeys = prototypePolluted();
  let count = 0;
  const pending: object[] = [value];
  /** Queues a container; false for a number that is not finite. */
  const take = (item: unknown): boolean => {
    if (typeof item === "object") {
      if (item !== null) pending.push(item);
    } else if (typeof item === "number") return Number.isFinite(item);
    return true;
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      for (const item of next as unknown[]) if (!take(item)) return -1;
    } else if (ownKeys) {
      const record = next as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        count += 1;
        if (!take(record[key])) return -1;
      }
    } else {
      const record = next as Record<string, unknown>;
      for (const key in record) {
        count += 1;
        if (!take(record[key])) return -1;
      }
    }
  }
  return count;
}

/**
 * Sets the offset of every trie node a valid JSON text has a value for, exactly as a walk of the
 * validating scan does (with a repeated key, each occurrence sets it again), but entering only
 * the containers the trie asks into and skipping the others whole.
 */
export function locateInValidJson(text: string, root: PointerTrieNode): void {
  let pos = skipSpace(text, 0);
  if (pos >= text.length) return;
  root.offset = pos;
  /** Per open container the trie asks into: its node, and the next index (-1 in an object). */
  const open: { readonly node: PointerTrieNode; index: number }[] = [];
  /** Moves `pos` to the next value of the innermost container; returns its node, if asked for. */
  const next = (): PointerTrieNode | undefined => {
    const frame = open.at(-1);
    if (frame === undefined) return undefined;
    let token: string;
    if (frame.index < 0) {
      const end = stringEnd(text, pos);
      const raw = text.slice(pos + 1, end - 1);
      // A name with an escape is decoded exactly as JSON.parse decodes it.
      token = raw.includes("\\") ? String(JSON.parse(text.slice(pos, end))) : raw;
      pos = skipSpace(text, skipSpace(text, end) + 1);
    } else {
      token = String(frame.index);
      frame.index += 1;
    }
    const child = frame.node.children?.get(token);
    if (child !== undefined) child.offset = pos;
    return child;
  };
  let node: PointerTrieNode | undefined = root;
  for (;;) {
    // Here `pos` is where a value starts, and `node` is its trie node if the trie has one.
    const c = text.charCodeAt(pos);
    if (node?.children !== undefined && (c === LBRACE || c === LBRACKET)) {
      open.push({ node, index: c === LBRACE ? -1 : 0 });
      pos = skipSpace(text, pos + 1);
      const close = text.charCodeAt(pos);
      if (close !== RBRACE && close !== RBRACKET) {
        node = next();
        continue;
      }
      open.pop();
      pos += 1;
    } else {
      pos = valueEnd(text, pos);
    }
    // After a value: close containers until a comma leads to the next value, or the text ends.
    for (;;) {
      if (open.length === 0) return;
      pos = skipSpace(text, pos);
      if (text.charCodeAt(pos) === COMMA) {
        pos = skipSpace(text, pos + 1);
        node = next();
        break;
      }
      if (pos >= text.length) return;
      open.pop();
      pos += 1;
    }
  }
}
