/**
 * The block `agentflow gate` prints under its table for each Camunda agent read from the BPMN
 * (docs/bpmn.md): what was read, the derived level with the reasons naming the elements, and
 * one line per tool with its effect and where the effect came from. The btv agents' table keeps
 * its columns; this block only adds what a derived agent has and a btv ref does not.
 */
import type { DerivedAgent } from "../bpmn/index.js";
import { visibleText } from "../model/index.js";
import {
  derivedAgentFacts,
  derivedToolRows,
  peopleNote,
  reasonText,
} from "../report/derived-agent.js";

/** Short enough for a terminal, long enough to tell two prompts apart. */
const HASH_LENGTH = 19;

/** The lines of one derived agent's block, unindented heading then indented facts and tools. */
export function derivedAgentLines(agent: DerivedAgent): string[] {
  const facts = derivedAgentFacts(agent, { hashLength: HASH_LENGTH });
  const width = Math.max(...facts.map((f) => f.label.length));
  const lines = [`Camunda agent ${facts[0]?.value ?? agent.elementId}, read from the BPMN:`];
  for (const fact of facts.slice(1)) lines.push(`  ${fact.label.padEnd(width)}  ${fact.value}`);
  const reasons =
    agent.reasons.length === 0 ? ["no loop, branch or delegation"] : agent.reasons.map(reasonText);
  for (const reason of reasons) lines.push(`  ${"reason".padEnd(width)}  ${reason}`);
  const rows = derivedToolRows(agent);
  lines.push(`  tools (${String(rows.length)}):`);
  const id = Math.max(0, ...rows.map((r) => r.id.length));
  const kind = Math.max(0, ...rows.map((r) => r.kind.length));
  const effect = Math.max(0, ...rows.map((r) => r.effect.length));
  for (const row of rows) {
    const via = row.decidedBy === undefined ? "" : ` (decided by ${row.decidedBy})`;
    const person = row.person ? "; person, not a gate" : "";
    lines.push(
      `    ${row.id.padEnd(id)}  ${row.kind.padEnd(kind)}  ${row.effect.padEnd(effect)}  ${row.origin}${via}${person}`,
    );
  }
  const people = peopleNote(agent);
  if (people !== undefined) lines.push(`  people: ${people}`);
  // Every fact is the BPMN's text (a model, a job type, a template id): escaped, a newline in
  // one cannot start a line of its own (a forged fact, a CI runner's `::` command).
  return lines.map(visibleText);
}
