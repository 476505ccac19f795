/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The modeller's `approval` option (issue 41, item 7) in Node.js: reading it (an envelope, its
 * JSON text or the statement; anything else an ApprovalFormatError), finding the approval's entry
 * by the diagram's process ids (ambiguity is no match), the comparison a decision gives, and the
 * service — marks on the right ids, `agentflow.changed` carrying the comparison, a malformed
 * approval said once with `agentflow.error` and never thrown, `setApproval` redrawing.
 * The real canvas is in `approval.e2e.test.ts`.
 */
import EventBus from "diagram-js/lib/core/EventBus.js";
import { describe, expect, it } from "vitest";
import type { ApprovalStatement } from "../../src/approval/index.js";
import { ApprovalFormatError } from "../../src/approval/index.js";
import type { ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess, readProcess } from "../../src/bpmn/index.js";
import {
  approvalChanges,
  approvalMarks,
  approvedProcess,
  approvedStatement,
  processIdsOf,
} from "../../src/bpmn-js/approval.js";
import type { AgentflowChangedEvent, AgentflowConfig } from "../../src/bpmn-js/index.js";
import { AgentflowService, APPROVAL_MARKER, configProblems } from "../../src/bpmn-js/index.js";
import type { DiagramElement } from "../../src/bpmn-js/diagram.js";
import { loanXml, registry } from "./loan.js";
import { LOAN_NAME, loanApproval } from "./loan-approval.js";

const approved = await loanApproval();
const { statement } = approved;

/** The statement with its processes replaced (a second file of the same process, say). */
function withProcesses(processes: ApprovalStatement["predicate"]["processes"]): ApprovalStatement {
  return { ...statement, predicate: { ...statement.predicate, processes } };
}

