/**
 * A gate decision taken both ways — `checkProcess` (async) and `evaluateGatesSync` — with the
 * check that they agree, and the findings of a decision in the shape the fail-closed tests
 * compare.
 */
import { expect } from "vitest";
import type { GateDecision, GateOptions } from "../../src/bpmn/index.js";
import { checkProcess, evaluateGatesSync, readProcess } from "../../src/bpmn/index.js";

/** A decision's findings, blocking then warnings: code, severity and data. */
export type Summary = { code: string; severity: string; data: Record<string, unknown> }[];

/** The findings of `decision`, blocking then warnings. */
export function findings(decision: GateDecision): Summary {
  return [...decision.blocking, ...decision.warnings].map((d) => ({
    code: d.code,
    severity: d.severity,
    data: d.data,
  }));
}

/**
 * The async decision on `xml`; unless `sync` is false, the synchronous one too, which must find
 * the same and allow the same.
 */
export async function decideBothWays(
  xml: string,
  options: GateOptions,
  sync = true,
): Promise<GateDecision> {
  const decision = await checkProcess(xml, options);
  if (sync) {
    const { definitions } = await readProcess(xml);
    if (definitions === undefined) throw new Error("fixture unreadable");
    const again = evaluateGatesSync(definitions, options);
    expect(findings(again)).toEqual(findings(decision));
    expect(again.allowed).toBe(decision.allowed);
  }
  return decision;
}
