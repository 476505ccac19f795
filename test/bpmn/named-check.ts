/**
 * `checkProcess`'s verdict worded as bpmnlint's rules and the modeller word it: the same
 * findings, codes and targets, with messages naming elements by their names (evaluate-labels.ts).
 * Tests that compare a lint with `checkProcess` compare with this; that the wording is the named
 * one is shown by literals in test/bpmn/evaluate-labels.test.ts and by each test's own check.
 */
import type { GateOptions, ProcessCheck, ReadOptions } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { namedDecision } from "../../src/bpmn/evaluate-labels.js";
import { compiledOptions } from "../../src/bpmn/compiled-options.js";

/** `checkProcess(xml, options)` with its findings' messages worded with the elements' names. */
export async function namedCheck(
  xml: string,
  options: GateOptions & ReadOptions = {},
): Promise<ProcessCheck> {
  const check = await checkProcess(xml, options);
  if (check.definitions === undefined) throw new Error("the process must parse");
  return { ...check, ...namedDecision(check, check.definitions, compiledOptions(options)) };
}
