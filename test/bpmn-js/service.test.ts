/// <reference lib="dom" />
// @vitest-environment happy-dom
/**
 * The `agentflow` service (issue 23), with diagram-js's real event bus and the example process's
 * real moddle definitions: the import is evaluated at once, changes are debounced into one
 * evaluation, an async evaluation overtaken by a newer one or by an edit is dropped, no decision
 * is given out from an edit until it is evaluated, a host's predicate that throws is an
 * `agentflow.error` that drops the decision and its drawing, what bpmn-moddle dropped at the
 * import blocks as in `checkProcess`, and `diagram.clear` forgets the decision. The
 * timing tests run with the overlays off (`active: false`). The drawing tests use diagram-js's
 * real element registry and canvas marker code on happy-dom (diagram-js's overlays and SVG
 * rendering need a real browser's SVG; they are tested in Chromium,
 * `test/e2e/modeler.e2e.test.ts`).
 */
import Canvas from "diagram-js/lib/core/Canvas.js";
import ElementRegistry from "diagram-js/lib/core/ElementRegistry.js";
import EventBus from "diagram-js/lib/core/EventBus.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GateDecision, ModdleObject } from "../../src/bpmn/index.js";
import { checkProcess, createModdle, readProcess } from "../../src/bpmn/index.js";
import type {
  AgentflowChangedEvent,
  AgentflowConfig,
  AgentflowErrorEvent,
  AgentflowStaleEvent,
} from "../../src/bpmn-js/index.js";
import type { Canvas as CanvasService, DiagramElement } from "../../src/bpmn-js/diagram.js";
import {
  AGENT_MARKER,
  AgentflowService,
  BYPASS_MARKER,
  GATE_MARKER,
  OVERLAY_TYPE,
} from "../../src/bpmn-js/index.js";
import { duplicateXml, gatedXml, loanXml, registry, shortcutXml } from "./loan.js";

interface Bus {
  on(event: string, callback: (event: unknown) => void): void;
  off(event: string, callback: (event: unknown) => void): void;
  fire(type: string, data?: object): unknown;
}

async function setup(config: AgentflowConfig) {
  const { definitions } = await readProcess(loanXml);
  if (definitions === undefined) throw new Error("the example must parse");
  let shown: ModdleObject = definitions;
  const bus = new (EventBus as unknown as new () => Bus)();
  const removed: unknown[] = [];
  const service = new AgentflowService(
    { ...config, active: false },
    bus,
    { getDefinitions: (): ModdleObject => shown },
    { get: () => undefined, getAll: () => [] },
    {
      add: () => {
        throw new Error("nothing is drawn while inactive");
      },
      remove: (filter) => {
        removed.push(filter);
      },
    },
    {
      addMarker: () => undefined,
      removeMarker: () => undefined,
      getContainer: () => {
        throw new Error("nothing is drawn while inactive");
      },
    },
  );
  const decisions: GateDecision[] = [];
  bus.on("agentflow.changed", (event) => {
    decisions.push((event as AgentflowChangedEvent).decision);
  });
  /** Imports `xml` as bpmn-js does: its events, with bpmn-moddle's warnings, then the diagram. */
  const importXml = async (xml: string): Promise<void> => {
    bus.fire("import.parse.start", { xml });
    const { rootElement, warnings } = await createModdle().fromXML(xml);
    bus.fire("import.parse.complete", { error: null, definitions: rootElement, warnings });
    bus.fire("diagram.clear", {});
    shown = rootElement as ModdleObject;
    bus.fire("import.done", { error: null, warnings });
  };
  return { bus, service, decisions, removed, importXml };
}

/** The events the module fires, in order: `changed`, `stale <reason>`, `error <message>`. */
function recordEvents(bus: Bus): string[] {
  const events: string[] = [];
  bus.on("agentflow.changed", () => events.push("changed"));
  bus.on("agentflow.stale", (event) => {
    events.push(`stale ${(event as AgentflowStaleEvent).reason}`);
  });
  bus.on("agentflow.error", (event) => {
    const { error } = event as AgentflowErrorEvent;
    events.push(`error ${error instanceof Error ? error.message : String(error)}`);
  });
  return events;
}

