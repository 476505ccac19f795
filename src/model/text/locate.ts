/**
 * Where values are in a text, by JSON Pointer, so that a diagnostic found on the parsed value can
 * name a line and a column. Positions are counted after a leading BOM, as in `readDocumentText`.
 */

import { isAlias, isMap, isPair, isSeq } from "yaml";
import type { Alias, Document, Pair, YAMLMap } from "yaml";
import type { SourceLocation } from "../diagnostic.js";
import { scanJson } from "./json-scan.js";
import { locateInValidJson } from "./json-valid.js";
import { createLineIndex, stripBom } from "./lines.js";
import type { PointerTrie, PointerTrieNode } from "./pointer-trie.js";
import { inheritOffsets, isPointer, pointerTrie } from "./pointer-trie.js";
import type { TextFormat } from "./problems.js";
import { keyOf, parseYaml, startOf } from "./yaml.js";

/** The offset of each pointer, in the order asked; -1 where the walk placed none. */
function offsetsOf(trie: PointerTrie): number[] {
  inheritOffsets(trie.root);
  return trie.nodes.map((node) => node?.offset ?? -1);
}

/** One scan; only containers on the way to a requested pointer are looked into. */
function locateJson(text: string, pointers: readonly string[]): number[] {
  const trie = pointerTrie(pointers);
  const open: (PointerTrieNode | undefined)[] = [];
  let current: PointerTrieNode | undefined;
  // With duplicate keys the last occurrence wins, as in JSON.parse.
  scanJson(text, {
    value: (offset, token) => {
      if (token === undefined) current = trie.root;
      else current = open.at(-1)?.children?.get(typeof token === "number" ? String(token) : token);
      if (current !== undefined) current.offset = offset;
    },
    open: () => open.push(current),
    close: () => {
      open.pop();
    },
  });
  return offsetsOf(trie);
}

/** Alias → the node it names: the last anchor of that name before it, in document order. */
function resolveAliases(root: unknown): Map<Alias, unknown> {
  const targets = new Map<Alias, unknown>();
  const anchors = new Map<string, unknown>();
  const pending: unknown[] = [root];
  for (let node = pending.pop(); pending.length > 0 || node !== undefined; node = pending.pop()) {
    if (isAlias(node)) {
      targets.set(node, anchors.get(node.source));
    } else if (isMap(node) || isSeq(node)) {
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      for (let i = node.items.length - 1; i >= 0; i -= 1) {
        const item = node.items[i];
        if (isPair(item)) {
          pending.push(item.value, item.key);
        } else {
          pending.push(item);
        }
      }
    } else if (node !== null && typeof node === "object" && "anchor" in node) {
      if (typeof node.anchor === "string") anchors.set(node.anchor, node);
    }
  }
  return targets;
}

/** A mapping's pairs by key; with a repeated key the last pair wins. */
function pairsByKey(map: YAMLMap): Map<string, Pair> {
  const index = new Map<string, Pair>();
  for (const pair of map.items) {
    const key = keyOf(pair);
    if (key !== undefined) index.set(key, pair);
  }
  return index;
}

const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** Follows the pointers' trie through the document, one visit per requested prefix. */
function locateInYaml(doc: Document.Parsed | undefined, pointers: readonly string[]): number[] {
  if (doc === undefined) return pointers.map(() => -1);
  const trie = pointerTrie(pointers);
  trie.root.offset = startOf(doc.contents) ?? 0;
  let aliases: Map<Alias, unknown> | undefined;
  const pending: [PointerTrieNode, unknown][] = [[trie.root, doc.contents]];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const [{ children }, value] = entry;
    if (children === undefined) continue;
    // Through an alias, positions continue inside the anchored node, where the data is written.
    const node = isAlias(value) ? (aliases ??= resolveAliases(doc.contents)).get(value) : value;
    if (isMap(node)) {
      const pairs = pairsByKey(node);
      for (const [token, child] of children) {
        const pair = pairs.get(token);
        if (pair === undefined) continue;
        const at = startOf(pair.value) ?? startOf(pair.key);
        if (at === undefined) continue;
        child.offset = at;
        if (child.children !== undefined) pending.push([child, pair.value]);
      }
    } else if (isSeq(node)) {
      for (const [token, child] of children) {
        if (!INDEX.test(token) || Number(token) >= node.items.length) continue;
        const item = node.items[Number(token)];
        const at = startOf(item);
        if (at === undefined) continue;
        child.offset = at;
        if (child.children !== undefined) pending.push([child, item]);
      }
    }
  }
  return offsetsOf(trie);
}

