/**
 * Small helpers over the lezer-feel tree. The types are taken from the parser's own signature so
 * that this folder depends on no package the project does not declare.
 */
import type { parseFeelExpression } from "./parser.js";

/** The lezer tree {@link parseFeelExpression} returns. */
export type FeelTree = ReturnType<typeof parseFeelExpression>;

/** A node of {@link FeelTree}. */
export type FeelNode = FeelTree["topNode"];

/** Comments are trivia: they can sit between any two tokens and never change a value. */
export function isComment(node: FeelNode): boolean {
  return node.name === "LineComment" || node.name === "BlockComment";
}

/** The children of `node` in order, comments left out. */
export function childrenOf(node: FeelNode): FeelNode[] {
  const out: FeelNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (!isComment(child)) out.push(child);
  }
  return out;
}

/**
 * The FEEL name a `VariableName`, `PathName` or `Name` node spells. FEEL names may contain
 * spaces (`first name`), and engines match them with the whitespace between words collapsed, so
 * the words are joined with one space.
 */
export function nameOf(node: FeelNode, text: string): string {
  const words: string[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.name === "Identifier") words.push(text.slice(child.from, child.to));
  }
  return words.length > 0 ? words.join(" ") : text.slice(node.from, node.to).trim();
}

/** Whitespace that {@link quote} would change: a run, a non-space, or at either end. */
const NOT_ONE_LINE = /\s\s|[^\S ]|^\s|\s$/;

/** Quotes a piece of source for a message, shortened so that messages stay one line. */
export function quote(source: string, max = 40): string {
  // Most sources are short and already one spaced line; skip the regular expressions for them.
  if (source.length <= max && !NOT_ONE_LINE.test(source)) return source;
  const oneLine = source
    .slice(0, max * 4)
    .replace(/\s+/g, " ")
    .trim();
  const cut = oneLine.length > max || source.length > max * 4;
  return cut ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
