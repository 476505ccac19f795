/**
 * The JSON value of a parsed YAML document, built here rather than by yaml's `toJS`: `toJS`
 * resolves each alias by scanning every anchor before it (quadratic in the anchors, which hostile
 * input chains by the thousand) and recurses once per level. This is one iterative, linear pass.
 */

import { isAlias, isMap, isPair, isScalar, isSeq } from "yaml";
import { escapePointerToken } from "../json/index.js";
import { duplicateKeyMessage, nonFiniteMessage, pointerOf } from "./problems.js";
import type { OffsetProblem } from "./problems.js";
import { keyOf, startOf } from "./yaml.js";

/**
 * How many characters aliases may expand a document to, per character of its text. Billion-laughs
 * documents are tiny and expand exponentially; a real document reuses a block a few times. The
 * factor matches yaml's default `maxAliasCount` (100), applied to the whole expanded size, which
 * is what a later traversal of the value (validation, hashing) costs.
 */
export const MAX_ALIAS_EXPANSION = 100;

/**
 * The most characters aliases may expand any document to, whatever its length: 64 Mi. The
 * canonical JSON a content hash is taken of is one string, and reading, validating and hashing a
 * document costs several bytes per character of it: a 5 MB text aliased up to V8's longest string
 * (half a GiB of characters) took 3.8 GB, past a CI runner's memory, while no document that
 * reuses its blocks as people do comes near 64 Mi characters. The per-character bound reaches
 * this one only for a text of over 670 kB; a document without aliases is bounded by its size.
 */
export const MAX_EXPANDED_CHARACTERS = 67_108_864;

/**
 * The expansion budget of a YAML text of `length` characters: {@link MAX_ALIAS_EXPANSION} per
 * character, at most {@link MAX_EXPANDED_CHARACTERS}.
 */
export function aliasBudget(length: number): number {
  return Math.min(MAX_ALIAS_EXPANSION * Math.max(length, 1), MAX_EXPANDED_CHARACTERS);
}

/** A character that JSON writes as an escape (two or six characters), or half a surrogate pair. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * How long a string is as JSON text. The test is one native scan; only a string that holds an
 * escape is written out to measure it, so that a budget counted in characters stays exact.
 */
