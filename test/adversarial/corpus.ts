/**
 * The adversarial corpus (issue 8, item 3): the small crafted cases are files in `cases/`, the big
 * ones (1e6-character strings, 1e5-element arrays, 10,000-deep nesting) are built here in memory.
 * README.md lists every case and what it attacks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { generateWorkflow } from "../../bench/generate.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import type { AdversarialCase } from "./build.js";
import { bpmnWith, nested, template, text, value, withCondition, withToolConfig } from "./build.js";
import { CRAFTED } from "./crafted.js";

/** A million characters. */
export const MILLION = 1_000_000;
/** A hundred thousand elements. */
export const HUNDRED_K = 100_000;
/** Ten thousand levels. */
export const DEEP = 10_000;

const CASES_DIR = new URL("./cases/", import.meta.url);

/** Every file in `cases/`, read as the CLI reads files (UTF-8, invalid bytes become U+FFFD). */
function fileCases(): AdversarialCase[] {
  return readdirSync(CASES_DIR)
    .filter((name) => /\.(json|yaml|bpmn)$/.test(name))
    .sort()
    .map((name) => ({
      name,
      input: () => ({ kind: "text", text: readFileSync(new URL(name, CASES_DIR), "utf8") }),
    }));
}

const LONG = (): string => "a".repeat(MILLION);

const STRINGS: AdversarialCase[] = [
  text("string-1e6-yaml-scalar", LONG),
  text("string-1e6-json-array", () => `["${LONG()}"]`),
  text("string-1e6-unterminated-json", () => `{"kind":"AgentWorkflow","id":"${LONG()}`),
  text("string-1e6-one-line-error", () => `{"a":[${"1,".repeat(MILLION / 2)}]`),
  text("string-1e6-yaml-comment-lines", () => "#\n".repeat(MILLION / 2) + "a: [\n"),
  value("string-1e6-id", () => ({ ...template(), id: `a${LONG()}` })),
  value("string-1e6-name", () => ({ ...template(), name: LONG(), description: LONG() })),
  value("string-1e6-key", () => ({ ...template(), inputSchema: { [LONG()]: "text" } })),
  value("string-1e6-version", () => ({
    ...template(),
    version: `1.0.0-${"a.".repeat(MILLION / 2)}`,
  })),
  value("string-1e6-feel-condition", () => withCondition("output.a = 1 and ".repeat(58_824))),
  value("string-1e6-text-condition", () => withCondition(LONG(), "text")),
  value("string-1e6-refs", () => {
    const wf = template();
    const edge = { from: "llm-1", to: `agnt-${"a-".repeat(MILLION / 2)}@`, edgeType: "delegate" };
    return {
      ...withToolConfig({ usesTool: `tool:${"a.".repeat(MILLION / 2)}@1.0.0-!` }),
      edges: [...wf.edges, edge],
    };
  }),
  value("string-1e6-param-templates", () =>
    withToolConfig({
      usesTool: "tool:browser-search@1.2.0",
      params: {
        open: "{{".repeat(MILLION / 2),
        path: `{{input.${"a.".repeat(MILLION / 2)}}}`,
        spaces: `{{${" ".repeat(MILLION)}`,
      },
    }),
  ),
  value("string-1e6-type-expression", () => ({
    ...template(),
    inputSchema: { deep: `text${"[]".repeat(MILLION / 2)}`, open: `text${"[".repeat(MILLION)}` },
  })),
];

/** A valid two-node workflow with `count` copies of the same data edge. */
function duplicateEdges(count: number): AgentWorkflow {
  const wf = template();
  const copies = Array.from({ length: count }, () => ({
    from: "llm-1",
    to: "tool-2",
    edgeType: "data" as const,
  }));
  return { ...wf, edges: [...wf.edges, ...copies] };
}

/**
 * A workflow of 100,000 nodes, edges, cases or keys goes through the text parsers as JSON text
 * once, as `array-1e5-chain-and-keys` (100,000 nodes and edges, an object of 100,000 keys): the
 * other workflows of that size would read the same arrays and keys through the same reader.
 */
const BIG_TEXT_ONCE = { asText: false } as const;

