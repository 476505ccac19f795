/**
 * The policy packs compiled for the module: the FEEL compiler, the pattern checks and the pack
 * schema, in a chunk of their own. The engine loads it (`loadPackCompiler`) only when the page
 * sets `policies`, so a page without packs never fetches it; `configProblems` imports it
 * statically, as it compiles the packs.
 */
import type { CompiledPack } from "../policy/index.js";
import { compilePolicyPack, formatPolicyProblem, PolicyPackError } from "../policy/read.js";
import { isCompiled } from "../validate/policies.js";

/**
 * Each pack entry's compilation by where it is named: checking the options and preparing them
 * read the same entries, and `configProblems` may have read them before; a pack is compiled
 * (FEEL and Ajv) once per entry object.
 */
const compilations = new WeakMap<object, Map<string, CompiledPack | string[]>>();

/** A pack entry compiled, or its problems (each naming `where`). */
export function compiledEntry(entry: object, where: string): CompiledPack | string[] {
  if (isCompiled(entry)) return entry;
  let byWhere = compilations.get(entry);
  const known = byWhere?.get(where);
  if (known !== undefined) return known;
  let result: CompiledPack | string[];
  try {
    result = compilePolicyPack(entry, where);
  } catch (error) {
    if (!(error instanceof PolicyPackError)) throw error;
    result = error.problems.map(formatPolicyProblem);
  }
  if (byWhere === undefined) {
    byWhere = new Map();
    compilations.set(entry, byWhere);
  }
  byWhere.set(where, result);
  return result;
}