describe("reading the approval option", () => {
  it("takes the envelope, its JSON text, or the statement", () => {
    expect(approvedStatement(approved.envelope)).toEqual(statement);
    expect(approvedStatement(JSON.stringify(approved.envelope))).toEqual(statement);
    expect(approvedStatement(JSON.parse(JSON.stringify(statement)))).toEqual(statement);
  });

  it("refuses what is not an approval, saying what", () => {
    const refuse = (value: unknown) => () => approvedStatement(value);
    expect(refuse(42)).toThrow(ApprovalFormatError);
    expect(refuse(null)).toThrow(/must be the approval's JSON/);
    expect(refuse({ ...approved.envelope, payloadType: "application/json" })).toThrow(
      /payloadType is 'application\/json'/,
    );
    expect(refuse({ ...statement, subject: [] })).toThrow(/not an approval statement/);
    expect(refuse("approval.json")).toThrow(ApprovalFormatError);
  });

  it("is an option the module knows", () => {
    expect(configProblems({ approval: { anything: true } })).toEqual([]);
  });
});

describe("finding the approval's entry for a diagram", () => {
  const [entry] = statement.predicate.processes;
  if (entry === undefined) throw new Error("the approval has the loan's entry");
  it("matches by the bpmn:process ids; two candidates are no match", () => {
    expect(approvedProcess(statement, ["LoanOrigination"])?.name).toBe(LOAN_NAME);
    expect(approvedProcess(statement, ["Other"])).toBeUndefined();
    const two = withProcesses([
      entry,
      { ...entry, name: "processes/z.bpmn", processIds: ["LoanOrigination", "Other"] },
    ]);
    // The exact set wins over one that only shares an id.
    expect(approvedProcess(two, ["LoanOrigination"])?.name).toBe(LOAN_NAME);
    expect(approvedProcess(two, ["LoanOrigination", "Other"])?.name).toBe("processes/z.bpmn");
    const copies = withProcesses([entry, { ...entry, name: "processes/copy.bpmn" }]);
    expect(approvedProcess(copies, ["LoanOrigination"])).toBeUndefined();
  });

  it("reads the diagram's process ids", async () => {
    const { definitions } = await readProcess(loanXml);
    expect(processIdsOf(definitions)).toEqual(["LoanOrigination"]);
    expect(processIdsOf(undefined)).toEqual([]);
  });

  it("compares the decision, and words each mark", async () => {
    const xml = loanXml.replace('<btv:gate approverRole="senior-credit-officer" />', "");
    const changes = approvalChanges(
      statement,
      ["LoanOrigination"],
      await checkProcess(xml, registry),
    );
    expect(changes).toEqual({
      process: LOAN_NAME,
      changed: [{ elementId: "AssessCreditRisk", change: "changed", fields: ["gate"] }],
      removed: [],
    });
    expect(approvalMarks(changes)).toEqual([
      {
        elementId: "AssessCreditRisk",
        change: "changed",
        text: "changed since approval",
        title: "changed since approval: gate",
      },
    ]);
  });
});

/** A service over fakes that record markers and overlays by element id. */
async function service(config: AgentflowConfig, xml = loanXml) {
  const { definitions } = await readProcess(xml);
  const bus = new (
    EventBus as unknown as new () => {
      on(event: string, callback: (event: unknown) => void): void;
      off(event: string, callback: (event: unknown) => void): void;
      fire(type: string, data?: object): unknown;
    }
  )();
  const ids = ["AssessCreditRisk", "DraftAndSendOffer", "UnderwriterReview", "SeniorReview"];
  const elements = new Map(
    ids.map((id): [string, DiagramElement] => [id, { id, type: "bpmn:Task", businessObject: {} }]),
  );
  const markers = new Set<string>();
  const overlays = new Map<string, HTMLElement>();
  const container = document.createElement("div");
  const svc = new AgentflowService(
    { ...registry, ...config },
    bus,
    { getDefinitions: (): ModdleObject | undefined => definitions },
    { get: (id) => elements.get(id), getAll: () => [...elements.values()] },
    {
      add: (element, _type, { html }) => {
        const id = `${element.id}:${html.className}`;
        overlays.set(id, html);
        return id;
      },
      remove: (filter) => {
        if (typeof filter === "string") overlays.delete(filter);
        else overlays.clear();
      },
    },
    {
      addMarker: (element, marker) => markers.add(`${element.id}:${marker}`),
      removeMarker: (element, marker) => markers.delete(`${element.id}:${marker}`),
      getContainer: () => container,
    },
  );
  const events: { type: string; event: unknown }[] = [];
  for (const type of ["agentflow.changed", "agentflow.error"]) {
    bus.on(type, (event) => events.push({ type, event }));
  }
  const marked = () =>
    [...markers].filter((m) => m.endsWith(`:${APPROVAL_MARKER}`)).map((m) => m.split(":")[0]);
  const approvalOverlays = () =>
    [...overlays.entries()]
      .filter(([key]) => key.includes("agentflow-approval"))
      .map(([key, html]) => [key.split(":")[0], html.textContent, html.title]);
  return { svc, events, marked, approvalOverlays };
}

describe("the service with an approval", () => {
  it("marks the changed task, carries the comparison on agentflow.changed and by method", async () => {
    const xml = loanXml.replace('<btv:gate approverRole="senior-credit-officer" />', "");
    const { svc, events, marked, approvalOverlays } = await service(
      { approval: approved.envelope },
      xml,
    );
    await svc.evaluate();
    expect(marked()).toEqual(["AssessCreditRisk"]);
    expect(approvalOverlays()).toEqual([
      ["AssessCreditRisk", "changed since approval", "changed since approval: gate"],
    ]);
    const changed = events.find((e) => e.type === "agentflow.changed")
      ?.event as AgentflowChangedEvent;
    expect(changed.approval).toEqual(svc.getApprovalChanges());
    expect(changed.approval?.changed.map((c) => c.elementId)).toEqual(["AssessCreditRisk"]);
    // Hidden and shown again with the rest of the overlays.
    svc.toggle(false);
    expect(marked()).toEqual([]);
    svc.toggle(true);
    expect(marked()).toEqual(["AssessCreditRisk"]);
  });

  it("says a malformed approval once with agentflow.error, never throws, and marks nothing", async () => {
    const { svc, events, marked } = await service({ approval: { payloadType: 1 } });
    await svc.evaluate();
    await svc.evaluate();
    const errors = events.filter((e) => e.type === "agentflow.error");
    expect(errors).toHaveLength(1);
    expect((errors[0]?.event as { error: unknown }).error).toBeInstanceOf(ApprovalFormatError);
    expect(marked()).toEqual([]);
    expect(svc.getApprovalChanges()).toBeUndefined();
    const changed = events.filter((e) => e.type === "agentflow.changed");
    expect(changed).toHaveLength(2);
    expect(changed.every((e) => !("approval" in (e.event as object)))).toBe(true);
  });

  it("says an approval set before the first evaluation once, when the engine is loaded", async () => {
    const { svc, events, marked } = await service({});
    svc.setApproval("not an approval");
    // The engine that reads it is imported at the first evaluation, not with the module.
    expect(events).toEqual([]);
    await svc.evaluate();
    const errors = events.filter((e) => e.type === "agentflow.error");
    expect(errors).toHaveLength(1);
    expect((errors[0]?.event as { error: unknown }).error).toBeInstanceOf(ApprovalFormatError);
    expect(marked()).toEqual([]);
    expect(svc.getApprovalChanges()).toBeUndefined();
  });

  it("takes a new approval with setApproval and redraws; undefined removes it", async () => {
    const { svc, events, marked } = await service({});
    await svc.evaluate();
    expect(svc.getApprovalChanges()).toBeUndefined();
    const other = withProcesses([]);
    svc.setApproval(JSON.parse(JSON.stringify(other)));
    expect(marked()).toEqual(["AssessCreditRisk", "DraftAndSendOffer"]);
    expect(svc.getApprovalChanges()?.process).toBeNull();
    svc.setApproval(approved.envelope);
    expect(marked()).toEqual([]);
    svc.setApproval("not an approval");
    expect(marked()).toEqual([]);
    expect(events.filter((e) => e.type === "agentflow.error")).toHaveLength(1);
    svc.setApproval(undefined);
    expect(svc.getApprovalChanges()).toBeUndefined();
  });
});
