/**
 * One FEEL expression read whole with lezer-feel, for callers outside conditions that need a
 * literal's shape (a Camunda context mapping, a multi-instance input collection) and must not
 * guess at it: a text the grammar does not read without error gives no node at all.
 */
import { MAX_CONDITION_LENGTH } from "./feel.js";
import { parseFeelExpression } from "./parser.js";
import { childrenOf } from "./tree.js";
import type { FeelNode } from "./tree.js";

/**
 * The node `text` (FEEL, without a leading `=`) parses to, comments around it aside: a `Context`,
 * a `List`, a `StringLiteral`… `undefined` when the text is blank, longer than
 * {@link MAX_CONDITION_LENGTH} (never parsed: lezer's error recovery on hostile input is slow),
 * or holds a syntax error anywhere, since lezer's recovered tree is a guess at what was meant.
 */
export function feelExpressionNode(text: string): FeelNode | undefined {
  if (text.length > MAX_CONDITION_LENGTH) return undefined;
  const tree = parseFeelExpression(text);
  // A cursor walks the whole tree without recursion, so a deep tree costs no stack.
  const cursor = tree.cursor();
  do {
    if (cursor.type.isError) return undefined;
  } while (cursor.next());
  const top = childrenOf(tree.topNode);
  return top.length === 1 ? top[0] : undefined;
}
