/**
 * Where values are in a text, by JSON Pointer, so that a diagnostic found on the parsed value can
 * name a line and a column. Positions are counted after a leading BOM, as in `readDocumentText`.
 */

import { isAlias, isMap, isPair, isSeq } from "yaml";
import type { Alias, Document, Pair, YAMLMap } from "yaml";
import type { SourceLocation } from "../diagnostic.js";
import { pointerTokens } from "../pointer.js";
import { scanJson } from "./json-scan.js";
import { createLineIndex, stripBom } from "./lines.js";
import type { TextFormat } from "./problems.js";
import { keyOf, parseYaml, startOf } from "./yaml.js";

interface Trie {
  readonly children: Map<string, Trie>;
  /** Where the value at this pointer starts; -1 until the scan meets it. */
  offset: number;
}

function isPointer(path: string): boolean {
  return path === "" || path.startsWith("/");
}

/** One scan; only containers on the way to a requested pointer are looked into. */
function locateJson(text: string, pointers: readonly string[]): Map<string, number> {
  const root: Trie = { children: new Map(), offset: -1 };
  const chains = new Map<string, Trie[]>();
  for (const path of pointers) {
    if (chains.has(path) || !isPointer(path)) continue;
    let node = root;
    const chain = [root];
    for (const token of pointerTokens(path)) {
      let next = node.children.get(token);
      if (next === undefined) {
        next = { children: new Map(), offset: -1 };
        node.children.set(token, next);
      }
      chain.push(next);
      node = next;
    }
    chains.set(path, chain);
  }
  const open: (Trie | undefined)[] = [];
  let current: Trie | undefined;
  // With duplicate keys the last occurrence wins, as in JSON.parse.
  scanJson(text, {
    value: (offset, token) => {
      if (token === undefined) current = root;
      else current = open.at(-1)?.children.get(typeof token === "number" ? String(token) : token);
      if (current !== undefined) current.offset = offset;
    },
    open: () => open.push(current),
    close: () => {
      open.pop();
    },
  });
  const found = new Map<string, number>();
  for (const [path, chain] of chains) {
    for (let i = chain.length - 1; i >= 0; i -= 1) {
      const offset = chain[i]?.offset ?? -1;
      if (offset >= 0) {
        found.set(path, offset);
        break;
      }
    }
  }
  return found;
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

/** Follows each pointer through the document; a mapping is indexed once, on first use. */
function locateYaml(text: string, pointers: readonly string[]): Map<string, number> {
  return locateInYaml(parseYaml(text).doc, pointers);
}

function locateInYaml(
  doc: Document.Parsed | undefined,
  pointers: readonly string[],
): Map<string, number> {
  if (doc === undefined) return new Map();
  const indexes = new Map<YAMLMap, Map<string, Pair>>();
  const indexOf = (map: YAMLMap): Map<string, Pair> => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      for (const pair of map.items) {
        const key = keyOf(pair);
        if (key !== undefined) index.set(key, pair);
      }
      indexes.set(map, index);
    }
    return index;
  };
  let aliases: Map<Alias, unknown> | undefined;
  const found = new Map<string, number>();
  for (const path of pointers) {
    if (found.has(path) || !isPointer(path)) continue;
    let node: unknown = doc.contents;
    let offset = startOf(node) ?? 0;
    for (const token of pointerTokens(path)) {
      // Through an alias, positions continue inside the anchored node, where the data is written.
      if (isAlias(node)) node = (aliases ??= resolveAliases(doc.contents)).get(node);
      let next: unknown;
      let at: number | undefined;
      if (isMap(node)) {
        const pair = indexOf(node).get(token);
        if (pair === undefined) break;
        next = pair.value;
        at = startOf(pair.value) ?? startOf(pair.key);
      } else if (
        isSeq(node) &&
        /^(?:0|[1-9][0-9]*)$/.test(token) &&
        Number(token) < node.items.length
      ) {
        next = node.items[Number(token)];
        at = startOf(next);
      }
      if (at === undefined) break;
      node = next;
      offset = at;
    }
    found.set(path, offset);
  }
  return found;
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
  const body = stripBom(text);
  if (!pointers.some(isPointer)) return new Map();
  let offsets: Map<string, number>;
  try {
    offsets = format === "json" ? locateJson(body, pointers) : locateYaml(body, pointers);
  } catch {
    offsets = new Map();
  }
  return toLocations(body, offsets);
}

/** Locates pointers in one text; see {@link locatePointers}. */
export type Locator = (pointers: readonly string[]) => Map<string, SourceLocation>;

/**
 * A {@link locatePointers} for one text, reusing the YAML document its reader already parsed:
 * parsing a 100,000-item YAML sequence a second time just to place diagnostics doubled the cost
 * of reading it. `body` is the text after its BOM, as the reader saw it.
 */
export function locatorFor(
  body: string,
  format: TextFormat,
  yamlDoc: Document.Parsed | undefined,
): Locator {
  return (pointers) => {
    if (format === "json" || yamlDoc === undefined) return locatePointers(body, format, pointers);
    if (!pointers.some(isPointer)) return new Map();
    let offsets: Map<string, number>;
    try {
      offsets = locateInYaml(yamlDoc, pointers);
    } catch {
      offsets = new Map();
    }
    return toLocations(body, offsets);
  };
}

function toLocations(
  body: string,
  offsets: ReadonlyMap<string, number>,
): Map<string, SourceLocation> {
  const locate = createLineIndex(body);
  const located = new Map<string, SourceLocation>();
  for (const [path, offset] of offsets) located.set(path, locate(offset));
  return located;
}
