/**
 * The element templates the plug-in folder ships: valid Camunda 8 element templates (against the
 * JSON Schema of `@camunda/zeebe-element-templates-json-schema`, when it is installed), and what
 * an element made from them writes is what agentflow reads: the agent task's workflow ref as the
 * `btv:agentWorkflowRef` attribute the `btv` descriptor types on activities, and the approval
 * gate a gate once agentflow.config.json selects its template.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { checkProcess } from "../../src/bpmn/index.js";
import { ROOT } from "../e2e/chromium.js";

const DIR = join(ROOT, "src/camunda-modeler/element-templates");
const SCHEMA_URL =
  "https://unpkg.com/@camunda/zeebe-element-templates-json-schema/resources/schema.json";

interface Binding {
  readonly type: string;
  readonly name?: string;
  readonly property?: string;
}
interface Template {
  readonly $schema: string;
  readonly id: string;
  readonly elementType: { readonly value: string };
  readonly properties: readonly { readonly binding: Binding; readonly value?: string }[];
}

const templates = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f, JSON.parse(readFileSync(join(DIR, f), "utf8")) as Template] as const);
const byId = (id: string): Template => {
  const found = templates.find(([, t]) => t.id === id)?.[1];
  if (found === undefined) throw new Error(`no template ${id}`);
  return found;
};

/** The schema the Modeler validates templates with, from its own package (a devDependency). */
const schema = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve(
      "@camunda/zeebe-element-templates-json-schema/resources/schema.json",
    ),
    "utf8",
  ),
) as object;

describe("the plug-in's element templates", () => {
  it("are the approval gate and the governed agent task, for Camunda 8", () => {
    expect(templates.map(([, t]) => [t.id, t.elementType.value]).sort()).toEqual([
      ["dev.agentflow.agent-task", "bpmn:ServiceTask"],
      ["dev.agentflow.approval-gate", "bpmn:UserTask"],
    ]);
    for (const [, t] of templates) expect(t.$schema).toBe(SCHEMA_URL);
  });

  it("bind only btv attributes the btv descriptor types", () => {
    // The descriptor as shipped, not BTV_PACKAGE: moddle rewrites a registered package's property
    // names in place (`toolEffect` → `btv:toolEffect`), so another file's Modeler changes it.
    const descriptor = JSON.parse(
      readFileSync(join(ROOT, "src/bpmn/resources/btv.json"), "utf8"),
    ) as { readonly types: unknown };
    const types = descriptor.types as readonly {
      readonly extends?: readonly string[];
      readonly properties: readonly { readonly name: string; readonly isAttr?: boolean }[];
    }[];
    const attributes = new Set(
      types
        .filter((t) => t.extends !== undefined)
        .flatMap((t) => t.properties.filter((p) => p.isAttr === true).map((p) => `btv:${p.name}`)),
    );
    const bound = templates.flatMap(([, t]) =>
      t.properties.flatMap((p) =>
        p.binding.name?.startsWith("btv:") === true ? [p.binding.name] : [],
      ),
    );
    expect(bound).toEqual(["btv:agentWorkflowRef"]);
    for (const name of bound) expect(attributes).toContain(name);
  });

  it("make an agent task agentflow reads and a gate the config selects", async () => {
    const agent = byId("dev.agentflow.agent-task");
    const gate = byId("dev.agentflow.approval-gate");
    const ref = agent.properties.find((p) => p.binding.type === "property")?.binding.name;
    const group = gate.properties.find((p) => p.binding.property === "candidateGroups");
    expect([ref, group?.binding.type]).toEqual([
      "btv:agentWorkflowRef",
      "zeebe:assignmentDefinition",
    ]);
    // What the Modeler writes for elements made from the two templates.
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
        xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" xmlns:btv="https://agentflow.dev/schema/btv/1.0"
        id="D" targetNamespace="https://example.com">
      <bpmn:process id="P" isExecutable="true">
        <bpmn:startEvent id="Start" />
        <bpmn:serviceTask id="Agent" zeebe:modelerTemplate="${agent.id}" btv:agentWorkflowRef="agnt-offer@1.0.0">
          <bpmn:extensionElements><zeebe:taskDefinition type="agentflow-agent" retries="3" /></bpmn:extensionElements>
        </bpmn:serviceTask>
        <bpmn:userTask id="Approve" zeebe:modelerTemplate="${gate.id}">
          <bpmn:extensionElements>
            <zeebe:userTask />
            <zeebe:assignmentDefinition candidateGroups="credit-officers" />
          </bpmn:extensionElements>
        </bpmn:userTask>
        <bpmn:endEvent id="End" />
        <bpmn:sequenceFlow id="F1" sourceRef="Start" targetRef="Agent" />
        <bpmn:sequenceFlow id="F2" sourceRef="Agent" targetRef="Approve" />
        <bpmn:sequenceFlow id="F3" sourceRef="Approve" targetRef="End" />
      </bpmn:process>
    </bpmn:definitions>`;
    const codes = (d: Awaited<ReturnType<typeof checkProcess>>) =>
      [...d.blocking, ...d.warnings].map((f) => f.code);
    const alone = await checkProcess(xml);
    expect(alone.agentTasks.map((t) => [t.elementId, t.ref])).toEqual([
      ["Agent", "agnt-offer@1.0.0"],
    ]);
    expect(codes(alone)).toContain("AGENT_GATE_UNREACHABLE");
    const selected = await checkProcess(xml, { gates: [{ template: gate.id }] });
    expect(codes(selected)).not.toContain("AGENT_GATE_UNREACHABLE");
    expect(selected.gates.map((g) => [g.elementId, g.role])).toEqual([
      ["Approve", "credit-officers"],
    ]);
  });

  it("validate against @camunda/zeebe-element-templates-json-schema", () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    for (const [file, t] of templates) {
      expect(validate(t) ? [] : validate.errors, file).toEqual([]);
    }
    expect(validate({ ...byId("dev.agentflow.agent-task"), id: undefined })).toBe(false);
  });
});
