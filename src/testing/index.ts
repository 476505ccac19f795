/**
 * Testing rules (`agentflow/testing`): `RuleTester` runs a table of valid and invalid cases
 * against a workflow rule or a process rule made with `defineRule` (`agentflow/rules`), under
 * vitest, jest, mocha or node:test, or on its own. It asserts with `node:assert`, so it runs in
 * Node, not in a browser.
 *
 * @packageDocumentation
 */
export { RuleTester } from "./rule-tester.js";
export type {
  CaseBase,
  DescribeFunction,
  ExpectedError,
  InvalidCase,
  ItFunction,
  ProcessGateOptions,
  ProcessInvalidCase,
  ProcessValidCase,
  RuleTesterDefaults,
  RuleTests,
  ValidCase,
  WorkflowInvalidCase,
  WorkflowValidCase,
} from "./types.js";
