/**
 * String facts whose values have one form, refused against a literal of another (red team:
 * `element.type = "bpmn:serviceTask"`, the XML's spelling, and `id = "tool:send-loan-offer"`,
 * the contract's id, compiled and never matched): the BPMN element types as bpmn-moddle names
 * them, a tool's id without `tool:`, refs and versions in full.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { BPMN_FLOW_NODE_TYPES } from "../../src/policy/fact-literals.js";
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
      'id = "tool:send-loan-offer"',
      "tool",
      5,
      `'id' is a string or null, but never "tool:send-loan-offer": a tool's id is its contract's id without the "tool:" it starts with, so this comparison never holds as meant (write "send-loan-offer", or compare 'ref')`,
    ],
    [
      'some t in tools satisfies t.id in ["read-crm", "tool:pay"]',
      "agentTask",
      47,
      `'t.id' is a string or null, but never "tool:pay": a tool's id is its contract's id without the "tool:" it starts with, so this comparison never holds as meant (write "pay", or compare 'ref')`,
    ],
    [
      'ref = "tool:send-loan-offer@1.1"',
      "tool",
      6,
      `'ref' is a string or null, but never "tool:send-loan-offer@1.1": a ref is held with its version in full, so this comparison never holds as meant (write "tool:send-loan-offer@1.1.0")`,
    ],
    [
      'ref != "agnt-offer@2"',
      "agentTask",
      7,
      `'ref' is a string or null, but never "agnt-offer@2": a ref is held with its version in full, so this comparison never holds as meant (write "agnt-offer@2.0.0")`,
    ],
    [
      'version = "1.2"',
      "workflow",
      10,
      `'version' is a string, but never "1.2": a version is held in full, so this comparison never holds as meant (write "1.2.0")`,
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
  ] as const)("accepts %s (%s)", (when, subject) => {
    expect(problemsOf(when, subject)).toEqual([]);
  });
});
