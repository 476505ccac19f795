/**
 * The conditions' parser is lezer-feel configured as feelin configures it (src/model/condition/
 * parser.ts): for any text, the tree is feelin's `parseExpression` tree, node for node.
 */
import fc from "fast-check";
import { parseExpression } from "feelin";
import { describe, expect, it } from "vitest";
import { parseFeelExpression } from "../../../src/model/condition/parser.js";

/** Every node as `name@from-to`, in document order: the whole tree, positions included. */
function shape(tree: ReturnType<typeof parseFeelExpression>): string {
  const out: string[] = [];
  tree.iterate({ enter: (node) => void out.push(`${node.name}@${node.from}-${node.to}`) });
  return out.join(" ");
}

const TEXTS = [
  "output.is_complete = true",
  'output.score >= 0.8 and output.status != "rejected"',
  "not(output.done)",
  "output.a >",
  "if output.x then 1 else 2",
  "output.items[1].name = 'x'",
  'date("2024-01-01") < today()',
  "some x in output.list satisfies x > 3",
  "",
  'output."weird name" = null',
];

describe("parseFeelExpression", () => {
  it.each(TEXTS)("gives feelin's tree for %j", (text) => {
    const tree = parseFeelExpression(text);
    expect(shape(tree)).toBe(shape(parseExpression(text, {}, undefined)));
    expect(tree.topNode.name).toBe("Expression");
  });

  it("gives feelin's tree for any text", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^[a-z_. =<>!()"'0-9andortu[\]]{0,40}$/)),
        (text) => {
          expect(shape(parseFeelExpression(text))).toBe(
            shape(parseExpression(text, {}, undefined)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
