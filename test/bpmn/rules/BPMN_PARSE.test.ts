import { rule } from "../../../src/bpmn/rules/BPMN_PARSE.js";
import {
  agent,
  agentWorkflow,
  BPMN_NS,
  chain,
  endEvent,
  flow,
  gate,
  processXml,
  startEvent,
  task,
  templateAgent,
} from "../builders.js";
import { at, bpmnRuleTester } from "../rule-tester.js";

const CODE = "BPMN_PARSE";
/** The whole document: BPMN_PARSE's target when no element id is known. */
const DOCUMENT = at(CODE, "", "");
const registry = [agentWorkflow("agnt-two@1.0.0", 2)];

/** S → T → E, with `T` given. */
const around = (taskXml: string) =>
  processXml(startEvent("S"), taskXml, endEvent("E"), chain("S", "T", "E"));
const wellFormed = processXml(
  startEvent("S"),
  agent("A", { ref: "agnt-two@1.0.0", level: "2" }),
  gate("G"),
  endEvent("E"),
  chain("S", "A", "G", "E"),
);

await bpmnRuleTester(rule, {
  valid: [
    { name: "a well-formed process with an agent task and a gate", xml: wellFormed, registry },
    {
      name: "an attribute of a declared foreign namespace (zeebe:modelerTemplate) is kept silently",
      xml: processXml(templateAgent("A")),
    },
    {
      name: "an extension element of a declared foreign namespace is kept silently",
      xml: around(task("T", { ext: ['<zeebe:taskDefinition type="review" />'] })),
    },
    {
      name: "a misspelt btv attribute is no warning of the reader's: BTV_NAMESPACE_MISMATCH blocks it",
      xml: around(
        '<bpmn:serviceTask id="T" name="Check invoice" btv:agentworkflowref="agnt-two@1.0.0" />',
      ),
    },
    {
      name: "nor is a misspelt attribute of a btv element",
      xml: around(
        task("T", {
          ext: ['<btv:agentTask agentWorkflowRef="agnt-two@1.0.0" autonomylevel="2" />'],
        }),
      ),
    },
    {
      name: "switched off by a rule setting",
      xml: around('<bpmn:fancyTask id="T" />'),
      severity: "off",
    },
  ],
  invalid: [
    {
      name: "an unknown BPMN element is dropped (error)",
      xml: processXml(startEvent("S"), '<bpmn:fancyTask id="F" />', endEvent("E"), chain("S", "E")),
      errors: [
        {
          ...DOCUMENT,
          data: {
            kind: "dropped",
            subject: "bpmn:fancyTask",
            reason: "unknown type <bpmn:FancyTask>",
          },
          location: { line: 5, column: 5 },
        },
      ],
    },
    {
      name: "a dropped task also loses the flows that pointed to it",
      xml: around('<bpmn:fancyTask id="T" />'),
      errors: [
        { ...DOCUMENT, data: { kind: "dropped", subject: "bpmn:fancyTask" } },
        {
          ...at(CODE, "S-T", ""),
          data: { kind: "unresolved-reference", subject: "T", reason: "bpmn:targetRef" },
          location: { line: 7, column: 24 },
        },
        {
          ...at(CODE, "T-E", ""),
          data: { kind: "unresolved-reference", subject: "T", reason: "bpmn:sourceRef" },
          location: { line: 8, column: 24 },
        },
      ],
    },
    {
      name: "an unknown btv element (a typo) is dropped: the agent task would be lost",
      xml: around(task("T", { ext: ['<btv:agentTsk agentWorkflowRef="agnt-two@1.0.0" />'] })),
      errors: [
        {
          ...DOCUMENT,
          messageId: "dropped-btv",
          message:
            "element <btv:agentTsk> was dropped while reading: btv defines no such element, so what it declares is not read: did you mean <btv:agentTask>?",
          data: { kind: "dropped", subject: "btv:agentTsk", suggestion: "btv:agentTask" },
          location: { line: 7, column: 9 },
        },
      ],
    },
    ...[
      ["btv:agenttask", "btv:agentTask"],
      ["btv:agent-task", "btv:agentTask"],
      ["btv:agent_task", "btv:agentTask"],
      ["btv:gates", "btv:gate"],
      ["btv:agentWorkflowSnap", "btv:agentWorkflowSnapshot"],
    ].map(([written = "", meant = ""]) => ({
      name: `a misspelt btv element names the one meant: <${written}> → <${meant}>`,
      xml: around(task("T", { ext: [`<${written} agentWorkflowRef="agnt-two@1.0.0" />`] })),
      errors: [
        {
          ...DOCUMENT,
          messageId: "dropped-btv",
          severity: "error" as const,
          data: { kind: "dropped", subject: written, suggestion: meant },
        },
      ],
    })),
    {
      name: "a btv name close to none is dropped with no suggestion",
      xml: around(task("T", { ext: ["<btv:reviewer />"] })),
      errors: [
        { ...DOCUMENT, messageId: "dropped", data: { kind: "dropped", subject: "btv:reviewer" } },
      ],
    },
    {
      name: "a duplicate id: the second element is dropped (error at the second)",
      xml: processXml(startEvent("S"), task("T"), task("T"), endEvent("E"), chain("S", "T", "E")),
      errors: [
        {
          ...at(CODE, "T", ""),
          data: { kind: "dropped", subject: "bpmn:task", reason: "duplicate ID <T>" },
          location: { line: 6, column: 5 },
        },
      ],
    },
    {
      name: "a reference to no element is dropped (error on the referring element)",
      xml: processXml(startEvent("S"), endEvent("E"), flow("S", "E"), flow("S", "Nowhere")),
      errors: [
        {
          ...at(CODE, "S-Nowhere", ""),
          data: { kind: "unresolved-reference", subject: "Nowhere", reason: "bpmn:targetRef" },
          location: { line: 7, column: 24 },
        },
      ],
    },
    {
      name: "an unknown attribute survives a round trip (warning)",
      xml: around(task("T", { attrs: { priority: "high" } })),
      errors: [
        {
          ...at(CODE, "T", ""),
          severity: "warning",
          data: { kind: "unknown-attribute", subject: "priority" },
          location: { line: 5, column: 16 },
        },
      ],
    },
    {
      name: "an ISO-8859-1 declaration is read as UTF-8 (warning)",
      xml: wellFormed.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'),
      registry,
      errors: [
        {
          ...DOCUMENT,
          severity: "warning",
          data: { kind: "encoding", subject: "ISO-8859-1" },
          location: { line: 1, column: 1 },
        },
      ],
    },
    {
      name: "an undeclared prefix moddle knows (btv) is read, with a warning",
      xml: wellFormed.replace(/ xmlns:btv="[^"]*"/, ""),
      registry,
      errors: [
        {
          ...DOCUMENT,
          severity: "warning",
          data: { kind: "undeclared-prefix", subject: "btv:agentTask", reason: "btv" },
          location: { line: 7, column: 9 },
        },
      ],
    },
    {
      name: "an undeclared prefix moddle does not know makes the document unreadable",
      xml: around(task("T", { ext: ["<camunda:properties />"] })),
      errors: [
        {
          ...DOCUMENT,
          data: { kind: "unreadable", subject: "camunda:properties" },
          location: { line: 7, column: 9 },
        },
        {
          ...DOCUMENT,
          severity: "warning",
          data: { kind: "undeclared-prefix", subject: "camunda:properties", reason: "camunda" },
          location: { line: 7, column: 9 },
        },
      ],
    },
    {
      name: "a root other than bpmn:definitions",
      xml: `<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:process xmlns:bpmn="${BPMN_NS}" id="P" />`,
      errors: [
        {
          ...DOCUMENT,
          data: { kind: "unknown-root", subject: "bpmn:process" },
          // the root element's own position, not the XML declaration's
          location: { line: 2, column: 1 },
        },
      ],
    },
    {
      name: "malformed XML: a closing tag that does not match",
      xml: processXml(startEvent("S"), '<bpmn:task id="T"></bpmn:userTask>'),
      errors: [
        {
          ...DOCUMENT,
          data: { kind: "unreadable", subject: "/bpmn:userTask", reason: "closing tag mismatch" },
          location: { line: 5, column: 23 },
        },
      ],
    },
    {
      // No location pinned: at the end of the text moddle reports line 0 and the offset as the
      // column, which comes out as line 1, column 432; the end of the text is line 8.
      name: "malformed XML: a truncated document",
      xml: processXml(startEvent("S")).replace("</bpmn:definitions>", ""),
      errors: [{ ...DOCUMENT, data: { kind: "unreadable", reason: "unexpected end of file" } }],
    },
    {
      name: "an empty document",
      xml: "",
      errors: [{ ...DOCUMENT, data: { kind: "unreadable" }, location: { line: 1, column: 1 } }],
    },
    {
      name: "a document over the size limit is not read",
      xml: wellFormed,
      maxLength: 100,
      errors: [{ ...DOCUMENT, data: { kind: "too-large" }, location: { line: 1, column: 1 } }],
    },
  ],
});
