/**
 * Who may approve a gate that Camunda 7, Flowable or Activiti assigns: their `assignee`,
 * `candidateUsers` and `candidateGroups`, read by namespace as the engine reads them, add to the
 * declared role (a red-team's two tasks declared "legal" and "risk" but were both assigned to
 * alice, and passed four-eyes); a JUEL expression may name anyone, as a FEEL one may.
 */
import { describe, expect, it } from "vitest";
import { readProcess } from "../../src/bpmn/index.js";
import type { ModdleObject } from "../../src/bpmn/moddle.js";
import { approversOf } from "../../src/bpmn/gate-select.js";

const NAMESPACES: Readonly<Record<string, string>> = {
  camunda: "http://camunda.org/schema/1.0/bpmn",
  flowable: "http://flowable.org/bpmn",
  activiti: "http://activiti.org/bpmn",
  other: "http://example.com/not-an-engine",
};

/** The user task `T` of a process whose `prefix` is bound to its engine's namespace. */
async function task(prefix: string, attributes: string): Promise<ModdleObject> {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:${prefix}="${NAMESPACES[prefix] ?? ""}" id="D" targetNamespace="http://example.com">
  <bpmn:process id="P" isExecutable="true"><bpmn:userTask id="T" ${attributes} /></bpmn:process>
</bpmn:definitions>`;
  const { definitions } = await readProcess(xml);
  const process = (definitions?.rootElements as ModdleObject[] | undefined)?.[0];
  const found = (process?.flowElements as ModdleObject[] | undefined)?.[0];
  if (found === undefined) throw new Error("no task");
  return found;
}

describe("approvers an engine's own attributes name", () => {
  it.each<[string, string, string | undefined, readonly string[]]>([
    ["camunda", 'camunda:assignee="alice"', "legal", ["legal", "alice"]],
    ["flowable", 'flowable:candidateGroups="risk, ops"', undefined, ["risk", "ops"]],
    [
      "activiti",
      'activiti:candidateUsers="bob" activiti:candidateGroups="ops"',
      "x",
      ["x", "ops", "bob"],
    ],
    ["camunda", 'camunda:assignee="${initiator}"', "legal", ["legal", "=${initiator}"]],
    ["camunda", 'camunda:candidateGroups="#{groups}"', undefined, ["=#{groups}"]],
    // A declared role that is an expression may be anyone too.
    ["camunda", "", "${initiator}", ["=${initiator}"]],
    // Users alone never made a role; another namespace's attributes are nobody's.
    ["camunda", 'camunda:assignee="alice"', undefined, []],
    ["other", 'other:assignee="alice"', "legal", ["legal"]],
  ])("%s: %s, declared %s", async (prefix, attributes, declared, approvers) => {
    expect(approversOf(await task(prefix, attributes), declared)).toEqual(approvers);
  });
});
