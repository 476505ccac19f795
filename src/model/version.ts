/**
 * agentflow's version as code sees it, in the browser too (no package.json to read there).
 * Rule sets and approvals name it: a verdict depends on the rules' code as much as on their
 * settings. `test/package.test.ts` holds it equal to package.json's.
 */
export const AGENTFLOW_VERSION = "0.1.0";
