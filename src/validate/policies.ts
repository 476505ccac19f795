/**
 * Policy packs as the library's options take them: compiled (`readPolicyPack`,
 * `compilePolicyPack`) or as plain data (a parsed YAML or JSON pack, as a browser holds it),
 * compiled here. A pack that does not compile is a `PolicyPackError` naming every problem.
 * Only the public functions import this file: what evaluates with packs compiled already (the
 * modeller's engine) reaches no compiler, and a bundler leaves it out of that chunk.
 */
import type { CompiledPack } from "../policy/index.js";
import { compilePolicyPack } from "../policy/read.js";

/** A pack an option accepts: compiled, or its plain data. */
export type PolicyInput = CompiledPack | Readonly<Record<string, unknown>>;

/** Whether a pack is compiled already (`readPolicyPack`, `compilePolicyPack`), not plain data. */
export function isCompiled(input: object): input is CompiledPack {
  const pack = input as Partial<CompiledPack>;
  return Array.isArray(pack.processRules) && typeof pack.sha256 === "string";
}

/** Compiled packs, in the order given; plain data is compiled (and checked) here. */
export function packsOf(inputs: readonly PolicyInput[] | undefined): readonly CompiledPack[] {
  if (inputs === undefined || inputs.length === 0) return [];
  return inputs.map((input) => (isCompiled(input) ? input : compilePolicyPack(input)));
}