function quotedLength(text: string): number {
  return ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/** How long a JSON scalar is as canonical JSON text (shortest number form, as RFC 8785 writes). */
function scalarLength(value: unknown): number {
  if (typeof value === "string") return quotedLength(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  return 4; // null: a scalar with no JSON equivalent stops reading before it is measured
}

const MERGE_KEY_MESSAGE =
  'A merge key (<<) is a merge to YAML 1.1 readers and a key named "<<" to YAML 1.2 readers, so tools would read different documents; write the keys out (or quote the key to mean a key).';

interface Built {
  readonly value: unknown;
  /**
   * Characters of this subtree's canonical JSON text, every alias expanded: what writing it for a
   * content hash builds, and what a traversal of it reads. Kept per anchor, so an alias costs one
   * addition however large its value.
   */
  readonly size: number;
}

interface Frame {
  readonly items: readonly unknown[];
  readonly out: Record<string, unknown> | unknown[];
  /** Keys seen so far, for a mapping. */
  readonly seen: Set<string> | undefined;
  readonly anchor: string | undefined;
  readonly parent: Frame | undefined;
  readonly token: string | number | undefined;
  next: number;
  size: number;
  /** The key whose value is being built, for a mapping. */
  key: string;
}

/** The result of {@link buildYamlValue}: a value only when there are no problems. */
export interface YamlBuild {
  readonly value: unknown;
  readonly problems: readonly OffsetProblem[];
}

function pathOf(frame: Frame | undefined, last?: string | number): string {
  const tokens: (string | number)[] = [];
  for (let f = frame; f !== undefined; f = f.parent)
    if (f.token !== undefined) tokens.push(f.token);
  tokens.reverse();
  return pointerOf(tokens) + (last === undefined ? "" : "/" + escapePointerToken(last));
}

/**
 * Own data properties only: assigning `__proto__` (or any inherited name) with `=` would call
 * a setter instead of storing the key, which is how prototype pollution starts.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target) {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

function deliver(frame: Frame, built: Built): void {
  if (Array.isArray(frame.out)) frame.out.push(built.value);
  else setOwn(frame.out, frame.key, built.value);
  frame.size += built.size;
}

/**
 * The characters that placing the next member in a collection writes besides the member itself:
 * a comma, and for a mapping the key with its quotes and colon. Counted before the member is
 * built, so that an alias is measured against everything written up to and including it.
 */
function placement(frame: Frame): number {
  const comma = frame.next > 1 ? 1 : 0;
  return frame.seen === undefined ? comma : comma + quotedLength(frame.key) + 1;
}

/**
 * Builds the JSON value of a parsed document's contents, reporting duplicate keys (all of them)
 * and stopping at the first alias that is unresolved, cyclic, or takes the document beyond `budget`
 * characters of canonical JSON text (see {@link aliasBudget}).
 * Aliased values are shared, not copied: treat the result as immutable.
 */
export function buildYamlValue(root: unknown, budget: number): YamlBuild {
  const problems: OffsetProblem[] = [];
  const anchors = new Map<string, Built | null>();
  const stack: Frame[] = [];
  let expanded = 0;
  let result: Built = { value: null, size: 4 };
  // At most one entry: the problem that stopped reading.
  const stopped: OffsetProblem[] = [];

  const stop = (node: unknown, message: string, path: string): void => {
    stopped.push({ code: "SYNTAX_ERROR", message, path, offset: startOf(node) ?? 0 });
  };

  // A leaf's value, or `undefined` once a collection's frame is pushed (or reading stopped).
  const start = (
    node: unknown,
    parent: Frame | undefined,
    token?: string | number,
  ): Built | undefined => {
    if (node === null || node === undefined) {
      expanded += 4;
      return { value: null, size: 4 };
    }
    if (isScalar(node)) {
      const value = node.value ?? null;
      const kind = typeof value;
      if (value !== null && kind !== "string" && kind !== "number" && kind !== "boolean") {
        stop(node, "This YAML value has no JSON equivalent.", pathOf(parent, token));
        return undefined;
      }
      if (typeof value === "number" && !Number.isFinite(value)) {
        const message = nonFiniteMessage(node.source ?? String(value));
        problems.push({
          code: "SYNTAX_ERROR",
          message,
          path: pathOf(parent, token),
          offset: startOf(node) ?? 0,
        });
      }
      const built = { value, size: scalarLength(value) };
      if (node.anchor !== undefined) anchors.set(node.anchor, built);
      expanded += built.size;
      return built;
    }
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) {
        const message = `Alias *${node.source} refers to no anchor defined before it.`;
        stop(node, message, pathOf(parent, token));
        return undefined;
      }
      if (target === null) {
        stop(
          node,
          `Alias *${node.source} refers to a collection that contains it; a cycle has no JSON value.`,
          pathOf(parent, token),
        );
        return undefined;
      }
      expanded += target.size;
      if (expanded > budget) {
        stop(
          node,
          `Aliases expand this document beyond ${budget} characters of JSON text (${MAX_ALIAS_EXPANSION} per character of its text, at most ${MAX_EXPANDED_CHARACTERS}); reading stopped, as for an alias bomb.`,
          pathOf(parent, token),
        );
        return undefined;
      }
      return target;
    }
    if (isMap(node) || isSeq(node)) {
      const mapping = isMap(node);
      if (node.anchor !== undefined) anchors.set(node.anchor, null);
      stack.push({
        items: node.items,
        out: mapping ? {} : [],
        seen: mapping ? new Set<string>() : undefined,
        anchor: node.anchor,
        parent,
        token,
        next: 0,
        size: 2,
        key: "",
      });
      expanded += 2;
      return undefined;
    }
    stop(node, "This YAML construct has no JSON equivalent.", pathOf(parent, token));
    return undefined;
  };

  const first = start(root, undefined);
  if (first !== undefined) result = first;
  while (stopped.length === 0) {
    const frame = stack.at(-1);
    if (frame === undefined) break;
    if (frame.next >= frame.items.length) {
      stack.pop();
      const built = { value: frame.out, size: frame.size };
      if (frame.anchor !== undefined) anchors.set(frame.anchor, built);
      const parent = stack.at(-1);
      if (parent === undefined) result = built;
      else deliver(parent, built);
      continue;
    }
    const index = frame.next;
    const item = frame.items[index];
    frame.next += 1;
    let child: unknown = item;
    let token: string | number = index;
    if (frame.seen !== undefined) {
      const key = isPair(item) ? keyOf(item) : undefined;
      if (!isPair(item) || key === undefined) {
        stop(isPair(item) ? item.key : item, "A mapping key must be a string.", pathOf(frame));
        break;
      }
      if (isScalar(item.key) && item.key.anchor !== undefined) {
        anchors.set(item.key.anchor, { value: key, size: quotedLength(key) });
      }
      if (key === "<<" && isScalar(item.key) && item.key.type === "PLAIN") {
        // YAML 1.1 readers (PyYAML, js-yaml) merge the mapping it names into this one; YAML 1.2
        // reads a key named "<<". What was reviewed would differ from what such a tool runs.
        problems.push({
          code: "SYNTAX_ERROR",
          message: MERGE_KEY_MESSAGE,
          path: pathOf(frame, key),
          offset: startOf(item.key) ?? 0,
        });
      }
      if (frame.seen.has(key)) {
        const offset = startOf(item.key) ?? startOf(item.value) ?? 0;
        const message = duplicateKeyMessage(key, pathOf(frame));
        problems.push({ code: "DUPLICATE_KEY", message, path: pathOf(frame, key), offset });
      } else {
        frame.seen.add(key);
      }
      frame.key = key;
      child = item.value;
      token = key;
    }
    const extra = placement(frame);
    frame.size += extra;
    expanded += extra;
    const built = start(child, frame, token);
    if (built !== undefined) deliver(frame, built);
  }
  problems.push(...stopped);
  return { value: problems.length === 0 ? result.value : undefined, problems };
}
