/**
 * Splitting a FEEL context literal (`{containerElementId: "Tools", limits: {maxModelCalls: 10}}`)
 * into its entries, so that an input mapping that gives a parent object in one expression can be
 * read field by field. The grammar is lezer-feel's, the one conditions are read with: strings,
 * comments, nested brackets and ranges are the parser's business, not a scanner's. Only what it
 * reads without error is split, and only into keys every engine names the same way (plain names,
 * string literals); anything else (a syntax error, a backtick or symbol name, a repeated key) is
 * no context to this reader: the caller then treats the value as unknown, never as absent. An
 * entry's value is handed back as its source, unread: a nested context is split when asked for.
 * A list literal of string literals (an ad-hoc sub-process's fixed `activeElementsCollection`) is
 * read too.
 */
import { childrenOf, decodeFeelString, feelExpressionNode } from "../../model/internal.js";
import type { FeelNode } from "../../model/internal.js";

/**
 * A key written as a name: words of letters, digits and `_`, one space apart. lezer-feel also
 * takes `a-b`, `a.b` or `?` as names, where engines differ on whether they are one key.
 */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)*$/;

/** The key a `Key` node names, or `undefined` when it is not one this reader trusts. */
function keyOf(key: FeelNode, text: string): string | undefined {
  const [only, ...rest] = childrenOf(key);
  if (only === undefined || rest.length > 0) return undefined;
  const source = text.slice(only.from, only.to);
  if (only.name === "StringLiteral") {
    const decoded = decodeFeelString(source);
    return decoded.ok ? decoded.value : undefined;
  }
  // The source, not the words: a comment between two words is no part of a name we trust.
  return only.name === "Name" && NAME.test(source) ? source : undefined;
}

/**
 * The entries of a FEEL context literal, key → the entry's expression text (its source, without
 * comments around it), in order; `undefined` when `expression` (FEEL, without the leading `=`) is
 * not one context literal this reader can split.
 */
export function feelContextEntries(expression: string): ReadonlyMap<string, string> | undefined {
  const context = feelExpressionNode(expression);
  if (context?.name !== "Context") return undefined;
  const out = new Map<string, string>();
  for (const child of childrenOf(context)) {
    if (child.name === "{" || child.name === "}") continue;
    if (child.name !== "ContextEntry") return undefined;
    const [keyNode, value, ...rest] = childrenOf(child);
    if (keyNode?.name !== "Key" || value === undefined || rest.length > 0) return undefined;
    const key = keyOf(keyNode, expression);
    if (key === undefined || out.has(key)) return undefined;
    out.set(key, expression.slice(value.from, value.to));
  }
  return out;
}

/**
 * The texts of a FEEL list literal whose every item is one string literal (`["a", "b"]`, `[]`), in
 * order; `undefined` for any other expression (FEEL, without the leading `=`): a list that reads a
 * variable, calls a function or holds anything but string literals is known only at run time.
 */
export function feelStringList(expression: string): readonly string[] | undefined {
  const list = feelExpressionNode(expression);
  if (list?.name !== "List") return undefined;
  const out: string[] = [];
  for (const item of childrenOf(list)) {
    if (item.name === "[" || item.name === "]") continue;
    if (item.name !== "StringLiteral") return undefined;
    const decoded = decodeFeelString(expression.slice(item.from, item.to));
    if (!decoded.ok) return undefined;
    out.push(decoded.value);
  }
  return out;
}