/** A decision's verdict as `code@element` lines, blocking and not. */
const verdict = (decision: Pick<GateDecision, "allowed" | "blocking" | "warnings"> | undefined) =>
  decision && {
    allowed: decision.allowed,
    blocking: decision.blocking.map(
      (d) => `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`,
    ),
    warnings: decision.warnings.map(
      (d) => `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`,
    ),
  };

interface Registry {
  add(element: DiagramElement, gfx: SVGElement): void;
  get(id: string): DiagramElement | undefined;
  getAll(): DiagramElement[];
  getGraphics(element: DiagramElement): SVGElement;
  updateId(element: DiagramElement, id: string): void;
}

/** A mutable diagram element, as diagram-js's shapes and connections are. */
interface Shape {
  id: string;
  readonly type: string;
  readonly businessObject: ModdleObject;
  source?: Shape | undefined;
  target?: Shape | undefined;
  /** The connections leaving a shape, as diagram-js keeps them. */
  readonly outgoing: Shape[];
}

/** A bpmn-moddle object as far as the setup reads and writes it. */
type Moddle = ModdleObject & { get(name: string): unknown; id: string };

/**
 * A service that draws, on the process's elements in diagram-js's real `ElementRegistry` (one
 * `<g>` each, as the canvas makes them) with the real `Canvas` marker code; the overlays are kept
 * in the container, as diagram-js keeps them in its overlay layer.
 */
async function drawingSetup(xml: string, extra: Partial<AgentflowConfig> = {}) {
  const { definitions } = await readProcess(xml);
  if (definitions === undefined) throw new Error("the example must parse");
  const bus = new (EventBus as unknown as new () => Bus)();
  const elementRegistry = new (ElementRegistry as unknown as new (bus: Bus) => Registry)(bus);
  const container = document.createElement("div");
  const canvas = Object.assign(
    Object.create((Canvas as unknown as { prototype: object }).prototype) as CanvasService,
    {
      _elementRegistry: elementRegistry,
      _eventBus: bus,
      getContainer: () => container,
    },
  );
  const process = ((definitions as Moddle).get("rootElements") as Moddle[]).find(
    (root) => root.$type === "bpmn:Process",
  );
  const byId = new Map<string, Shape>();
  for (const bo of (process?.get("flowElements") ?? []) as Moddle[]) {
    byId.set(bo.id, { id: bo.id, type: bo.$type, businessObject: bo, outgoing: [] });
  }
  for (const element of byId.values()) {
    const bo = element.businessObject;
    if (bo.$type !== "bpmn:SequenceFlow") continue;
    element.source = byId.get((bo.sourceRef as Moddle).id);
    element.target = byId.get((bo.targetRef as Moddle).id);
    element.source?.outgoing.push(element);
  }
  for (const element of byId.values()) {
    elementRegistry.add(element, document.createElementNS("http://www.w3.org/2000/svg", "g"));
  }
  // As diagram-js keeps them: by id, each with its type; `remove` takes an id or a type.
  const overlays = new Map<string, { readonly html: HTMLElement; readonly type: string }>();
  /** Every overlay added and removed, as `+id` / `-id`: what an evaluation changed on the canvas. */
  const changes: string[] = [];
  let next = 0;
  const service = new AgentflowService(
    { ...registry, debounce: 0, ...extra },
    bus,
    { getDefinitions: (): ModdleObject => definitions },
    elementRegistry,
    {
      add: (element, type, { html }) => {
        const id = `${element.id}#${++next}`;
        overlays.set(id, { html, type });
        container.append(html);
        changes.push(`+${html.className.split(" ")[0] ?? ""}:${element.id}`);
        return id;
      },
      remove: (filter) => {
        for (const [id, { html, type }] of overlays) {
          if (typeof filter === "string" ? id !== filter : type !== filter.type) continue;
          html.remove();
          overlays.delete(id);
          changes.push(`-${html.className.split(" ")[0] ?? ""}:${id.split("#")[0] ?? ""}`);
        }
      },
    },
    canvas,
  );
  /** The ids of the elements whose graphics carry `marker`, sorted. */
  const marked = (marker: string): string[] =>
    elementRegistry
      .getAll()
      .filter((element) => elementRegistry.getGraphics(element).classList.contains(marker))
      .map((element) => element.id)
      .sort();
  /** The element ids of the badges, or of the gate markers, in the container. */
  const drawn = (selector: string): (string | null)[] =>
    Array.from(container.querySelectorAll(selector), (e) =>
      e.getAttribute("data-agentflow-element"),
    );
  /** Changes an element's id as bpmn-js's `updateProperties` does: business object and registry. */
  const rename = (from: string, to: string): void => {
    const element = elementRegistry.get(from);
    if (element === undefined) throw new Error(`no ${from}`);
    (element.businessObject as Moddle).id = to;
    elementRegistry.updateId(element, to);
  };
  /** The findings list of the badge on `id`, item by item. */
  const listed = (id: string): string[] =>
    Array.from(
      container.querySelectorAll(`.agentflow-badge[data-agentflow-element="${id}"] li`),
      (li) => li.textContent,
    );
  return { bus, service, marked, drawn, rename, changes, elementRegistry, listed };
}