const ARRAYS: AdversarialCase[] = [
  value("array-1e5-nodes-of-numbers", () => ({
    ...template(),
    nodes: Array<number>(HUNDRED_K).fill(0),
  })),
  value("array-1e5-duplicate-edges", () => duplicateEdges(HUNDRED_K), BIG_TEXT_ONCE),
  value(
    "array-1e5-dangling-edges",
    () => ({
      ...template(),
      edges: Array.from({ length: HUNDRED_K }, (_, i) => ({
        from: `ghost-${i}`,
        to: `ghost-${i + 1}`,
        edgeType: "data",
      })),
    }),
    BIG_TEXT_ONCE,
  ),
  value("array-1e5-metadata", () => ({
    ...template(),
    metadata: { list: Array.from({ length: HUNDRED_K }, (_, i) => i) },
  })),
  value(
    "array-1e5-schema-fields",
    () => ({
      ...template(),
      inputSchema: Object.fromEntries(
        Array.from({ length: HUNDRED_K }, (_, i) => [`f${i}`, "text"]),
      ),
    }),
    BIG_TEXT_ONCE,
  ),
  value(
    "array-1e5-decision-cases",
    () => generateWorkflow(HUNDRED_K, "wide-findings"),
    BIG_TEXT_ONCE,
  ),
  // The chain alone is this case without its keys: every call this one makes, it made too.
  value("array-1e5-chain-and-keys", () => ({
    ...generateWorkflow(HUNDRED_K, "chain"),
    metadata: Object.fromEntries(Array.from({ length: HUNDRED_K }, (_, i) => [`k${i}`, i])),
  })),
  text(
    "array-1e5-yaml-sequence",
    () => "kind: AgentWorkflow\nnodes:\n" + "- 1\n".repeat(HUNDRED_K),
  ),
  text("array-1e5-json-array", () => `[${"0,".repeat(HUNDRED_K)}0]`),
];

const DEPTH: AdversarialCase[] = [
  text("deep-10k-json-array", () => "[".repeat(DEEP) + "]".repeat(DEEP)),
  text("deep-10k-json-metadata", () => {
    const json = JSON.stringify(template());
    const deep = '{"d":'.repeat(DEEP) + "1" + "}".repeat(DEEP);
    return `${json.slice(0, -1)},"metadata":${deep}}`;
  }),
  text("deep-10k-yaml-flow", () => "a: " + "[".repeat(DEEP) + "]".repeat(DEEP)),
  text("deep-10k-yaml-block-sequence", () => "- ".repeat(DEEP) + "x\n"),
  // Refused at level 257 while reading: time linear in the input, never a million-level tree.
  text("deep-1e6-yaml-flow", () => "[".repeat(MILLION) + "]".repeat(MILLION)),
  text("deep-1e6-yaml-block-sequence", () => "- ".repeat(MILLION) + "x\n"),
  value("deep-10k-metadata", () => ({ ...template(), metadata: nested(DEEP, 1, (d) => ({ d })) })),
  value("deep-10k-json-schema-field", () => ({
    ...template(),
    inputSchema: {
      q: nested(DEEP, { type: "string" }, (d) => ({ type: "object", properties: { d } })),
    },
  })),
  value("deep-10k-tool-params", () =>
    withToolConfig({
      usesTool: "tool:browser-search@1.2.0",
      params: { q: nested(DEEP, "{{input.query}}", (d) => ({ d, e: ["{{input.query}}"] })) },
    }),
  ),
  value("deep-10k-feel-parentheses", () =>
    withCondition("(".repeat(DEEP) + "true" + ")".repeat(DEEP)),
  ),
  value("deep-feel-parentheses-under-length-limit", () =>
    withCondition("(".repeat(4_990) + "true" + ")".repeat(4_990)),
  ),
  value("deep-10k-feel-negations", () =>
    withCondition("not(".repeat(2_000) + "true" + ")".repeat(2_000)),
  ),
  text("deep-10k-bpmn-subprocesses", () => bpmnNested(DEEP)),
  text("deep-10k-xml-extension-elements", () =>
    bpmnWith(
      `<bpmn:task id="t"><bpmn:extensionElements>${"<x:a>".repeat(DEEP)}${"</x:a>".repeat(DEEP)}</bpmn:extensionElements></bpmn:task>`,
    ),
  ),
];

function bpmnNested(depth: number): string {
  const agent =
    '<bpmn:task id="agent"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-deep@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:task>';
  let open = "";
  for (let i = 0; i < depth; i++) open += `<bpmn:subProcess id="sp${i}">`;
  return bpmnWith(open + agent + "</bpmn:subProcess>".repeat(depth));
}

/** Every case: the files, then the generated big ones, then the crafted values. */
export const CORPUS: readonly AdversarialCase[] = [
  ...fileCases(),
  ...STRINGS,
  ...ARRAYS,
  ...DEPTH,
  ...CRAFTED,
];
