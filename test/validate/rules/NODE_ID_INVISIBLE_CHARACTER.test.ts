import { rule } from "../../../src/validate/rules/NODE_ID_INVISIBLE_CHARACTER.js";
import { edge, llm, minimal, workflow } from "../builders.js";
import { RuleTester } from "../../../src/testing/index.js";

const CODE = "NODE_ID_INVISIBLE_CHARACTER";

await new RuleTester().run(rule.meta.code, rule, {
  valid: [
    { name: "printable ids", workflow: minimal() },
    {
      name: "letters of any script, spaces and punctuation print",
      workflow: workflow(
        [llm("prüfen"), llm("审查 step-2"), llm("a\\u{202E}")],
        [edge("prüfen", "审查 step-2")],
      ),
    },
  ],
  invalid: [
    {
      name: "a right-to-left override",
      workflow: workflow([llm("approve\u202Eevorppa")], []),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "approve\u202Eevorppa" },
          path: "/nodes/0/id",
          data: { index: 0, count: 1, characters: ["\\u{202E}"], offsets: [7] },
        },
      ],
    },
    {
      name: "NUL, a newline and a zero-width space, each said",
      workflow: workflow([llm("ok"), llm("pay\u0000\n\u200B")], [edge("ok", "pay\u0000\n\u200B")]),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "pay\u0000\n\u200B" },
          path: "/nodes/1/id",
          data: { count: 3, characters: ["\\u{0}", "\\n", "\\u{200B}"], offsets: [3, 4, 5] },
        },
      ],
    },
    {
      name: "an isolate, a BOM and a line separator",
      workflow: workflow([llm("\u2066a\u2069\uFEFF\u2028")], []),
      errors: [
        {
          code: CODE,
          target: { kind: "node", nodeId: "\u2066a\u2069\uFEFF\u2028" },
          path: "/nodes/0/id",
          data: { characters: ["\\u{2066}", "\\u{2069}", "\\u{FEFF}", "\\u{2028}"] },
        },
      ],
    },
  ],
});