// The service imports its engine at the first evaluation (in a page, a chunk fetched after the
// diagram shows). Loaded here once, so that the fake-timer test below times the debounce, not the
// module loader; "loads the engine at the first evaluation" tests the loading itself.
await import("../../src/bpmn-js/engine.js");

const gates = (decision: GateDecision | undefined) =>
  decision?.agentTasks.map((t) => [t.elementId, t.resolution, t.gate]);

afterEach(() => {
  vi.useRealTimers();
});

describe("AgentflowService", () => {
  it("evaluates on import, then once per burst of changes after the debounce", async () => {
    vi.useFakeTimers();
    let lookups = 0;
    const { bus, service, decisions } = await setup({
      ...registry,
      resolveWorkflow: (ref) => {
        lookups++;
        return registry.resolveWorkflow(ref);
      },
      debounce: 200,
    });
    expect(service.getDecision()).toBeUndefined();
    bus.fire("import.done", {});
    // The first evaluation loads the engine and gives its parts tasks of their own: no delay.
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(0);
      expect(decisions).toHaveLength(1);
    });
    expect(gates(service.getDecision())).toEqual([
      ["AssessCreditRisk", "registry", "reached"],
      ["DraftAndSendOffer", "registry", "missing"],
    ]);
    expect(lookups).toBe(2);

    for (let i = 0; i < 3; i++) {
      bus.fire("commandStack.changed", {});
      await vi.advanceTimersByTimeAsync(150);
    }
    expect(decisions).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(decisions).toHaveLength(2);
    expect(lookups).toBe(4);
    expect(service.getDecision()).toBe(decisions[1]);
  });

  it("drops an async evaluation that a newer one overtook", async () => {
    const pending: { readonly ref: string; readonly answer: (value: unknown) => void }[] = [];
    const { service, decisions } = await setup({
      resolveTool: registry.resolveTool,
      // Each lookup waits until the test answers it.
      resolveWorkflow: (ref) =>
        new Promise((answer) => {
          pending.push({ ref, answer });
        }),
    });
    const lookups = async (count: number) => {
      await vi.waitFor(() => {
        expect(pending).toHaveLength(count);
      });
    };
    const answer = (i: number, fromRegistry: boolean) => {
      const lookup = pending[i];
      lookup?.answer(fromRegistry ? registry.resolveWorkflow(lookup.ref) : undefined);
    };
    const first = service.evaluate();
    await lookups(1);
    const second = service.evaluate();
    await lookups(2);
    // The second run is answered from the registry and finishes first.
    answer(1, true);
    await lookups(3);
    answer(2, true);
    const latest = await second;
    // The first run is answered with nothing, later: were it kept, both tasks would be unresolved.
    answer(0, false);
    await lookups(4);
    answer(3, false);
    expect(await first).toBeUndefined();
    expect(decisions).toEqual([latest]);
    expect(gates(service.getDecision())).toEqual([
      ["AssessCreditRisk", "registry", "reached"],
      ["DraftAndSendOffer", "registry", "missing"],
    ]);
  });

  it("drops an async evaluation that finishes after an edit, before the debounced one", async () => {
    const pending: { readonly ref: string; readonly answer: (value: unknown) => void }[] = [];
    // A debounce no test waits out: the edit's own evaluation is started by hand below.
    const { bus, service, decisions } = await setup({
      resolveTool: registry.resolveTool,
      resolveWorkflow: (ref) =>
        new Promise((answer) => {
          pending.push({ ref, answer });
        }),
      debounce: 3_600_000,
    });
    const answerNext = async (count: number) => {
      await vi.waitFor(() => {
        expect(pending).toHaveLength(count);
      });
      const lookup = pending[count - 1];
      lookup?.answer(registry.resolveWorkflow(lookup.ref));
    };
    const started = service.evaluate();
    await answerNext(1);
    // The diagram changes while the run waits for its second lookup.
    bus.fire("commandStack.changed", {});
    await answerNext(2);
    expect(await started).toBeUndefined();
    expect(decisions).toEqual([]);
    expect(service.getDecision()).toBeUndefined();
    bus.fire("diagram.destroy", {});
  });

  it("fails closed on tool contracts the registry lacks, and says which", async () => {
    const { service } = await setup({
      resolveWorkflow: registry.resolveWorkflow,
      resolveTool: () => undefined,
    });
    const decision = await service.evaluate();
    expect(decision?.allowed).toBe(false);
    const offer = decision?.blocking.find(
      (d) => d.code === "TOOL_EFFECT_NEEDS_GATE" && d.target.kind === "bpmn-element",
    );
    expect(offer?.data).toMatchObject({
      elementId: "DraftAndSendOffer",
      tool: "tool:send-loan-offer@1.1.0",
      effect: "unknown",
      failure: "missing",
    });
    // Behind its gates the credit-risk agent may pass, but what could not be read is said.
    expect(decision?.warnings.map((d) => [d.code, d.data.dependency])).toContainEqual([
      "AGENT_DEPENDENCY_UNRESOLVED",
      "tool:credit-bureau-report@2.0.0",
    ]);
  });

  it("bounds a registry that never answers by lookupTimeoutMs, and blocks", async () => {
    const { service } = await setup({
      resolveWorkflow: registry.resolveWorkflow,
      resolveTool: () => new Promise<never>(() => undefined),
      lookupTimeoutMs: 10,
    });
    const decision = await service.evaluate();
    expect(decision?.allowed).toBe(false);
    expect(
      decision?.agentTasks.flatMap((t) => t.dependencies.map((d) => d.failure?.detail)),
    ).toEqual([
      "the registry failed: no answer within 10 ms",
      "the registry failed: no answer within 10 ms",
    ]);
  });

  it("drops the decision and all it drew when the host's gate predicate throws, and says so", async () => {
    let broken = false;
    const { bus, service, drawn, marked } = await drawingSetup(loanXml, {
      isGate: () => {
        if (broken) throw new Error("directory unreachable");
        return false;
      },
    });
    const events = recordEvents(bus);
    const agents = ["AssessCreditRisk", "DraftAndSendOffer"];
    expect(await service.evaluate()).toBeDefined();
    expect([drawn(".agentflow-badge"), marked(AGENT_MARKER)]).toEqual([agents, agents]);
    broken = true;
    expect(await service.evaluate()).toBeUndefined();
    expect(events).toEqual(["changed", "stale failed", "error directory unreachable"]);
    expect(service.getDecision()).toBeUndefined();
    expect([drawn(".agentflow-badge"), marked(AGENT_MARKER)]).toEqual([[], []]);
    // The next evaluation that succeeds gives a decision, and draws it, again.
    broken = false;
    expect(await service.evaluate()).toBe(service.getDecision());
    expect(events.at(-1)).toBe("changed");
    expect([drawn(".agentflow-badge"), marked(AGENT_MARKER)]).toEqual([agents, agents]);
  });

  it("gives out no decision from an edit until the edit is evaluated, and says so once", async () => {
    let slow = false;
    const answers: (() => void)[] = [];
    const { bus, service, decisions } = await setup({
      resolveTool: registry.resolveTool,
      resolveWorkflow: (ref) =>
        slow
          ? new Promise((answer) => {
              answers.push(() => {
                answer(registry.resolveWorkflow(ref));
              });
            })
          : registry.resolveWorkflow(ref),
      debounce: 0,
    });
    const events = recordEvents(bus);
    const before = await service.evaluate();
    expect(service.getDecision()).toBe(before);
    slow = true;
    bus.fire("commandStack.changed", {});
    bus.fire("commandStack.changed", {});
    expect(service.getDecision()).toBeUndefined();
    // A new approval meanwhile gives the old decision out again: the pending evaluation compares.
    service.setApproval(undefined);
    expect(events).toEqual(["changed", "stale edited"]);
    await vi.waitFor(() => {
      for (const answer of answers.splice(0)) answer();
      expect(decisions).toHaveLength(2);
    });
    expect(events).toEqual(["changed", "stale edited", "changed"]);
    expect(service.getDecision()).toBe(decisions[1]);
  });

  it("forgets the decision and clears its overlays when the diagram is cleared", async () => {
    const { bus, service, removed } = await setup(registry);
    const events = recordEvents(bus);
    await service.evaluate();
    expect(service.getDecision()).toBeDefined();
    bus.fire("diagram.clear", {});
    expect(service.getDecision()).toBeUndefined();
    expect(removed.at(-1)).toEqual({ type: OVERLAY_TYPE });
    expect(events).toEqual(["changed", "stale cleared"]);
  });

  // What bpmn-moddle drops at the import, `checkProcess` (and so `agentflow gate`) blocks.
  const misspelt = gatedXml.replace(
    '<bpmn:endEvent id="OfferSent"',
    '<bpmn:serviceTsk id="AutoApprove" name="Auto-approve offer" />\n    <bpmn:endEvent id="OfferSent"',
  );
  const dropped = ["BPMN_PARSE@UnderwriterReview"];
  it.each([
    {
      name: "a second element of an id",
      xml: duplicateXml,
      rules: {},
      expected: { allowed: false, blocking: dropped, warnings: [] },
    },
    {
      name: "an element of no BPMN type",
      xml: misspelt,
      rules: {},
      expected: { allowed: false, blocking: ["BPMN_PARSE@"], warnings: [] },
    },
    {
      name: "a duplicate, with BPMN_PARSE at warning",
      xml: duplicateXml,
      rules: { BPMN_PARSE: "warning" },
      expected: { allowed: true, blocking: [], warnings: dropped },
    },
    {
      name: "a misspelt type, with BPMN_PARSE off",
      xml: misspelt,
      rules: { BPMN_PARSE: "off" },
      expected: { allowed: true, blocking: [], warnings: [] },
    },
  ] as const)(
    "judges the import of $name as checkProcess does",
    async ({ xml, rules, expected }) => {
      const { service, importXml } = await setup({ ...registry, rules, debounce: 0 });
      await importXml(xml);
      await vi.waitFor(() => {
        expect(service.getDecision()).toBeDefined();
      });
      expect(verdict(service.getDecision())).toEqual(expected);
      expect(verdict(await checkProcess(xml, { ...registry, rules }))).toEqual(expected);
    },
  );

  it("keeps an import's BPMN_PARSE findings through edits, until the next import", async () => {
    const { bus, service, decisions, importXml } = await setup({ ...registry, debounce: 0 });
    await importXml(duplicateXml);
    await vi.waitFor(() => {
      expect(decisions).toHaveLength(1);
    });
    bus.fire("commandStack.changed", {});
    await vi.waitFor(() => {
      expect(decisions).toHaveLength(2);
    });
    expect(verdict(decisions[1])).toEqual({
      allowed: false,
      blocking: ["BPMN_PARSE@UnderwriterReview"],
      warnings: [],
    });
    expect(decisions[1]?.blocking[0]?.message).toBe(
      "element <bpmn:serviceTask> was dropped while reading: duplicate ID <UnderwriterReview>",
    );
    await importXml(gatedXml);
    await vi.waitFor(() => {
      expect(decisions).toHaveLength(3);
    });
    expect(verdict(service.getDecision())).toEqual({ allowed: true, blocking: [], warnings: [] });
  });

  it("marks the gates the organisation's selectors choose, with the role they give", async () => {
    // SeniorReview without its btv:gate: only the selector makes it a gate.
    const xml = loanXml.replace('<btv:gate approverRole="senior-credit-officer" />', "");
    const plain = await drawingSetup(xml);
    await plain.service.evaluate();
    expect(plain.drawn(".agentflow-gate-marker")).toEqual(["UnderwriterReview"]);
    const selected = await drawingSetup(xml, {
      gates: [{ id: "SeniorReview", role: "senior officer" }],
    });
    const decision = await selected.service.evaluate();
    expect(decision?.gates).toEqual([
      { elementId: "UnderwriterReview", role: "underwriter" },
      { elementId: "SeniorReview", role: "senior officer" },
    ]);
    expect(selected.drawn(".agentflow-gate-marker")).toEqual(["UnderwriterReview", "SeniorReview"]);
    expect(selected.marked(GATE_MARKER)).toEqual(["SeniorReview", "UnderwriterReview"]);
  });

  it("hides and shows the badges, gate markers and canvas markers on toggle, and says so", async () => {
    const { bus, service, marked, drawn } = await drawingSetup(shortcutXml);
    const toggles: unknown[] = [];
    bus.on("agentflow.toggle", (event) => toggles.push(event));
    await service.evaluate();
    const shown = () => ({
      badges: drawn(".agentflow-badge"),
      gates: drawn(".agentflow-gate-marker"),
      agentMarkers: marked(AGENT_MARKER),
      gateMarkers: marked(GATE_MARKER),
      bypass: marked(BYPASS_MARKER),
    });
    const all = {
      badges: ["AssessCreditRisk", "DraftAndSendOffer"],
      gates: ["UnderwriterReview", "SeniorReview"],
      agentMarkers: ["AssessCreditRisk", "DraftAndSendOffer"],
      gateMarkers: ["SeniorReview", "UnderwriterReview"],
      bypass: ["Flow_Shortcut", "Flow_ToBand", "Flow_ToSent"],
    };
    const none = { badges: [], gates: [], agentMarkers: [], gateMarkers: [], bypass: [] };
    expect(shown()).toEqual(all);

    service.toggle(false);
    expect(service.isActive()).toBe(false);
    expect(shown()).toEqual(none);
    // Evaluation goes on while hidden, and draws nothing.
    const decision = await service.evaluate();
    expect(service.getDecision()).toBe(decision);
    expect(shown()).toEqual(none);

    service.toggle(true);
    expect(service.isActive()).toBe(true);
    expect(shown()).toEqual(all);
    service.toggle();
    expect(shown()).toEqual(none);
    service.toggle();
    expect(shown()).toEqual(all);
    expect(toggles).toEqual([
      expect.objectContaining({ active: false }),
      expect.objectContaining({ active: true }),
      expect.objectContaining({ active: false }),
      expect.objectContaining({ active: true }),
    ]);
  });

  it("names the tasks and the path by their names in the badges' lists and on agentflow.changed", async () => {
    const { bus, service, listed } = await drawingSetup(shortcutXml);
    const said: string[] = [];
    bus.on("agentflow.changed", (event) => {
      said.push(...(event as AgentflowChangedEvent).decision.blocking.map((d) => d.message));
    });
    const decision = await service.evaluate();
    const bypass = decision?.blocking.find((d) => d.code === "AGENT_GATE_BYPASS");
    expect(bypass?.message).toBe(
      'agent task "Assess credit risk" (autonomy level 2) can reach the end without an approval gate: Assess credit risk → Risk band? → Draft and send offer → Offer sent',
    );
    // The data keeps the ids, for hosts and for the flows drawn.
    expect(bypass?.data.pathIds).toEqual([
      "AssessCreditRisk",
      "RiskBand",
      "DraftAndSendOffer",
      "OfferSent",
    ]);
    expect(said).toContain(bypass?.message);
    expect(listed("AssessCreditRisk")).toContain(`AGENT_GATE_BYPASS ${bypass?.message ?? ""}`);
    const offer = listed("DraftAndSendOffer").join("\n");
    expect(offer).toContain('"Draft and send offer"');
    expect(offer).not.toContain('"DraftAndSendOffer"');
  });

  it("redraws only what an evaluation changed, and what diagram-js took away with an element", async () => {
    const { bus, service, changes, elementRegistry, marked } = await drawingSetup(shortcutXml);
    await service.evaluate();
    expect(changes.splice(0).sort()).toEqual([
      "+agentflow-badge:AssessCreditRisk",
      "+agentflow-badge:DraftAndSendOffer",
      "+agentflow-gate-marker:SeniorReview",
      "+agentflow-gate-marker:UnderwriterReview",
    ]);
    // Nothing changed: nothing is taken off or put back.
    await service.evaluate();
    expect(changes).toEqual([]);
    // The underwriter's role changes: its marker, and nothing else, is drawn again.
    const review = elementRegistry.get("UnderwriterReview")?.businessObject as {
      extensionElements: { values: { $type: string; approverRole?: string }[] };
    };
    const gate = review.extensionElements.values.find((v) => v.$type === "btv:Gate");
    if (gate === undefined) throw new Error("UnderwriterReview is a gate");
    gate.approverRole = "chief underwriter";
    await service.evaluate();
    expect(changes.splice(0)).toEqual([
      "-agentflow-gate-marker:UnderwriterReview",
      "+agentflow-gate-marker:UnderwriterReview",
    ]);
    // diagram-js takes a removed element's overlays and graphics away (an undo brings it back
    // bare): the next evaluation draws it again.
    bus.fire("shape.remove", { element: elementRegistry.get("SeniorReview") });
    await service.evaluate();
    expect(changes.splice(0)).toEqual(["+agentflow-gate-marker:SeniorReview"]);
    expect(marked(GATE_MARKER)).toEqual(["SeniorReview", "UnderwriterReview"]);
  });

  it("clears the bypass marker of a flow whose id changed since it was marked", async () => {
    const { service, marked, rename } = await drawingSetup(shortcutXml);
    await service.evaluate();
    rename("Flow_ToBand", "Flow_Renamed");
    await service.evaluate();
    expect(marked(BYPASS_MARKER)).toEqual(["Flow_Renamed", "Flow_Shortcut", "Flow_ToSent"]);
    // Undone: the flow takes its old id back; what was drawn under the new id must still go.
    rename("Flow_Renamed", "Flow_ToBand");
    service.toggle(false);
    expect(marked(BYPASS_MARKER)).toEqual([]);
    expect(marked(AGENT_MARKER)).toEqual([]);
    expect(marked(GATE_MARKER)).toEqual([]);
  });
});
