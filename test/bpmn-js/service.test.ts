/**
 * The `agentflow` service's timing (issue 23), with diagram-js's real event bus and the example
 * process's real moddle definitions: the import is evaluated at once, changes are debounced into
 * one evaluation, an async evaluation overtaken by a newer one is dropped, a host's predicate that
 * throws is an `agentflow.error`, and `diagram.clear` forgets the decision. The overlays are off
 * (`active: false`), so nothing here draws; drawing is tested in Chromium
 * (`test/e2e/modeler.e2e.test.ts`).
 */
import EventBus from "diagram-js/lib/core/EventBus.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GateDecision, ModdleObject } from "../../src/bpmn/index.js";
import { readProcess } from "../../src/bpmn/index.js";
import type { AgentflowChangedEvent, AgentflowConfig } from "../../src/bpmn-js/index.js";
import { AgentflowService, OVERLAY_TYPE } from "../../src/bpmn-js/index.js";
import { loanXml, registry } from "./loan.js";

interface Bus {
  on(event: string, callback: (event: unknown) => void): void;
  off(event: string, callback: (event: unknown) => void): void;
  fire(type: string, data?: object): unknown;
}

async function setup(config: AgentflowConfig) {
  const { definitions } = await readProcess(loanXml);
  if (definitions === undefined) throw new Error("the example must parse");
  const bus = new (EventBus as unknown as new () => Bus)();
  const removed: unknown[] = [];
  const service = new AgentflowService(
    { ...config, active: false },
    bus,
    { getDefinitions: (): ModdleObject => definitions },
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
  return { bus, service, decisions, removed };
}

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
    await vi.advanceTimersByTimeAsync(0);
    expect(decisions).toHaveLength(1);
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

  it("fires agentflow.error when the host's gate predicate throws, and keeps the last decision", async () => {
    let broken = false;
    const { bus, service, decisions } = await setup({
      ...registry,
      isGate: () => {
        if (broken) throw new Error("directory unreachable");
        return false;
      },
    });
    const errors: unknown[] = [];
    bus.on("agentflow.error", (event) => errors.push((event as { error: unknown }).error));
    const before = await service.evaluate();
    broken = true;
    expect(await service.evaluate()).toBeUndefined();
    expect(errors).toEqual([new Error("directory unreachable")]);
    expect(decisions).toEqual([before]);
    expect(service.getDecision()).toBe(before);
  });

  it("forgets the decision and clears its overlays when the diagram is cleared", async () => {
    const { bus, service, removed } = await setup(registry);
    await service.evaluate();
    expect(service.getDecision()).toBeDefined();
    bus.fire("diagram.clear", {});
    expect(service.getDecision()).toBeUndefined();
    expect(removed.at(-1)).toEqual({ type: OVERLAY_TYPE });
  });

  it("toggles without drawing while off, and says so on the bus", async () => {
    const { bus, service } = await setup(registry);
    const toggles: unknown[] = [];
    bus.on("agentflow.toggle", (event) => toggles.push(event));
    expect(service.isActive()).toBe(false);
    service.toggle(false);
    expect(toggles).toEqual([expect.objectContaining({ active: false })]);
  });
});
