/**
 * Text arbitraries shared by the property suites and `scripts/fuzz.ts`: strings built from the
 * tokens of JSON, YAML and BPMN so that near-valid documents are common, and serialised
 * workflows with one character changed.
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { workflowArb } from "./arbitraries.js";

/** Text made of JSON's own tokens. */
export const jsonishArb: fc.Arbitrary<string> = fc
  .array(
    fc.constantFrom(
      ...["{", "}", "[", "]", ",", ":", " ", "\n", '"a"', '"kind"', '"AgentWorkflow"', '"', "\\"],
      ...["0", "1e999", "-", ".", "true", "null", "NaN", "\uFEFF", '"__proto__"', "\uD800", "é"],
    ),
    { maxLength: 50 },
  )
  .map((tokens) => tokens.join(""));

/** YAML-ish text: indentation, indicators, anchors, aliases, tags, directives, documents. */
export const yamlishArb: fc.Arbitrary<string> = fc
  .array(
    fc.constantFrom(
      ...["a", "kind", ":", " ", "  ", "\n", "- ", "? ", "&x ", "*x", "!t ", "!!set ", "---\n"],
      ...["{", "}", "[", "]", ",", "'", '"', "#", "|", ">", "\t", "%YAML 1.1\n", "__proto__"],
      ...["<<: *x", ".nan", "-.inf", "\uFEFF", "AgentWorkflow"],
    ),
    { maxLength: 50 },
  )
  .map((tokens) => tokens.join(""));

const NS =
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0"';

/** BPMN-ish text: fragments of a process with agent tasks, gates, flows, entities and CDATA. */
export const bpmnishArb: fc.Arbitrary<string> = fc
  .array(
    fc.constantFrom(
      `<bpmn:definitions ${NS} id="d">`,
      '<bpmn:process id="p">',
      '<bpmn:subProcess id="s">',
      '<bpmn:serviceTask id="t">',
      '<bpmn:userTask id="u">',
      "<bpmn:extensionElements>",
      '<btv:agentTask agentWorkflowRef="agnt-a@1.0.0" autonomyLevel="3"/>',
      '<btv:agentTask agentWorkflowRef="x" autonomyLevel="NaN"/>',
      "<btv:gate/>",
      "</bpmn:extensionElements>",
      '<bpmn:sequenceFlow id="f" sourceRef="t" targetRef="u"/>',
      '<bpmn:sequenceFlow id="g" sourceRef="u" targetRef="t"/>',
      '<bpmn:startEvent id="t"/>',
      "</bpmn:serviceTask>",
      "</bpmn:userTask>",
      "</bpmn:subProcess>",
      "</bpmn:process>",
      "</bpmn:definitions>",
      '<!DOCTYPE d [<!ENTITY e "&e;&e;">]>',
      "&e;",
      "<![CDATA[",
      "]]>",
      "<!--",
      "-->",
      '<?xml version="1.0"?>',
    ),
    { maxLength: 25 },
  )
  .map((parts) => parts.join(""));

/** A workflow as JSON or YAML text, sometimes with one character replaced. */
export const workflowTextArb: fc.Arbitrary<string> = fc
  .tuple(
    workflowArb,
    fc.boolean(),
    fc.option(fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 1 }))),
  )
  .map(([wf, asYaml, edit]) => {
    const text = asYaml ? stringify(wf) : JSON.stringify(wf, null, 2);
    if (edit === null) return text;
    const [at, ch] = edit;
    const i = at % Math.max(text.length, 1);
    return text.slice(0, i) + ch + text.slice(i + 1);
  });

/** Any text: arbitrary strings (lone surrogates included), JSON, and the three -ish grammars. */
export const anyTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.json(),
  jsonishArb,
  yamlishArb,
  bpmnishArb,
  workflowTextArb,
);
