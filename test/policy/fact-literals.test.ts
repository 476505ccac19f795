/**
 * String facts whose values have one form, refused against a literal of another (red team:
 * `element.type = "bpmn:serviceTask"`, the XML's spelling, compiled and never matched): the BPMN
 * element types as bpmn-moddle names them, a tool's id never an `id@version`, versions in full.
 * Only a literal no value of the fact can equal is refused (review: `id = "tool:x"` is the id of
 * a tool written `tool:x`, and `ref = "mail@2"` the ref of a Camunda tool of that job type).
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { agentWorkflowRef, BPMN_FLOW_NODE_TYPES } from "../../src/policy/fact-literals.js";
import type { PolicySubject } from "../../src/policy/facts.js";
import { checkWhen } from "../../src/policy/feel-check.js";

const problemsOf = (when: string, subject: PolicySubject) =>
  checkWhen(when, subject).problems.map((p) => ({ from: p.from, message: p.message }));

const TYPES = BPMN_FLOW_NODE_TYPES.map((t) => JSON.stringify(t)).join(", ");
const ELEMENT_TYPE = `'element.type' is a BPMN flow node type (as bpmn-moddle names it), one of ${TYPES}`;

describe("element.type", () => {
  it.each([
    ['element.type = "bpmn:serviceTask"', 15, '"bpmn:serviceTask"', ' (write "bpmn:ServiceTask")'],
    ['element.type != "ServiceTask"', 16, '"ServiceTask"', ' (write "bpmn:ServiceTask")'],
    [
      'element.type in ["bpmn:UserTask", "bpmn:adHocSubProcess"]',
      34,
      '"bpmn:adHocSubProcess"',
      ' (write "bpmn:AdHocSubProcess")',
    ],
    ['element.type = "bpmn:AgentTask"', 15, '"bpmn:AgentTask"', ""],
  ] as const)("refuses %s, naming the type meant", (when, from, literal, meant) => {
    expect(problemsOf(when, "agentTask")).toEqual([
      {
        from,
        message: `${ELEMENT_TYPE}; ${literal} is none of them, so this comparison never holds as meant${meant}`,
      },
    ]);
  });

  it.each([
    'element.type = "bpmn:ServiceTask"',
    'element.type in ["bpmn:AdHocSubProcess", "bpmn:CallActivity"]',
    'some a in agentTasks satisfies a.element.type = "bpmn:Task"',
    'starts with(element.type, "bpmn:")',
  ])("accepts %s", (when) => {
    const subject = when.startsWith("some") ? "process" : "agentTask";
    expect(problemsOf(when, subject)).toEqual([]);
  });

  it("lists every concrete flow node type of bpmn-moddle's schema, and nothing else", () => {
    interface Type {
      name: string;
      isAbstract?: boolean;
      superClass?: string[];
    }
    const require = createRequire(import.meta.url);
    const schema = require("bpmn-moddle/resources/bpmn/json/bpmn.json") as { types: Type[] };
    const byName = new Map(schema.types.map((t) => [t.name, t]));
    const isFlowNode = (name: string): boolean =>
      name === "FlowNode" ||
      (byName.get(name)?.superClass ?? []).some((s) => isFlowNode(s.replace(/^bpmn:/, "")));
    const concrete = schema.types
      .filter((t) => t.isAbstract !== true && isFlowNode(t.name))
      .map((t) => `bpmn:${t.name}`);
    expect([...BPMN_FLOW_NODE_TYPES].sort()).toEqual(concrete.sort());
  });
});

describe("identity facts", () => {
  it.each([
    [
      'id = "tool:send-loan-offer@1.1.0"',
      "tool",
      5,
      `'id' is a string or null, but never "tool:send-loan-offer@1.1.0": a tool's id is never an id@version (that is its ref), so this comparison never holds as meant (write "send-loan-offer", or compare 'ref')`,
    ],
    [
      'some t in tools satisfies t.id in ["read-crm", "pay@1"]',
      "agentTask",
      47,
      `'t.id' is a string or null, but never "pay@1": a tool's id is never an id@version (that is its ref), so this comparison never holds as meant (write "pay", or compare 'ref')`,
    ],
    [
      'id = "tool:send-loan-offer"',
      "tool",
      5,
      `'id' is a string or null, but never "tool:send-loan-offer": a tool's id is its ref's id without 'tool:', so this comparison never holds as meant (write "send-loan-offer", or compare 'ref')`,
    ],
    [
      'some t in tools satisfies t.id in ["read-crm", "tool:x@latest"]',
      "agentTask",
      47,
      `'t.id' is a string or null, but never "tool:x@latest": a tool's id is its ref's id without 'tool:', so this comparison never holds as meant (write "x@latest", or compare 'ref')`,
    ],
    [
      'ref != "agnt-offer@2"',
      "agentTask",
      7,
      `'ref' is a string or null, but never "agnt-offer@2": an agent task's ref is held with its version in full, so this comparison never holds as meant (write "agnt-offer@2.0.0")`,
    ],
    [
      'version = "1.2"',
      "workflow",
      10,
      `'version' is a string, but never "1.2": a version is held in full, so this comparison never holds as meant (write "1.2.0")`,
    ],
    [
      'version != "1.1"',
      "tool",
      11,
      `'version' is a string or null, but never "1.1": a version is held in full, so this comparison never holds as meant (write "1.1.0")`,
    ],
  ] as const)("refuses %s (%s)", (when, subject, from, message) => {
    expect(problemsOf(when, subject)).toEqual([{ from, message }]);
  });

  it.each([
    ['id = "send-loan-offer" and ref = "tool:send-loan-offer@1.1.0"', "tool"],
    ['starts with(ref, "tool:send-loan-offer@") and version = "1.1.0"', "tool"],
    ['id = "acme:send" or ref = "io.camunda:http-json:1"', "tool"],
    ['ref = "agnt-offer@2.0.0" and process.id = "tool:x"', "agentTask"],
    ['delegates = null or list contains(delegates, "agnt-verify@1")', "workflow"],
    // The ref of a Camunda tool whose job type is written so.
    ['ref = "mail@2"', "tool"],
    ['ref = "tool:send-loan-offer@1.1"', "tool"],
    ['some t in tools satisfies t.ref in ["tool:pay@1"]', "workflow"],
  ] as const)("accepts %s (%s)", (when, subject) => {
    expect(problemsOf(when, subject)).toEqual([]);
  });

  it.each([
    ["agnt-offer@2", { instead: 'write "agnt-offer@2.0.0"' }],
    ["tool:x@1.1", { instead: 'write "tool:x@1.1.0"' }],
    ["agnt-offer@2.0.0", undefined],
    ["agnt-offer", undefined],
    ["a@2 | b@1", undefined],
  ] as const)("an agent task's ref is never %j written short", (literal, refusal) => {
    expect(agentWorkflowRef(literal)).toEqual(
      refusal === undefined
        ? undefined
        : { why: "an agent task's ref is held with its version in full", ...refusal },
    );
  });
});
