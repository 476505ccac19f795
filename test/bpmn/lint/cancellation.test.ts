/**
 * The bpmnlint plugin and the bpmn-js module read what cancels a gate (issue 38) as the library
 * does: the same evaluation, so the same findings on the same elements, and the modeller marks
 * the flows of the same bypass path.
 */
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../../src/bpmn/index.js";
import { bypassFlowIds, bypassPaths } from "../../../src/bpmn-js/index.js";
import { createRules, staticResolverCache } from "../../../src/bpmn/lint/index.js";
import { agentWorkflow } from "../builders.js";
import { lint, staticLinter } from "./linter.js";

const NS = [
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"',
  'xmlns:btv="https://agentflow.dev/schema/btv/1.0"',
].join(" ");
const AGENT =
  '<bpmn:serviceTask id="A"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:serviceTask>';
const GATE = (id: string): string =>
  `<bpmn:userTask id="${id}"><bpmn:extensionElements><btv:gate/></bpmn:extensionElements></bpmn:userTask>`;
const F = (id: string, from: string, to: string): string =>
  `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;
const doc = (...elements: readonly string[]): string =>
  `<bpmn:definitions ${NS} id="D" targetNamespace="x"><bpmn:escalation id="Late" escalationCode="LATE"/><bpmn:process id="P">${elements.join("")}</bpmn:process></bpmn:definitions>`;

const WORKFLOW = agentWorkflow("agnt-x@1.0.0", 2);
const resolveWorkflow = (ref: string): unknown => (ref === "agnt-x@1.0.0" ? WORKFLOW : undefined);

/** A terminate on a parallel branch of Work while Review is pending: Disburse runs unreviewed. */
const PARALLEL_TERMINATE = doc(
  '<bpmn:startEvent id="S"/>',
  '<bpmn:subProcess id="Work"><bpmn:startEvent id="WS"/><bpmn:parallelGateway id="Fork"/>',
  AGENT,
  GATE("Review"),
  '<bpmn:endEvent id="WE"/><bpmn:task id="Wait"/>',
  '<bpmn:endEvent id="Stop"><bpmn:terminateEventDefinition/></bpmn:endEvent>',
  F("F1", "WS", "Fork"),
  F("F2", "Fork", "A"),
  F("F3", "A", "Review"),
  F("F4", "Review", "WE"),
  F("F5", "Fork", "Wait"),
  F("F6", "Wait", "Stop"),
  "</bpmn:subProcess>",
  '<bpmn:task id="Disburse"/><bpmn:endEvent id="E"/>',
  F("F7", "S", "Work"),
  F("F8", "Work", "Disburse"),
  F("F9", "Disburse", "E"),
);

/** An escalation boundary on Work that nothing in Work throws: no path, no bypass. */
const UNTRIGGERED_ESCALATION = doc(
  '<bpmn:startEvent id="S"/>',
  AGENT,
  '<bpmn:subProcess id="Work"><bpmn:startEvent id="WS"/>',
  GATE("Review"),
  '<bpmn:endEvent id="WE"/>',
  F("F1", "WS", "Review"),
  F("F2", "Review", "WE"),
  "</bpmn:subProcess>",
  '<bpmn:boundaryEvent id="OnLate" attachedToRef="Work"><bpmn:escalationEventDefinition escalationRef="Late"/></bpmn:boundaryEvent>',
  '<bpmn:endEvent id="Skipped"/><bpmn:endEvent id="E"/>',
  F("F3", "S", "A"),
  F("F4", "A", "Work"),
  F("F5", "Work", "E"),
  F("F6", "OnLate", "Skipped"),
);

describe("the plugin, the modeller and the library agree on what cancels a gate", () => {
  it.each([
    ["a parallel terminate in a sub-process", PARALLEL_TERMINATE, ["agentflow/agent-gate-bypass"]],
    ["an escalation boundary nothing triggers", UNTRIGGERED_ESCALATION, []],
  ])("%s", async (_, xml, expected) => {
    const check = await checkProcess(xml, { resolveWorkflow });
    const linter = staticLinter(staticResolverCache(createRules({ resolveWorkflow })));
    const results = await lint(linter, xml, { extends: "plugin:agentflow/recommended" });
    const reported = Object.entries(results).filter(([, reports]) => reports.length > 0);
    expect(reported.map(([name]) => name)).toEqual(expected);
    // The same findings, on the same elements, worded the same.
    expect(reported.flatMap(([, reports]) => reports.map((r) => [r.id, r.message]))).toEqual(
      check.blocking.map((d) => [
        d.target.kind === "bpmn-element" ? d.target.elementId : "",
        d.message,
      ]),
    );
  });

  it("the modeller marks the flows of the library's bypass path", async () => {
    const check = await checkProcess(PARALLEL_TERMINATE, { resolveWorkflow });
    expect(bypassPaths(check)).toEqual([["A", "Review", "Stop", "Disburse", "E"]]);
    const flows = [
      ...PARALLEL_TERMINATE.matchAll(/id="(F\d)" sourceRef="(\w+)" targetRef="(\w+)"/g),
    ];
    const edges = flows.map(([, id, source, target]) => ({
      id: id ?? "",
      source: source ?? "",
      target: target ?? "",
    }));
    const inWork = new Set(["WS", "Fork", "A", "Review", "WE", "Wait", "Stop"]);
    const parentOf = (id: string): string | undefined => (inWork.has(id) ? "Work" : undefined);
    // A → Review along F3; the terminate ends Work, which leaves along F8; then F9.
    expect(bypassFlowIds(check, edges, parentOf)).toEqual(["F3", "F8", "F9"]);
  });
});
