/**
 * The reference run: the machine `toMachine` returns, run by an XState actor whose executor
 * replays the fixtures — what a host with real executors does. `simulate` must give the same.
 */
import { createActor, fromPromise, toPromise } from "xstate";
import type { AgentWorkflow } from "../../src/model/index.js";
import type {
  ExecutorInput,
  JsonObject,
  SimulateOptions,
  SimulationState,
} from "../../src/simulate/index.js";
import { toMachine } from "../../src/simulate/index.js";

/**
 * The `SimulationState` the full machine ends in when its executor fails the first `fails`
 * executions of a node (with the message `simulate` gives) and then outputs `outputs[visit - 1]`,
 * the last repeating, `{}` when there is none. Rejects with what the machine throws.
 */
export function machineRun(wf: AgentWorkflow, options: SimulateOptions): Promise<SimulationState> {
  const { fixtures = {}, costModel, sampleOutputs, ...input } = options;
  if (sampleOutputs === true) throw new TypeError("machineRun does not sample outputs");
  const execute = fromPromise<JsonObject, ExecutorInput>(({ input: at }) => {
    const fixture = fixtures[at.nodeId];
    const fails = fixture?.fails ?? 0;
    if (at.execution <= fails) {
      // A string, as simulate's fixture failures are: the record keeps the error as given.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(`fixture failure ${String(at.execution)} of ${String(fails)}`);
    }
    const outputs = fixture?.outputs ?? [];
    return Promise.resolve(outputs[Math.min(at.visit, outputs.length) - 1] ?? {});
  });
  const machine = toMachine(wf, costModel !== undefined ? { costModel } : {});
  return toPromise(createActor(machine.provide({ actors: { execute } }), { input }).start());
}
