/**
 * The YAML half of reading a text: parsing it (yaml.ts, yaml-build.ts) and locating pointers in
 * what was parsed. The only module of the readers that loads the `yaml` package: the synchronous
 * readers (read-sync.ts) import it, the asynchronous one (read-async.ts) loads it with `import()`
 * for a YAML text only, so that a page whose documents are JSON or data never fetches it.
 */

import { isAlias, isMap, isPair, isSeq } from "yaml";
import type { Alias, Document, Pair, YAMLMap } from "yaml";
import type { PointerTrieNode } from "./pointer-trie.js";
import { pointerTrie, trieOffsets } from "./pointer-trie.js";
import type { OffsetProblem } from "./problems.js";
import { keyOf, parseYaml, startOf } from "./yaml.js";
import { aliasBudget, buildYamlValue } from "./yaml-build.js";

/** A YAML text read: its value, its problems, and where its pointers are, from what was parsed. */
export interface YamlRead {
  readonly value: unknown;
  readonly problems: OffsetProblem[];
  /**
   * The offsets of pointers in the parsed document (-1 where none), absent when the text has a
   * syntax problem. Parsing a 100,000-item sequence again just to place diagnostics doubled the
   * cost of reading it.
   */
  readonly offsets?: (pointers: readonly string[]) => number[];
}

/** What the format-neutral readers (read.ts, locate.ts) need to read YAML. */
export interface YamlSupport {
  /** Reads a YAML text (after its BOM). May throw on a reader bug; the caller reports it. */
  readonly read: (body: string) => YamlRead;
  /** The offsets of pointers in a YAML text not parsed yet, -1 where none. */
  readonly offsets: (body: string, pointers: readonly string[]) => number[];
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
  return trieOffsets(trie);
}

/** Reading and locating YAML with the `yaml` package. */
export const YAML_SUPPORT: YamlSupport = {
  read(body) {
    const { doc, problems } = parseYaml(body);
    if (doc === undefined || problems.length > 0) return { value: undefined, problems };
    const built = buildYamlValue(doc.contents, aliasBudget(body.length));
    const offsets = (pointers: readonly string[]): number[] => locateInYaml(doc, pointers);
    return { value: built.value, problems: [...built.problems], offsets };
  },
  offsets: (body, pointers) => locateInYaml(parseYaml(body).doc, pointers),
};
