import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CheckedFile, RuleDescriptor } from "../../src/report/index.js";
import { formatJunit } from "../../src/report/index.js";
import { diag } from "./diag.js";

interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_][\w.-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*)="([^<"]*)"/y;
const TEXT = /[^<]*/y;
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** Decodes the references XML 1.0 predefines; anything else after `&` is not well-formed. */
function decode(raw: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${JSON.stringify(raw)}`);
    const value = ref.startsWith("#") ? String.fromCodePoint(Number(ref.slice(1))) : named[ref];
    if (value === undefined || !/^(#\d+|[a-z]+)$/.test(ref)) throw new Error(`bad ${whole}`);
    return value;
  });
}

/**
 * A minimal XML 1.0 well-formedness checker for what the formatter emits (a declaration, elements,
 * attributes, text): enough to prove the output parses, without an XML dependency.
 */
function parseXml(xml: string): XmlElement {
  expect(XML_CHARS.test(xml)).toBe(true);
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(xml.startsWith(declaration)).toBe(true);
  let at = declaration.length;
  const match = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = at;
    const m = re.exec(xml);
    if (m !== null) at = re.lastIndex;
    return m;
  };
  const root: XmlElement = { name: "#root", attributes: {}, children: [], text: "" };
  const stack = [root];
  while (at < xml.length) {
    const parent = stack.at(-1) ?? root;
    if (xml.startsWith("</", at)) {
      at += 2;
      const name = match(NAME)?.[0];
      if (name !== parent.name || xml[at] !== ">") throw new Error(`bad close at ${at}`);
      at += 1;
      stack.pop();
    } else if (xml[at] === "<") {
      at += 1;
      const name = match(NAME)?.[0];
      if (name === undefined) throw new Error(`bad tag at ${at}`);
      const element: XmlElement = { name, attributes: {}, children: [], text: "" };
      for (let m = match(ATTRIBUTE); m !== null; m = match(ATTRIBUTE)) {
        const [, key = "", value = ""] = m;
        if (key in element.attributes) throw new Error(`duplicate ${key}`);
        element.attributes[key] = decode(value);
      }
      parent.children.push(element);
      if (xml.startsWith("/>", at)) at += 2;
      else if (xml[at] === ">") {
        at += 1;
        stack.push(element);
      } else throw new Error(`bad tag end at ${at}`);
    } else {
      const raw = match(TEXT)?.[0] ?? "";
      if (stack.length === 1 && raw.trim() !== "") throw new Error("text outside the root");
      parent.text += decode(raw);
    }
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error("unbalanced");
  const [document] = root.children;
  if (document === undefined) throw new Error("empty");
  return document;
}

describe("the test's XML checker", () => {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const malformed: readonly [string, string][] = [
    ["a bare ampersand in an attribute", '<a b="x&y"/>'],
    ["a bare ampersand in text", "<a>x & y</a>"],
    ["a raw < in an attribute", '<a b="<"/>'],
    ["an unknown entity", "<a>&nbsp;</a>"],
    ["a mismatched close", "<a><b></a></b>"],
    ["an unclosed element", "<a>"],
    ["two roots", "<a/><b/>"],
    ["a NUL character", "<a>\u0000</a>"],
    ["a duplicate attribute", '<a b="1" b="2"/>'],
  ];
  it.each(malformed)("rejects %s", (_name, body) => {
    expect(() => parseXml(head + body)).toThrow();
  });
});

const SMALL: CheckedFile[] = [
  {
    file: "flows/a.json",
    kind: "AgentWorkflow",
    diagnostics: [
      diag("RETRY_WITHOUT_MAX", "error", {
        target: { kind: "node", nodeId: "check" },
        path: "/nodes/2",
        location: { line: 10, column: 3 },
        remediation: "Set maxRetries.",
      }),
      diag("NODE_UNREACHABLE", "warning", { path: "/nodes/4" }),
      diag("AUTONOMY_SELF_MODIFYING", "info"),
    ],
  },
  { file: "flows/b.json", kind: "AgentWorkflow", diagnostics: [] },
];

const RULES: RuleDescriptor[] = [
  {
    code: "RETRY_WITHOUT_MAX",
    description: "A retry has no bound.",
    defaultSeverity: "error",
    helpUri: "https://example.com/retry",
  },
];

describe("formatJunit", () => {
  it("renders a small case exactly", () => {
    expect(formatJunit(SMALL, { rules: RULES })).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="agentflow" tests="4" failures="1" errors="0">
  <testsuite name="flows/a.json" tests="3" failures="1" errors="0">
    <testcase classname="flows/a.json" name="RETRY_WITHOUT_MAX check">
      <failure type="RETRY_WITHOUT_MAX" message="RETRY_WITHOUT_MAX msg">error: RETRY_WITHOUT_MAX msg
Set maxRetries.
at flows/a.json:10:3 (/nodes/2)
see https://example.com/retry</failure>
    </testcase>
    <testcase classname="flows/a.json" name="NODE_UNREACHABLE /nodes/4">
      <system-out>warning: NODE_UNREACHABLE msg
at flows/a.json (/nodes/4)
see https://agentflow.dev/docs/rules/NODE_UNREACHABLE.md</system-out>
    </testcase>
    <testcase classname="flows/a.json" name="AUTONOMY_SELF_MODIFYING">
      <system-out>info: AUTONOMY_SELF_MODIFYING msg
at flows/a.json (the whole document)
see https://agentflow.dev/docs/rules/AUTONOMY_SELF_MODIFYING.md</system-out>
    </testcase>
  </testsuite>
  <testsuite name="flows/b.json" tests="1" failures="0" errors="0">
    <testcase classname="flows/b.json" name="no problems"/>
  </testsuite>
</testsuites>
`,
    );
  });

  it("renders no files as an empty, well-formed report", () => {
    const xml = formatJunit([]);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<testsuites name="agentflow" tests="0" failures="0" errors="0">\n</testsuites>\n',
    );
    expect(parseXml(xml).children).toEqual([]);
  });

  const counts: readonly [string, CheckedFile[], [number, number, number]][] = [
    ["a clean file counts as one passing test", SMALL.slice(1), [1, 0, 0]],
    [
      "warnings and infos pass",
      [
        {
          file: "w",
          kind: "unknown",
          diagnostics: [diag("W", "warning"), diag("I", "info")],
        },
      ],
      [2, 0, 0],
    ],
    [
      "each error fails",
      [{ file: "e", kind: "unknown", diagnostics: [diag("E", "error"), diag("E", "error")] }],
      [2, 2, 0],
    ],
    [
      "a crashed rule is an error, not a failure",
      [{ file: "c", kind: "unknown", diagnostics: [diag("RULE_CRASHED", "error")] }],
      [1, 0, 1],
    ],
    ["totals add up over files", SMALL, [4, 1, 0]],
  ];
  it.each(counts)("%s", (_name, files, [tests, failures, errors]) => {
    const suites = parseXml(formatJunit(files));
    expect(suites.attributes).toEqual({
      name: "agentflow",
      tests: String(tests),
      failures: String(failures),
      errors: String(errors),
    });
    const cases = suites.children.flatMap((s) => s.children);
    expect(cases).toHaveLength(tests);
    const tags = cases.flatMap((c) => c.children.map((child) => child.name));
    expect(tags.filter((t) => t === "failure")).toHaveLength(failures);
    expect(tags.filter((t) => t === "error")).toHaveLength(errors);
  });
});

