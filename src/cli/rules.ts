/**
 * `agentflow rules`: the rules a run would use — agentflow's own and those of the plugins and
 * policy packs the config names — as a list, and with `-o <dir>` the pages of the
 * organisation's rules, generated from their meta as agentflow's rule index is.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BPMN_RULES } from "../bpmn/index.js";
import { visibleText } from "../model/index.js";
// The pages are the CLI's product, not the report API's: read from their file.
import type { RuleSource } from "../report/rule-pages.js";
import { extensionIndexMarkdown, rulePageMarkdown, rulePageName } from "../report/rule-pages.js";
import type { RuleMeta } from "../rules/index.js";
import { RULES } from "../validate/index.js";
import { resolveConfig } from "./config.js";
import type { Extensions } from "./extensions.js";
import { loadExtensions } from "./extensions.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** The options of `agentflow rules`. */
export interface RulesCliOptions {
  /** `-c <file>`: a string; `--no-config`: false; neither: undefined. */
  readonly config?: string | boolean;
  readonly format: string;
  /** A folder to write the organisation's rule pages into. */
  readonly outputDir?: string;
}

/** The plugins' and packs' rules, grouped by where they come from. */
export function ruleSources(extensions: Extensions): RuleSource[] {
  const plugins = extensions.plugins.map(({ source, plugin, rules }) => ({
    kind: "plugin" as const,
    name: source.name,
    version: plugin.meta.version,
    sha256: source.sha256,
    rules: rules.map((rule) => ({ meta: rule.meta })),
  }));
  const packs = extensions.packs.map((pack) => ({
    kind: "policy" as const,
    name: pack.name,
    version: pack.version,
    sha256: pack.sha256,
    // One process rule per pack rule, in the pack's order: each carries the rule as written.
    rules: pack.processRules.map((rule, i) => {
      const spec = pack.spec.rules[i];
      return spec === undefined ? { meta: rule.meta } : { meta: rule.meta, spec };
    }),
  }));
  return [...plugins, ...packs];
}

/**
 * One rule's line of the text list. A plugin's or a pack's code, version and description are its
 * author's text: shown with invisible characters escaped, so that a newline, a `\r` or an escape
 * sequence in them cannot start a line of its own (a forged `::warning::` command in a CI log) or
 * rewrite the lines above it. `--format json` keeps them as written.
 */
function line(meta: RuleMeta, from: string): string {
  const scope = meta.scope ?? "workflow";
  return `${visibleText(meta.code).padEnd(40)}  ${meta.defaultSeverity.padEnd(7)}  ${scope.padEnd(8)}  ${visibleText(from)}  ${visibleText(meta.description)}`;
}

/** Runs `agentflow rules`; returns the exit code. */
export async function runRules(
  options: RulesCliOptions,
  io: CliIo,
  cwd: string = process.cwd(),
): Promise<number> {
  if (options.format !== "text" && options.format !== "json") {
    throw new UsageError(`unknown --format '${options.format}' (expected text, json)`);
  }
  const loaded = await resolveConfig(options.config, cwd);
  const sources = ruleSources(await loadExtensions(loaded, cwd));
  if (options.outputDir !== undefined) {
    const dir = options.outputDir;
    const pages: [string, string][] = [["README.md", extensionIndexMarkdown(sources)]];
    for (const source of sources) {
      for (const rule of source.rules) {
        pages.push([rulePageName(rule.meta.code), rulePageMarkdown(source, rule)]);
      }
    }
    for (const [name, text] of pages) {
      const file = join(dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    io.stdout(`wrote ${pages.length} page(s) to ${dir}\n`);
    return 0;
  }
  const builtIn = [...RULES, ...BPMN_RULES].map((r) => ({ meta: r.meta, from: "agentflow" }));
  const own = sources.flatMap((s) =>
    s.rules.map((r) => ({ meta: r.meta, from: `${s.name}@${s.version}` })),
  );
  const all = [...builtIn, ...own];
  if (options.format === "json") {
    const rows = all.map(({ meta, from }) => ({
      code: meta.code,
      severity: meta.defaultSeverity,
      scope: meta.scope ?? "workflow",
      from,
      description: meta.description,
      docs: meta.docs,
    }));
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  io.stdout(all.map(({ meta, from }) => line(meta, from)).join("\n") + "\n");
  return 0;
}
