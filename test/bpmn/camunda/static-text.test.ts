/** staticText: the text a Zeebe input gives when the BPMN fixes it, else undefined. */
import { describe, expect, it } from "vitest";
import { staticText } from "../../../src/bpmn/camunda/static-text.js";

describe("staticText", () => {
  it.each([
    ["You are a refund desk.", "You are a refund desk."],
    ['="You are a refund desk."', "You are a refund desk."],
    ['= "two\nlines"  ', "two\nlines"],
    ['="say \\"hi\\"\\n\\tthen \\u00e9"', 'say "hi"\n\tthen é'],
    ['=""', ""],
  ])("%j is the text %j", (source, text) => {
    expect(staticText(source)).toBe(text);
  });

  it.each([
    ["=request.text"],
    ['="Hello " + name'],
    ['="a" + "b"'],
    ['="bad \\q escape"'],
    ['="it\\\'s"'],
    ['="\\u00e90"'],
  ])("%j is evaluated at run time: no static text", (source) => {
    expect(staticText(source)).toBeUndefined();
  });
});
