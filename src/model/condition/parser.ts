/**
 * The FEEL expression parser: lezer-feel, the bpmn.io FEEL grammar that feelin is built on,
 * configured once as feelin's `parseExpression` configures it on every call (top rule
 * `Expression`, variables tracked from an empty context). Imported directly rather than through
 * feelin: feelin's one module also holds its interpreter and a Temporal polyfill for its date
 * functions, which conditions never use (they are evaluated by `compile.ts`, with exact
 * decimals), and which were a third of the browser bundle of parse + validate and a share of
 * the CLI's start-up. A test parses the same texts both ways and compares the trees.
 */
import { parser, trackVariables } from "lezer-feel";

// Configured on first use, not on import: a program that never reads a condition skips it.
let expression: typeof parser | undefined;

/**
 * Parses a FEEL expression into lezer-feel's tree; error-tolerant, as lezer is: a broken text
 * still gives a tree, with error nodes in it.
 */
export function parseFeelExpression(text: string): ReturnType<typeof parser.parse> {
  expression ??= parser.configure({ top: "Expression", contextTracker: trackVariables({}) });
  return expression.parse(text);
}
