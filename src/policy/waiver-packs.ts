/**
 * Packs of one name, or a pack named as a plugin, refused wherever a list of packs is taken. A
 * pack's name prefixes its rules' codes, and its waivers name rules by it (bare, or as
 * `<name>/<id>`): of two packs of one name, either's waivers would waive the other's rules — a
 * team's pack could silence the compliance pack listed beside it, or the compliance plugin whose
 * name it takes. This file imports nothing, so that the modeller's first load (which
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
 * Each pack of `packs` named as an earlier one is, or as one of `plugins` is (a plugin's name is
 * the key it is given under, which prefixes its rules' codes as a pack's name does), one line
 * each (empty when every name is its own): the same line on every surface that takes packs:
 * `applyWaivers` (so `evaluateGates`, `checkProcess`, `createValidator` given waivers, the
 * modeller's engine), the CLI's config, the Camunda Modeler's project reader, bpmn-js's and
 * bpmnlint's `policies`, each placing it. A pack is named by its `source`, and by its place in
 * the list (`#2`) too when another pack has that source (packs given as data).
 *
 * @example
 * ```ts
 * import { duplicatePackProblems } from "agentflow/policy";
 *
 * duplicatePackProblems([{ name: "bank", source: "compliance.policy.yaml" }, { name: "bank", source: "team.policy.yaml" }]);
 * // → ["policy pack team.policy.yaml is named 'bank', as policy pack compliance.policy.yaml is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules"]
 * duplicatePackProblems([{ name: "bank", source: "team.policy.yaml" }], ["bank"]);
 * // → ["policy pack team.policy.yaml is named 'bank', as plugin 'bank' is; the name prefixes rule codes, so it must be unique"]
 * ```
 */
export function duplicatePackProblems(
  packs: readonly NamedPack[],
  plugins: readonly string[] = [],
): string[] {
  const first = new Map<string, number>();
  const pluginNames = new Set(plugins);
  const out: string[] = [];
  const label = (k: number, other?: number): string => {
    const source = packs[k]?.source;
    if (source === undefined) return `#${k + 1}`;
    // Packs given as data share one source: their place tells them apart.
    const shared = packs.some(
      (p, i) => i !== k && (other === undefined || i === other) && p.source === source,
    );
    return shared ? `${source} (#${k + 1})` : source;
  };
  packs.forEach((pack, i) => {
    const j = first.get(pack.name);
    if (j !== undefined) {
      out.push(
        `policy pack ${label(i, j)} is named ${quoteName(pack.name)}, as policy pack ${label(j, i)} is; the name prefixes its rules' codes, which waivers name, so it must be unique: one pack's waivers would waive the other's rules`,
      );
      return;
    }
    first.set(pack.name, i);
    // A pack's waivers name rules by its name: named as a plugin, they would waive the plugin's.
    if (pluginNames.has(pack.name)) {
      out.push(
        `policy pack ${label(i)} is named ${quoteName(pack.name)}, as plugin ${quoteName(pack.name)} is; the name prefixes rule codes, so it must be unique`,
      );
    }
  });
  return out;
}
