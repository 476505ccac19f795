import { describe, expect, it } from "vitest";
import { readDocumentText } from "../../../src/model/text/index.js";
import type { ReadResult, TextFormat } from "../../../src/model/text/index.js";

type Brief = [code: string, path: string, line: number, column: number];

/** Problems as `[code, path, line, column]`: what tests assert (never the wording). */
function brief(result: ReadResult): Brief[] {
  return result.problems.map((p) => [p.code, p.path, p.location.line, p.location.column]);
}

function valueOf(result: ReadResult): unknown {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.problems)}`);
  return result.value;
}

const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...["b", "c", "d", "e", "f", "g", "h", "i"].map(
    (name, i) =>
      `${name}: &${name} [${Array(9)
        .fill(`*${"abcdefgh"[i] ?? ""}`)
        .join(",")}]`,
  ),
].join("\n");

describe("readDocumentText: JSON syntax errors", () => {
  const cases: [name: string, text: string, line: number, column: number][] = [
    ["junk after a member", '{"a": 1 x}', 1, 9],
    ["missing comma between members", '{"a":1 "b":2}', 1, 8],
    ["trailing comma in an array (at the comma)", "[1,]", 1, 3],
    ["trailing comma in an object (at the comma)", '{"a":1,}', 1, 7],
    ["a bare word on line 2", '{"a":\n  tru}', 2, 3],
    ["True is not a literal", "[True]", 1, 2],
    ["leading zero", '{\n  "a": 1,\n  "b": 01\n}', 3, 9],
    ["raw tab inside a string", '["a\tb"]', 1, 4],
    ["single-quoted property name", "{'a': 1}", 1, 2],
    ["invalid escape", '["\\q"]', 1, 3],
    ["short \\u escape", '["\\u12G4"]', 1, 3],
    ["unclosed string (at its quote)", '{"a": "open', 1, 7],
    ["unclosed array (at the end)", "[1, 2", 1, 6],
    ["text after the value", '{"a": 1} x', 1, 10],
    ["missing colon", '{"a" 1}', 1, 6],
    ["comment", "[1, // c\n 2]", 1, 5],
    ["minus without digits", "[-]", 1, 3],
    ["decimal point without digits", "[1.]", 1, 4],
    ["exponent without digits", "[1e]", 1, 4],
    ["lone CR ends a line", "[1,\r2,\rx]", 3, 1],
    ["CRLF counts as one line break", '{\r\n"a": 1,\r\n"b" 2}', 3, 5],
    ["a 10,000-deep array never closed", "[".repeat(10_000), 1, 10_001],
  ];
  it.each(cases)("%s", (_name, text, line, column) => {
    const result = readDocumentText(text);
    expect(result.ok).toBe(false);
    expect(result.format).toBe("json");
    expect(brief(result)).toEqual([["SYNTAX_ERROR", "", line, column]]);
  });

  it("reports an empty text when JSON is forced", () => {
    expect(brief(readDocumentText("", { format: "json" }))).toEqual([["SYNTAX_ERROR", "", 1, 1]]);
    expect(brief(readDocumentText("1e400", { format: "json" }))).toEqual([
      ["SYNTAX_ERROR", "", 1, 1],
    ]);
    expect(brief(readDocumentText("a: 1", { format: "json" }))).toEqual([
      ["SYNTAX_ERROR", "", 1, 1],
    ]);
  });

  it("says what is wrong in words a person understands", () => {
    const message = (text: string) => readDocumentText(text).problems[0]?.message ?? "";
    expect(message("[1,]")).toMatch(/trailing comma/i);
    expect(message("[1, // c\n 2]")).toMatch(/comments/i);
    expect(message("{'a': 1}")).toMatch(/double quotes/i);
    expect(message("[None]")).toMatch(/'None'/);
  });
});

describe("readDocumentText: duplicate keys and numbers", () => {
  const cases: [name: string, text: string, problems: Brief[]][] = [
    ["top level", '{"a": 1, "a": 2}', [["DUPLICATE_KEY", "/a", 1, 10]]],
    ["nested", '{"x": {"y": 1, "y": 2}}', [["DUPLICATE_KEY", "/x/y", 1, 16]]],
    [
      "in an array of objects",
      '{\n  "nodes": [\n    { "id": "a" },\n    { "id": "b", "id": "c" }\n  ]\n}',
      [["DUPLICATE_KEY", "/nodes/1/id", 4, 18]],
    ],
    ["in a root array", '[{"a":1},{"a":1,"a":2}]', [["DUPLICATE_KEY", "/1/a", 1, 17]]],
    [
      "keys needing escapes",
      '{"a/b": {"m~n": 1, "m~n": 2}}',
      [["DUPLICATE_KEY", "/a~1b/m~0n", 1, 20]],
    ],
    [
      "the same key spelled with an escape",
      '{"a": 1, "\\u0061": 2}',
      [["DUPLICATE_KEY", "/a", 1, 10]],
    ],
    ["the empty key", '{"":1,"":2}', [["DUPLICATE_KEY", "/", 1, 7]]],
    [
      "three times: each repeat",
      '{"k":1,"k":2,"k":3}',
      [
        ["DUPLICATE_KEY", "/k", 1, 8],
        ["DUPLICATE_KEY", "/k", 1, 14],
      ],
    ],
    [
      "before a syntax error, in document order",
      '{"a":1,"a":2,}',
      [
        ["DUPLICATE_KEY", "/a", 1, 8],
        ["SYNTAX_ERROR", "", 1, 13],
      ],
    ],
    ["the same key in sibling objects is fine", '[{"a":1},{"a":2}]', []],
    ["JSON: a number beyond a double", '{"a": 1e400}', [["SYNTAX_ERROR", "/a", 1, 7]]],
    ["JSON: a negative one in an array", "[1, -1e999]", [["SYNTAX_ERROR", "/1", 1, 5]]],
    ["JSON: 400 digits", `[${"9".repeat(400)}]`, [["SYNTAX_ERROR", "/0", 1, 2]]],
    ["JSON: the largest double and an underflow are fine", "[1.7e308, 1e-400]", []],
    ["YAML: top level", "a: 1\na: 2\n", [["DUPLICATE_KEY", "/a", 2, 1]]],
    ["YAML: nested", "x:\n  y: 1\n  y: 2\n", [["DUPLICATE_KEY", "/x/y", 3, 3]]],
    [
      "YAML: in a sequence of mappings",
      "nodes:\n  - id: a\n    id: b\n",
      [["DUPLICATE_KEY", "/nodes/0/id", 3, 5]],
    ],
    [
      "YAML: keys needing escapes",
      '"a/b":\n  m~n: 1\n  m~n: 2\n',
      [["DUPLICATE_KEY", "/a~1b/m~0n", 3, 3]],
    ],
    ["YAML: 1 and '1' are one property", "1: a\n'1': b\n", [["DUPLICATE_KEY", "/1", 2, 1]]],
  ];
  it.each(cases)("%s", (_name, text, problems) => {
    const result = readDocumentText(text);
    expect(brief(result)).toEqual(problems);
    expect(result.ok).toBe(problems.length === 0);
  });

  it("finds duplicates in a YAML flow mapping", () => {
    expect(brief(readDocumentText("{a: 1, a: 2}", { format: "yaml" }))).toEqual([
      ["DUPLICATE_KEY", "/a", 1, 8],
    ]);
  });

  it("keeps the message short for a megabyte-long key", () => {
    const key = "k".repeat(1_000_000);
    const result = readDocumentText(`{"${key}": 1, "${key}": 2}`);
    expect(result.problems[0]?.code).toBe("DUPLICATE_KEY");
    expect(result.problems[0]?.message.length).toBeLessThan(300);
  });
});

describe("readDocumentText: YAML problems", () => {
  const cases: [name: string, text: string, problems: Brief[]][] = [
    ["unclosed flow sequence", "a: [1, 2\nb: 3\n", [["SYNTAX_ERROR", "", 2, 1]]],
    ["unclosed quote", "a: 'unterminated\n", [["SYNTAX_ERROR", "", 2, 1]]],
    ["bad escape", 'a: "x\\q"\n', [["SYNTAX_ERROR", "", 1, 6]]],
    ["stray bracket", "key: [1, 2]]\n", [["SYNTAX_ERROR", "", 1, 12]]],
    ["tab indentation", "a:\n\tb: 1\n", [["SYNTAX_ERROR", "", 2, 1]]],
    ["two documents", "a: 1\n---\nb: 2\n", [["SYNTAX_ERROR", "", 2, 1]]],
    [
      "three documents: reported once",
      "a: 1\n---\nb: 2\n---\nc: 3\n",
      [["SYNTAX_ERROR", "", 2, 1]],
    ],
    ["a collection as a key", "? [a]\n: x\n", [["SYNTAX_ERROR", "", 1, 3]]],
    ["an application tag", "a: !foo 1\n", [["SYNTAX_ERROR", "", 1, 4]]],
    ["a tag that would run code elsewhere", "a: !!js/function 'f'\n", [["SYNTAX_ERROR", "", 1, 4]]],
    ["!!binary is not resolved", "a: !!binary aGVsbG8=\n", [["SYNTAX_ERROR", "", 1, 4]]],
    [
      "YAML 1.1 !!set is not resolved",
      "%YAML 1.1\n---\na: !!set {x, y}\n",
      [
        ["SYNTAX_ERROR", "", 1, 1],
        ["SYNTAX_ERROR", "", 3, 4],
      ],
    ],
    // Read as 1.2, `yes` would be a string and `010` ten to a reader of the 1.1 its author wrote.
    ["a YAML 1.1 document", "%YAML 1.1\n---\na: yes\nb: 010\n", [["SYNTAX_ERROR", "", 1, 1]]],
    // A merge to PyYAML and js-yaml, a key named "<<" to YAML 1.2: the tools would differ.
    [
      "a merge key",
      "base: &b {level: 5}\nnode:\n  <<: *b\n  id: n1\n",
      [["SYNTAX_ERROR", "/node/<<", 3, 3]],
    ],
    ["a merge key in a flow mapping", "a: {<<: {x: 1}, y: 2}\n", [["SYNTAX_ERROR", "/a/<<", 1, 5]]],
    ["an alias with no anchor", "a: *x\n", [["SYNTAX_ERROR", "/a", 1, 4]]],
    ["an alias inside its own anchor", "a: &x [*x]\n", [["SYNTAX_ERROR", "/a/0", 1, 8]]],
    [
      "numbers JSON cannot hold",
      "a: .inf\nb: -.Inf\nc: .nan\nd: 1e400\n",
      [
        ["SYNTAX_ERROR", "/a", 1, 4],
        ["SYNTAX_ERROR", "/b", 2, 4],
        ["SYNTAX_ERROR", "/c", 3, 4],
        ["SYNTAX_ERROR", "/d", 4, 4],
      ],
    ],
  ];
  it.each(cases)("%s", (_name, text, problems) => {
    const result = readDocumentText(text);
    expect(result.format).toBe("yaml");
    expect(result.ok).toBe(false);
    expect(brief(result)).toEqual(problems);
  });

  it.each([
    [
      "UTF-16LE with its mark",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a": 1}', "utf16le")]),
      "UTF-16LE",
    ],
    ["UTF-16BE with its mark", Buffer.from([0xfe, 0xff, 0, 0x7b, 0, 0x7d]), "UTF-16BE"],
    ["UTF-16LE without a mark", Buffer.from("a: 1\nb: 2\n", "utf16le"), "UTF-16LE"],
  ])(
    "says a text in %s is not UTF-8, rather than a syntax error at its first character",
    (_name, bytes, encoding) => {
      const result = readDocumentText(bytes.toString("utf8"));
      expect(brief(result)).toEqual([["SYNTAX_ERROR", "", 1, 1]]);
      expect(result.problems[0]?.message).toBe(
        `The text is encoded as ${encoding}; agentflow reads documents as UTF-8 only: save it as UTF-8.`,
      );
    },
  );

  it("reads a UTF-8 text with its byte-order mark, and two replacement characters as text", () => {
    expect(readDocumentText('\uFEFF{"a": 1}').ok).toBe(true);
    expect(readDocumentText("\uFFFD\uFFFD: x\n").ok).toBe(true);
  });

  it("says a second document is one too many for any agentflow file, not only a workflow", () => {
    expect(readDocumentText("a: 1\n---\nb: 2\n").problems[0]?.message).toBe(
      "The text holds more than one YAML document; an agentflow file (a workflow, a tool contract, a policy pack) holds exactly one.",
    );
  });

  // Without the expansion limit this would not finish: the test timeout is the hang guard.
  it("stops a billion-laughs alias bomb with a problem", { timeout: 5_000 }, () => {
    const result = readDocumentText(BILLION_LAUGHS);
    // Counted in characters of JSON text: d's seventh copy of c (4,555 characters) is one too many.
    expect(brief(result)).toEqual([["SYNTAX_ERROR", "/d/6", 4, 26]]);
    expect(result.problems[0]?.message).toBe(
      "Aliases expand this document beyond 34100 characters of JSON text (100 per character of its text, at most 67108864); reading stopped, as for an alias bomb.",
    );
  });

  it("resolves many aliases in linear time", () => {
    let text = "";
    for (let i = 0; i < 20_000; i += 1) text += `a${i}: &a${i} {v: ${i}}\nb${i}: *a${i}\n`;
    const value = valueOf(readDocumentText(text)) as Record<string, unknown>;
    expect(value.b19999).toEqual({ v: 19_999 });
  });

  it("refuses YAML nested deeper than its composer can take, the same way every time", () => {
    for (const text of ["[".repeat(10_000) + "]".repeat(10_000), "- ".repeat(10_000) + "x"]) {
      const first = readDocumentText(text, { format: "yaml" });
      expect(first.ok).toBe(false);
      expect(readDocumentText(text, { format: "yaml" })).toEqual(first);
    }
    expect(brief(readDocumentText("[".repeat(257) + "]".repeat(257), { format: "yaml" }))).toEqual([
      ["SYNTAX_ERROR", "", 1, 257],
    ]);
    expect(readDocumentText("[".repeat(256) + "]".repeat(256), { format: "yaml" }).ok).toBe(true);
  });
});

describe("readDocumentText: values, BOM and format", () => {
  const cases: [name: string, text: string, format: TextFormat, value: unknown][] = [
    ["a JSON object", '{"a": [1, true, null, "x"]}', "json", { a: [1, true, null, "x"] }],
    ["JSON after whitespace", '  \n {"a":1}', "json", { a: 1 }],
    ["JSON after a BOM", '\uFEFF{"a": 1}', "json", { a: 1 }],
    ["YAML after a BOM", "\uFEFFa: 1\n", "yaml", { a: 1 }],
    ["a YAML mapping", "a: 1\nb: [x, 2.5]\n", "yaml", { a: 1, b: ["x", 2.5] }],
    ["a JSON scalar is read as YAML", '"just text"', "yaml", "just text"],
    ["a number is read as YAML", "42", "yaml", 42],
    ["an empty text is YAML null", "", "yaml", null],
    [
      "YAML keys are kept as written",
      "1.0: a\n~: b\ntrue: c\n",
      "yaml",
      { "1.0": "a", "~": "b", true: "c" },
    ],
    ["YAML 1.1 booleans stay strings", "a: yes\nb: off\n", "yaml", { a: "yes", b: "off" }],
    [
      "aliases copy their anchor's value",
      "a: &x {k: 1}\nb: *x\n",
      "yaml",
      { a: { k: 1 }, b: { k: 1 } },
    ],
    ["a document marker alone", "---\na: 1\n...\n", "yaml", { a: 1 }],
  ];
  it.each(cases)("%s", (_name, text, format, value) => {
    const result = readDocumentText(text);
    expect(result.format).toBe(format);
    expect(valueOf(result)).toEqual(value);
  });

  it("counts positions after a BOM, as editors show them", () => {
    expect(brief(readDocumentText('\uFEFF{"a": 1, "a": 2}'))).toEqual([
      ["DUPLICATE_KEY", "/a", 1, 10],
    ]);
    expect(brief(readDocumentText("\uFEFF[1,]"))).toEqual([["SYNTAX_ERROR", "", 1, 3]]);
    expect(brief(readDocumentText("\uFEFFa: 1\na: 2\n"))).toEqual([["DUPLICATE_KEY", "/a", 2, 1]]);
  });

  it("reads a YAML flow mapping as JSON unless told otherwise", () => {
    expect(brief(readDocumentText("{a: 1}"))).toEqual([["SYNTAX_ERROR", "", 1, 2]]);
    expect(valueOf(readDocumentText("{a: 1}", { format: "yaml" }))).toEqual({ a: 1 });
  });

  it("reads a quoted << as a key, and a document that declares YAML 1.2", () => {
    expect(valueOf(readDocumentText("a:\n  '<<': 1\n"))).toEqual({ a: { "<<": 1 } });
    expect(valueOf(readDocumentText("%YAML 1.2\n---\na: yes\n"))).toEqual({ a: "yes" });
  });

  it("throws only on misuse", () => {
    expect(() => readDocumentText(42 as unknown as string)).toThrow(TypeError);
    expect(() => readDocumentText("{}", { format: "xml" as TextFormat })).toThrow(TypeError);
  });
});
