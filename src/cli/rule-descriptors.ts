import { dirname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RuleDescriptor, ToolExtension } from "../report/index.js";
import { ruleHelpUri } from "../report/index.js";
import { BPMN_RULES } from "../bpmn/index.js";
import type { RuleMeta } from "../rules/index.js";
import { RULES } from "../validate/index.js";
import type { Extensions } from "./extensions.js";

/** Describes the built-in rules (workflow and BPMN) for SARIF and JUnit. */
export function ruleDescriptors(): RuleDescriptor[] {
  return [...RULES, ...BPMN_RULES].map((r) => ({
    code: r.meta.code,
    description: r.meta.description,
    defaultSeverity: r.meta.defaultSeverity,
    helpUri: ruleHelpUri(r.meta.code),
  }));
}

/** A URI with a scheme (`https:`, `file:`), as opposed to a path. */
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * A rule's `docs` as a URI: a URL as it is; a path (with an optional `#fragment`) resolved
 * against `base` into a `file:` URI, since SARIF's `helpUri` must be absolute.
 */
export function docsUri(docs: string, base: string): string {
  if (HAS_SCHEME.test(docs) && !/^[A-Za-z]:[\\/]/.test(docs)) return docs;
  const hash = docs.indexOf("#");
  const path = hash < 0 ? docs : docs.slice(0, hash);
  const fragment = hash < 0 ? "" : docs.slice(hash);
  return pathToFileURL(isAbsolute(path) ? path : resolve(base, path)).href + fragment;
}

function descriptor(meta: RuleMeta, base: string): RuleDescriptor {
  return {
    code: meta.code,
    description: meta.description,
    defaultSeverity: meta.defaultSeverity,
    helpUri: docsUri(meta.docs, base),
  };
}

/** Each code once, in order. */
function unique(metas: readonly RuleMeta[]): RuleMeta[] {
  const seen = new Set<string>();
  return metas.filter((m) => {
    if (seen.has(m.code)) return false;
    seen.add(m.code);
    return true;
  });
}

/**
 * The plugins and packs as the CI formats describe them, each with its rules. A rule's relative
 * `docs` is resolved where its author wrote it: a plugin's from its module's folder, a pack
 * rule's own `docs` from the pack's folder; a pack rule without one links to its place in the
 * pack (`<pack>#<id>`, relative to the working directory, as the pack's path is shown).
 */
export function extensionDescriptors(extensions: Extensions, cwd: string): ToolExtension[] {
  const plugins = extensions.plugins.map(({ source, plugin, rules }): ToolExtension => ({
    kind: "plugin",
    name: source.name,
    version: plugin.meta.version,
    sha256: source.sha256,
    rules: rules.map((r) => descriptor(r.meta, dirname(source.file))),
  }));
  const packs = extensions.packs.map((pack): ToolExtension => {
    const own = new Set(pack.spec.rules.filter((r) => r.docs !== undefined).map((r) => r.id));
    const folder = dirname(resolve(cwd, pack.source));
    const metas = unique([...pack.processRules, ...pack.workflowRules].map((r) => r.meta));
    return {
      kind: "policy",
      name: pack.name,
      version: pack.version,
      sha256: pack.sha256,
      rules: metas.map((m) =>
        descriptor(m, own.has(m.code.slice(pack.name.length + 1)) ? folder : cwd),
      ),
    };
  });
  return [...plugins, ...packs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
