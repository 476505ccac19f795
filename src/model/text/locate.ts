/**
 * Where values are in a text, by JSON Pointer, so that a diagnostic found on the parsed value can
 * name a line and a column. Positions are counted after a leading BOM, as in `readDocumentText`.
 * JSON is located here; YAML through the {@link YamlSupport} the caller holds (yaml-support.ts),
 * so that this module loads no YAML parser.
 */

import type { SourceLocation } from "../diagnostic.js";
import { scanJson } from "./json-scan.js";
import { locateInValidJson } from "./json-valid.js";
import { createLineIndex, stripBom } from "./lines.js";
import type { PointerTrieNode } from "./pointer-trie.js";
import { isPointer, pointerTrie, trieOffsets } from "./pointer-trie.js";
import type { TextFormat } from "./problems.js";
import type { YamlSupport } from "./yaml-support.js";

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
  return trieOffsets(trie);
}

/**
 * Locates pointers in one text, as `locatePointers` does, answering in the order asked
 * (`undefined` where it gives no entry): the text parsers place 100,000 diagnostics with it, and
 * a map from pointer to location would only be looked up again.
 */
export type Locator = (pointers: readonly string[]) => readonly (SourceLocation | undefined)[];

/** What a reader learned of a text that a locator reuses instead of reading it again. */
export interface ReadKnowledge {
  /** The YAML reader's offsets in the document it parsed. */
  readonly yamlOffsets?: ((pointers: readonly string[]) => number[]) | undefined;
  /** A JSON text `JSON.parse` accepted with no problem: it is walked without being validated. */
  readonly validJson?: boolean;
}

/**
 * The 1-based line and column of the value at each pointer of `body` (a text after its BOM), in
 * the order asked, `undefined` where there is none: the semantics of `locatePointers`. A YAML text
 * needs `yaml` unless `known` holds its offsets.
 */
export function locateAll(
  body: string,
  format: TextFormat,
  known: ReadKnowledge,
  pointers: readonly string[],
  yaml: YamlSupport | undefined,
): (SourceLocation | undefined)[] {
  if (!pointers.some(isPointer)) return pointers.map(() => undefined);
  const yamlOffsets =
    known.yamlOffsets ??
    (yaml === undefined ? undefined : (p: readonly string[]) => yaml.offsets(body, p));
  if (format === "yaml" && yamlOffsets === undefined) {
    throw new TypeError("locating in a YAML text needs the YAML support");
  }
  let offsets: number[];
  try {
    if (format === "yaml" && yamlOffsets !== undefined) {
      offsets = yamlOffsets(pointers);
    } else if (known.validJson === true) {
      const trie = pointerTrie(pointers);
      locateInValidJson(body, trie.root);
      offsets = trieOffsets(trie);
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
 * A {@link Locator} for one text, `body` after its BOM, reusing what its reader learned (`known`).
 * `yaml` locates in a YAML text the reader could not parse; for JSON it may be `undefined`.
 */
export function locatorFor(
  body: string,
  format: TextFormat,
  known: ReadKnowledge,
  yaml: YamlSupport | undefined,
): Locator {
  if (known.validJson === true || known.yamlOffsets !== undefined) {
    return (pointers) => locateAll(body, format, known, pointers, yaml);
  }
  // Knowing nothing, as `locatePointers` on the body (which strips a BOM again).
  return textLocator(body, format, yaml);
}

/** A {@link Locator} for a text not read yet, with its BOM, as `locatePointers` takes it. */
export function textLocator(
  text: string,
  format: TextFormat,
  yaml: YamlSupport | undefined,
): Locator {
  return (pointers) => locateAll(stripBom(text), format, {}, pointers, yaml);
}
