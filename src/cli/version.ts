import { AGENTFLOW_VERSION } from "../model/index.js";

/** agentflow's version (package.json's, which `test/package.test.ts` holds equal). */
export function packageVersion(): string {
  return AGENTFLOW_VERSION;
}
