/**
 * What judged a run, in the words of the text reports: the config file with its hash and the
 * rules it changed from the preset, then the rule set's digest. Machine formats carry the same
 * data as it is (`settings.ts`'s {@link Provenance}).
 */
import type { Provenance } from "./settings.js";

/** The hash as the tables show it: the algorithm and twelve hex digits. */
function short(hash: string): string {
  return hash.slice(0, "sha256:".length + 12);
}

/**
 * Two lines naming the config (or none) and the rule set, such as
 * `config: agentflow.config.json (sha256:4bfaa9f8a7cb); changed from the preset:
 * AGENT_GATE_BYPASS warning (preset error)` and `rule set: sha256:9c1d0e2f3a4b (agentflow
 * 0.1.0, preset recommended)`; the rule set's line also names each policy pack and plugin with
 * its version and hash (`policy pack bank@1.2.0 sha256:…`) and, when waivers are in force, the
 * day they were judged on.
 */
export function provenanceLines(provenance: Provenance): string[] {
  const { config, ruleSet } = provenance;
  const changed = ruleSet.changed.map((c) => `${c.code} ${c.setting} (preset ${c.preset})`);
  const head =
    config === null ? "config: none" : `config: ${config.file} (${short(config.contentHash)})`;
  const changes = changed.length === 0 ? "" : `; changed from the preset: ${changed.join(", ")}`;
  const policy =
    ruleSet.camundaAgents === "gate-required" ? "" : `, Camunda agents ${ruleSet.camundaAgents}`;
  // Each pack and plugin that judged, pinned: which policy judged is part of the verdict.
  const extensions = (ruleSet.extensions ?? []).map(
    (e) =>
      `${e.kind === "policy" ? "policy pack" : "plugin"} ${e.name}@${e.version} ${short(e.sha256)}`,
  );
  const pinned = extensions.length === 0 ? "" : `; ${extensions.join(", ")}`;
  const waivers = provenance.today === undefined ? "" : `; waivers judged on ${provenance.today}`;
  return [
    head + changes,
    `rule set: ${short(ruleSet.digest)} (agentflow ${ruleSet.agentflowVersion}, preset ${ruleSet.preset}${policy}${pinned}${waivers})`,
  ];
}
