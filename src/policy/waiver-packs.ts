/**
 * Packs of one name, refused wherever a list of packs is taken. A pack's name prefixes its rules'
 * codes, and its waivers name rules by it (bare, or as `<name>/<id>`): of two packs of one name,
 * either's waivers would waive the other's rules — a team's pack could silence the compliance
 * pack listed beside it. This file imports nothing, so that the modeller's first load (which
 * checks its options before any engine is fetched) can refuse them too.
 */

/** A pack as the check sees it: its name, and where it was read from (to place the problem). */
export interface NamedPack {
  readonly name: string;
  readonly source?: string;
}

/** A pack name in a message: as is when it is one a pack may have (`bank`), else as JSON. */
function quoteName(name: string): string {
  return /^[a-z0-9._-]+$/.test(name) ? `'${name}'` : JSON.stringify(name);
}

/**
 * Each pack of `packs` named as an earlier one is, one line each (empty when every name is its
 * own), the same line on every surface that takes packs: `applyWaivers` (so `evaluateGates`,
 * `checkProcess`, `createValidator` given waivers, the modeller's engine), the CLI's config, the
 * Camunda Modeler's project reader, bpmn-js's and bpmnlint's `policies`, each placing it. A
 * pack is named by its `source`, and by its place in the list (`#2`) too when both packs have
 * one source (two packs given as data).
 *
 * @example
 * ```ts
 * import { duplicatePackProblems } from "agentflow/policy";
 *
 * duplicatePackProblems([{ name: "bank", source: "compliance.policy.yaml" }, { name: "bank", source: "team.policy.yaml" }]);
 * // → ["policy pack team.policy.yaml is named 'bank', as policy pack compliance.policy.yaml is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules"]
 * ```
 */
export function duplicatePackProblems(packs: readonly NamedPack[]): string[] {
  const first = new Map<string, number>();
  const out: string[] = [];
  packs.forEach((pack, i) => {
    const j = first.get(pack.name);
    if (j === undefined) {
      first.set(pack.name, i);
      return;
    }
    const earlier = packs[j];
    const same = earlier?.source === pack.source;
    const label = (p: NamedPack | undefined, k: number): string =>
      p?.source === undefined ? `#${k + 1}` : same ? `${p.source} (#${k + 1})` : p.source;
    out.push(
      `policy pack ${label(pack, i)} is named ${quoteName(pack.name)}, as policy pack ${label(earlier, j)} is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules`,
    );
  });
  return out;
}
