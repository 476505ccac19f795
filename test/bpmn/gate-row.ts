/** A process of one agent task and the gates after it in a row, prepared as the gate reads it. */
import { expect } from "vitest";
import type { GateSelector } from "../../src/bpmn/index.js";
import { readProcess } from "../../src/bpmn/index.js";
import { prepareProcess } from "../../src/bpmn/analysis.js";
import { agent, chain, endEvent, processXml, startEvent } from "./builders.js";

/** Agent task `A`, then the gates in a row (`G1`, `G2`…), then `E`: the prepared process and A's node. */
export async function gateRow(gates: readonly string[], selectors: readonly GateSelector[]) {
  const ids = gates.map((_, i) => `G${String(i + 1)}`);
  const xml = processXml(
    startEvent("S"),
    agent("A", { ref: "agnt-x@1.0.0", level: "3" }),
    ...gates,
    endEvent("E"),
    chain("S", "A", ...ids, "E"),
  );
  const { definitions, diagnostics } = await readProcess(xml);
  expect(diagnostics).toEqual([]);
  if (definitions === undefined) throw new Error("unreadable");
  const process = prepareProcess(definitions, undefined, selectors);
  const node = process.agents.find((a) => a.entry.id === "A")?.node;
  if (node === undefined) throw new Error("no agent task A");
  return { process, node };
}