/** Locates in a text that has not been parsed yet. */
function locateYaml(text: string, pointers: readonly string[]): number[] {
  return locateInYaml(parseYaml(text).doc, pointers);
}

/**
 * The 1-based line and column of the value at each JSON Pointer. A pointer that names nothing
 * (a missing member, an index past the end) gets its nearest existing ancestor's position, so
 * "missing property x in /nodes/2/config" points at that config. A pointer that is not one
 * (non-empty and not starting with `/`), or a text with no value at all, gets no entry.
 * Positions are counted after a leading BOM, columns in UTF-16 code units. A YAML alias is
 * located where it is used, and what lies inside it in its anchor. Never throws on a string.
 */
export function locatePointers(
  text: string,
  format: TextFormat,
  pointers: readonly string[],
): Map<string, SourceLocation> {
  const located = locateAll(stripBom(text), format, {}, pointers);
  const found = new Map<string, SourceLocation>();
  pointers.forEach((path, i) => {
    const location = located[i];
    if (location !== undefined && !found.has(path)) found.set(path, location);
  });
  return found;
}

/**
 * Locates pointers in one text, as {@link locatePointers} does, answering in the order asked
 * (`undefined` where it gives no entry): the text parsers place 100,000 diagnostics with it, and
 * a map from pointer to location would only be looked up again.
 */
export type Locator = (pointers: readonly string[]) => readonly (SourceLocation | undefined)[];

/**
 * {@link locatePointers} in the order asked; a parsed YAML `doc` is used, not parsed again, and a
 * JSON text known to be `valid` is walked without being validated again.
 */
function locateAll(
  body: string,
  format: TextFormat,
  parsed: { readonly doc?: Document.Parsed | undefined; readonly valid?: boolean },
  pointers: readonly string[],
): (SourceLocation | undefined)[] {
  if (!pointers.some(isPointer)) return pointers.map(() => undefined);
  let offsets: number[];
  try {
    if (format === "yaml") {
      offsets =
        parsed.doc === undefined ? locateYaml(body, pointers) : locateInYaml(parsed.doc, pointers);
    } else if (parsed.valid === true) {
      const trie = pointerTrie(pointers);
      locateInValidJson(body, trie.root);
      offsets = offsetsOf(trie);
    } else {
      offsets = locateJson(body, pointers);
    }
  } catch {
    return pointers.map(() => undefined);
  }
  const locate = createLineIndex(body);
  return offsets.map((offset) => (offset < 0 ? undefined : locate(offset)));
}

/**
 * A {@link Locator} for one text, reusing what its reader found: the YAML document it parsed
 * (parsing a 100,000-item YAML sequence a second time just to place diagnostics doubled the cost
 * of reading it), and for JSON, whether `JSON.parse` accepted the text with no problem, so that
 * skipping what no pointer asks into needs no validation. `body` is the text after its BOM, as
 * the reader saw it.
 */
export function locatorFor(
  body: string,
  format: TextFormat,
  yamlDoc: Document.Parsed | undefined,
  validJson: boolean,
): Locator {
  if (format === "json" && validJson) {
    return (pointers) => locateAll(body, format, { valid: true }, pointers);
  }
  // Without a document, as `locatePointers` on the body (which strips a BOM again).
  if (format === "json" || yamlDoc === undefined) return textLocator(body, format);
  return (pointers) => locateAll(body, format, { doc: yamlDoc }, pointers);
}

/** A {@link Locator} for a text not parsed yet, with its BOM, as {@link locatePointers} takes it. */
export function textLocator(text: string, format: TextFormat): Locator {
  return (pointers) => locateAll(stripBom(text), format, {}, pointers);
}