describe("formatJunit: escaping", () => {
  const table: readonly [string, string, string][] = [
    ["&", "&amp;", "&amp;"],
    ["<", "&lt;", "&lt;"],
    [">", "&gt;", "&gt;"],
    ['"', "&quot;", "&quot;"],
    ["'", "&apos;", "&apos;"],
    ["\n", "&#10;", "\n"],
    ["\r", "&#13;", "&#13;"],
    ["\t", "&#9;", "\t"],
    ["]]>", "]]&gt;", "]]&gt;"],
    ["\u0000", "", ""],
    ["\u0008", "", ""],
    ["\u000b\u000c", "", ""],
    ["\u001f", "", ""],
    ["\uFFFE\uFFFF", "", ""],
    ["\uD800", "", ""],
    ["\uDC00", "", ""],
    ["😀", "😀", "😀"],
    ["é\u2028", "é\u2028", "é\u2028"],
  ];
  it.each(table)("%j → attribute %j, content %j", (raw, inAttribute, inContent) => {
    const xml = formatJunit([
      { file: "f", kind: "unknown", diagnostics: [diag("E", "error", { message: raw })] },
    ]);
    expect(xml).toContain(`message="${inAttribute}">error: ${inContent}\n`);
  });

  const hostile = "x\"&<'>\u0000\u0007\r\n\t]]><!-- --><![CDATA[ \uD83D &amp; </testsuites>";
  it("keeps hostile file names, codes, paths and messages well-formed and intact", () => {
    const files: CheckedFile[] = [
      {
        file: hostile,
        kind: "unknown",
        diagnostics: [
          diag(hostile, "error", { message: hostile, remediation: hostile, path: "/" + hostile }),
        ],
      },
      { file: hostile, kind: "unknown", diagnostics: [] },
    ];
    const suites = parseXml(formatJunit(files));
    const stripped = hostile
      .replaceAll("\u0000", "")
      .replaceAll("\u0007", "")
      .replaceAll("\uD83D", "");
    const [first, second] = suites.children;
    expect(first?.attributes.name).toBe(stripped);
    const failure = first?.children[0]?.children[0];
    expect(failure?.attributes).toEqual({ type: stripped, message: stripped });
    expect(failure?.text.startsWith(`error: ${stripped}\n${stripped}\n`)).toBe(true);
    expect(second?.children[0]?.attributes).toEqual({ classname: stripped, name: "no problems" });
  });

  it("is well-formed for arbitrary strings", () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme-ascii" }));
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.constantFrom("error", "warning", "info"),
        (file, code, message, severity) => {
          const d = diag(code, severity, { message, path: message });
          const suites = parseXml(formatJunit([{ file, kind: "unknown", diagnostics: [d] }]));
          expect(suites.children).toHaveLength(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
