import { forwardDataflow } from "../../model/index.js";
import { shapeNames, topField } from "../../model/internal.js";
import { anyDeclared, fieldsRead, produced } from "../output-names.js";
import type { Rule } from "../types.js";
import { defineRule } from "../../rules/index.js";

/**
 * At most this many distinct declared names get a bit (those also read by a condition first),
 * which bounds time and memory on hostile documents: a read name declared somewhere but beyond
 * the limit is not checked, a declared one is not listed in `declared`.
 */
const MAX_TRACKED = 1024;
/** At most this many names are listed in `declared`. */
const MAX_LISTED = 20;
/** Bit 0: an upstream node declares its output; bit 1: one produces undeclared output; then names. */
const FIRST_FIELD_BIT = 2;

/**
 * A condition reads `output.x` but no node upstream of the decision declares `x` in its output:
 * a typo, or a field no model was asked for, so the condition never holds as intended.
 *
 * Only when upstream outputs are known: some upstream node declares them (an llm's
 * `outputSchema`, a tool's resolved contract) and none produces undeclared output (an llm without
 * `outputSchema`, an unresolved tool), which may well hold `x`. Only the first segment after
 * `output.` is compared; workflow inputs are not outputs (SPEC 2.6). Upstream names come from one
 * forward dataflow pass with bitset unions; one report per unknown name per condition.
 */
export const rule: Rule = defineRule({
  meta: {
    code: "CONDITION_UNKNOWN_FIELD",
    defaultSeverity: "warning",
    description: "A condition reads an output field that no upstream node declares",
    docs: "docs/rules/CONDITION_UNKNOWN_FIELD.md",
    messages: {
      default:
        'the condition of route {{route}} of decision "{{nodeId}}" reads "{{name}}", but no upstream node declares "{{field}}" in its output (upstream fields: {{declared}})',
      input:
        'the condition of route {{route}} of decision "{{nodeId}}" reads "{{name}}", but "{{field}}" is a workflow input: conditions read only the outputs of upstream nodes',
      none: 'the condition of route {{route}} of decision "{{nodeId}}" reads "{{name}}", but the nodes upstream declare no output fields at all',
    },
    remediation:
      'fix the field name, or declare "{{field}}" in the outputSchema of the llm (or tool contract) that produces it',
  },
  check({ workflow, graph, facts, report }) {
    const conditions = facts.conditions();
    const bit = new Map<string, number>();
    const names: string[] = [];
    const track = (name: string): void => {
      if (bit.has(name) || names.length >= MAX_TRACKED) return;
      bit.set(name, names.length + FIRST_FIELD_BIT);
      names.push(name);
    };
    const read = fieldsRead(conditions);
    if (read.size === (read.has(undefined) ? 1 : 0)) return;
    if (!anyDeclared(workflow, facts)) return;
    const declared = produced(workflow, facts);
    // Bits go to names both read and declared first: a name declared nowhere needs no bit.
    const anywhere = new Set(declared.flatMap((d) => d ?? []));
    for (const name of read) if (name !== undefined && anywhere.has(name)) track(name);
    for (const name of anywhere) track(name);
    const words = Math.ceil((names.length + FIRST_FIELD_BIT) / 32);
    const has = (s: Int32Array, b: number): boolean => (((s[b >>> 5] ?? 0) >>> (b & 31)) & 1) === 1;
    const bitset = (bits: readonly number[]): Int32Array => {
      const out = new Int32Array(words);
      for (const b of bits) out[b >>> 5] = (out[b >>> 5] ?? 0) | (1 << (b & 31));
      return out;
    };
    const EMPTY = bitset([]);
    const UNDECLARED = bitset([1]);
    const own = (i: number): Int32Array => {
      const d = declared[i];
      if (d === null) return EMPTY;
      return d === undefined ? UNDECLARED : bitset([0, ...d.map((n) => bit.get(n) ?? 0)]);
    };
    // A union returns an operand that already holds the other, so chains allocate little.
    const join = (a: Int32Array, b: Int32Array): Int32Array => {
      let aCovers = true;
      let bCovers = true;
      for (let k = 0; k < words && (aCovers || bCovers); k++) {
        const x = a[k] ?? 0;
        const y = b[k] ?? 0;
        aCovers &&= (x | y) === x;
        bCovers &&= (x | y) === y;
      }
      if (aCovers) return a;
      return bCovers ? b : a.map((x, k) => x | (b[k] ?? 0));
    };
    const upstream = forwardDataflow(graph, own, join, EMPTY);
    const inputs = new Set(shapeNames(workflow.inputSchema));
    let byName: (readonly [string, number])[] | undefined; // sorted once, on the first report

    workflow.nodes.forEach((node, i) => {
      if (conditions[i]?.length === 0) return;
      const seen = upstream[i] ?? EMPTY;
      if (!has(seen, 0) || has(seen, 1)) return;
      let listed: string[] | undefined;
      for (const c of conditions[i] ?? []) {
        const reported = new Set<string>();
        for (const name of c.analysis.fields) {
          const field = topField(name);
          if (field === undefined || reported.has(field)) continue;
          const b = bit.get(field);
          if (b === undefined ? anywhere.has(field) : has(seen, b)) continue;
          reported.add(field);
          byName ??= names
            .map((n, k) => [n, k + FIRST_FIELD_BIT] as const)
            .sort((x, y) => (x[0] < y[0] ? -1 : 1));
          if (listed === undefined) {
            listed = [];
            for (const [n, k] of byName) {
              if (listed.length === MAX_LISTED) break;
              if (has(seen, k)) listed.push(n);
            }
          }
          const isInput = inputs.has(field);
          const messageId = isInput ? "input" : listed.length === 0 ? "none" : "default";
          report({
            target: { kind: "node", nodeId: node.id },
            path: c.path,
            messageId,
            data: { nodeId: node.id, route: c.label, field, name, declared: listed, isInput },
          });
        }
      }
    });
  },
});
