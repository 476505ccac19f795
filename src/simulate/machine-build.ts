/**
 * The machine's states, built from a plan: one top-level state per node (`n0`, `n1`..., because
 * node ids may hold `.` and `#`, which XState reads as paths and ids), plus `finishing` (the final
 * output check), `completed` and `blocked`.
 */
import { initialContext } from "./context.js";
import { executorInput } from "./execute.js";
import { EXECUTOR, MACHINE_ID, machineSetup, type FlowMachine } from "./machine-setup.js";
import { TO_END, TO_MISSING, type Plan } from "./plan.js";
import { toSimulationState } from "./state.js";

type MachineSetup = ReturnType<typeof machineSetup>;
type MachineConfig = Parameters<MachineSetup["createMachine"]>[0];
type StateConfig = NonNullable<MachineConfig["states"]>[string];

/** The state a flow goes to when it reaches node index `target` (or the end). */
function stateFor(plan: Plan, target: number): string {
  if (target === TO_END || target < 0) return `#${MACHINE_ID}.finishing`;
  return `#${MACHINE_ID}.${plan.stateIds[target] ?? ""}`;
}

/**
 * Where node `k` goes once its output is accepted. Into a next llm/tool node the step goes
 * straight to its `run` state, the next attempt checked by a guard: through its `check` state it
 * took a second microstep, a third of a step's time.
 */
function onOutput(plan: Plan, k: number) {
  const params = { node: k };
  const next = plan.next[k] ?? -1;
  const refused = {
    guard: { type: "outputRefused" as const, params },
    target: `#${MACHINE_ID}.blocked`,
    actions: { type: "blockOutput" as const, params },
  };
  if (next < 0 || plan.graph.nodes[next]?.type === "decision") {
    const accept = { type: "accept" as const, params };
    return [refused, { target: stateFor(plan, next), reenter: true, actions: accept }];
  }
  const step = { node: k, next };
  return [
    refused,
    {
      guard: { type: "nextAttemptBlocked" as const, params: step },
      target: `#${MACHINE_ID}.blocked`,
      actions: { type: "acceptAndBlock" as const, params: step },
    },
    {
      target: `${stateFor(plan, next)}.run`,
      reenter: true,
      actions: { type: "acceptAndBegin" as const, params: step },
    },
  ];
}

function executionState(plan: Plan, k: number): StateConfig {
  const params = { node: k };
  return {
    initial: "check",
    states: {
      check: {
        always: [
          {
            guard: { type: "attemptBlocked", params },
            target: `#${MACHINE_ID}.blocked`,
            actions: { type: "blockAttempt", params },
          },
          { target: "run", actions: { type: "beginAttempt", params } },
        ],
      },
      run: {
        invoke: {
          id: EXECUTOR,
          src: EXECUTOR,
          input: ({ context }) => executorInput(plan, context, k),
          onDone: onOutput(plan, k),
          onError: [
            {
              guard: { type: "canRetry", params },
              target: "check",
              actions: { type: "retry", params },
            },
            { target: `#${MACHINE_ID}.blocked`, actions: { type: "blockFailure", params } },
          ],
        },
      },
    },
  };
}

function decisionState(plan: Plan, k: number): StateConfig {
  const params = { node: k };
  const routes = plan.routes[k] ?? [];
  // A route to a missing node has no state to go to; choosing it stops the run (blockDecision).
  const taken = routes.flatMap((route, r) =>
    route.target === TO_MISSING
      ? []
      : [
          {
            guard: { type: "route" as const, params: { node: k, route: r } },
            target: stateFor(plan, route.target),
            reenter: true,
            actions: { type: "takeRoute" as const, params },
          },
        ],
  );
  return {
    always: [
      ...taken,
      { target: `#${MACHINE_ID}.blocked`, actions: { type: "blockDecision", params } },
    ],
  };
}

/** The machine of `plan`: a state for every node. */
export function buildMachine(plan: Plan): FlowMachine {
  const states: Record<string, StateConfig> = {};
  plan.graph.nodes.forEach((node, k) => {
    const id = plan.stateIds[k] ?? `n${k}`;
    states[id] = node.type === "decision" ? decisionState(plan, k) : executionState(plan, k);
  });
  // Reaching the end completes the run; the final output's check is a finding on it (route.ts).
  states.finishing = { always: [{ target: "completed", actions: "complete" }] };
  states.completed = { type: "final" };
  states.blocked = { type: "final" };
  const entry = plan.graph.entry;
  return machineSetup(plan).createMachine({
    id: MACHINE_ID,
    context: ({ input }) => initialContext(plan, input),
    initial: entry === undefined ? "blocked" : (plan.stateIds[entry] ?? "blocked"),
    states,
    output: ({ context }) => toSimulationState(plan, context),
  });
}
