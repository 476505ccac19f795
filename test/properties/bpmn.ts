/**
 * Properties of the BPMN gate (SPEC 7): `checkProcess` answers any text with well-formed
 * diagnostics and `allowed` exactly when nothing blocks, also when its resolvers return arbitrary
 * workflows; what `readProcess` reads, `writeProcess` writes back to a document that reads again.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkProcess, readProcess, writeProcess } from "../../src/bpmn/index.js";
import type { AgentWorkflow } from "../../src/model/index.js";
import { workflowArb } from "./arbitraries.js";
import { assertDiagnostics, assertNoPollution } from "./checks.js";
import type { PropertyDef } from "./settings.js";
import { asyncProperty } from "./settings.js";
import { anyTextArb, bpmnishArb } from "./texts.js";

const FILE = "test/properties/bpmn.property.test.ts";

const NS =
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0"';

/** A process with agent tasks at the given levels, in a chain, with or without a gate after. */
export const processArb: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom("0", "2", "3", "5", "9", "x"), fc.boolean()), {
    minLength: 1,
    maxLength: 4,
  })
  .map((tasks) => {
    const parts: string[] = ['<bpmn:startEvent id="s"/>'];
    let previous = "s";
    tasks.forEach(([level, gated], i) => {
      parts.push(
        `<bpmn:serviceTask id="t${i}"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-a@1.0.0" autonomyLevel="${level}"/></bpmn:extensionElements></bpmn:serviceTask>`,
        `<bpmn:sequenceFlow id="f${i}" sourceRef="${previous}" targetRef="t${i}"/>`,
      );
      previous = `t${i}`;
      if (gated) {
        parts.push(
          `<bpmn:userTask id="g${i}"><bpmn:extensionElements><btv:gate/></bpmn:extensionElements></bpmn:userTask>`,
          `<bpmn:sequenceFlow id="h${i}" sourceRef="t${i}" targetRef="g${i}"/>`,
        );
        previous = `g${i}`;
      }
    });
    return `<bpmn:definitions ${NS} id="d"><bpmn:process id="p">${parts.join("")}</bpmn:process></bpmn:definitions>`;
  });

async function checkHolds(xml: string, resolve?: (ref: string) => unknown): Promise<void> {
  const check = await checkProcess(xml, resolve === undefined ? {} : { resolveWorkflow: resolve });
  assertDiagnostics([...check.blocking, ...check.warnings], "checkProcess");
  assert.ok(check.blocking.every((d) => d.severity === "error"));
  assert.equal(check.allowed, check.blocking.length === 0);
  assertNoPollution("checkProcess");
}

/** `checkProcess` on any text. */
export const checkProcessHolds = (xml: string): Promise<void> => checkHolds(xml);

/** `checkProcess` on a process whose agent workflow the registry returns, whatever it is. */
export const resolvedHolds = ([xml, wf]: [string, AgentWorkflow]): Promise<void> =>
  checkHolds(xml, () => wf);

/** What reads without a parse error writes back to XML that reads without one. */
export async function roundTripHolds(xml: string): Promise<void> {
  const first = await readProcess(xml);
  if (first.definitions === undefined || first.diagnostics.length > 0) return;
  const again = await readProcess(await writeProcess(first.definitions));
  assert.deepEqual(
    again.diagnostics.map((d) => d.code),
    [],
  );
}

/** The BPMN properties. */
export const BPMN_PROPERTIES: readonly PropertyDef[] = [
  asyncProperty(
    "checkProcess: any text",
    FILE,
    400,
    fc.oneof(bpmnishArb, anyTextArb, processArb),
    checkProcessHolds,
  ),
  asyncProperty(
    "checkProcess: any resolved workflow",
    FILE,
    300,
    fc.tuple(processArb, workflowArb),
    resolvedHolds,
  ),
  asyncProperty(
    "readProcess, writeProcess: round trip",
    FILE,
    400,
    fc.oneof(processArb, bpmnishArb),
    roundTripHolds,
  ),
];
