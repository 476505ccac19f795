import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { CheckedFile, ToolExtension } from "../report/index.js";
import {
  fileUriOf,
  formatGithub,
  formatGitlab,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
} from "../report/index.js";
import { provenanceLines } from "./provenance.js";
import { ruleDescriptors } from "./rule-descriptors.js";
import type { Provenance } from "./settings.js";
import { packageVersion } from "./version.js";

/** The report formats of `check` and `gate`. */
export const REPORT_FORMATS = ["text", "json", "sarif", "junit", "github", "gitlab"] as const;

/** How {@link renderFiles} renders. */
export interface RenderOptions {
  readonly color: boolean;
  /** SARIF `automationDetails.id` (`--sarif-category`). */
  readonly sarifCategory?: string;
  /** The working directory: SARIF URIs are relative to it. */
  readonly cwd: string;
  /** What judged the run, recorded in the SARIF run's `properties.agentflow`. */
  readonly provenance?: Provenance;
  /** The plugins and policy packs that judged, with their rules (SARIF, JUnit). */
  readonly extensions?: readonly ToolExtension[];
}

/**
 * A path relative to the working directory when it is inside it (`/abs/ws/a.json`,
 * `../ws/a.json` → `a.json`), as GitLab maps paths to the repository; any other path as given.
 */
function repositoryRelative(file: string, cwd: string): string {
  const rel = relative(cwd, resolve(cwd, file));
  return rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? file : rel;
}

/** What judged the run, as JUnit properties. */
function junitProperties(provenance: Provenance): Record<string, string> {
  const { config, ruleSet } = provenance;
  return {
    "agentflow.config": config === null ? "none" : `${config.file} ${config.contentHash}`,
    "agentflow.ruleSet": ruleSet.digest,
    "agentflow.version": ruleSet.agentflowVersion,
    "agentflow.preset": ruleSet.preset,
    "agentflow.changed": ruleSet.changed.map((c) => `${c.code}=${c.setting}`).join(" "),
    // Each plugin and pack that judged, pinned: `policy 1.2.0 sha256:…`.
    ...Object.fromEntries(
      (ruleSet.extensions ?? []).map((e) => [
        `agentflow.extension.${e.name}`,
        `${e.kind} ${e.version} ${e.sha256}`,
      ]),
    ),
    ...(ruleSet.waivers === undefined
      ? {}
      : { "agentflow.waivers": String(ruleSet.waivers.length) }),
    ...(provenance.today === undefined ? {} : { "agentflow.today": provenance.today }),
  };
}

/**
 * Renders checked files in one of {@link REPORT_FORMATS} (anything else is text). With a
 * provenance, every machine format that has room for it names what judged the run: each JSON
 * entry's `config` and `ruleSet`, the SARIF run's `properties.agentflow` (and its plugins and
 * packs as `tool.extensions`), JUnit `<properties>`, a GitHub `notice`, and each GitLab issue's
 * `agentflow.ruleSet` (a field GitLab does not read; the report is a list of issues). The text report's
 * {@link provenanceLines} follow its summary line, which the caller may still extend.
 */
export function renderFiles(
  format: string,
  files: readonly CheckedFile[],
  options: RenderOptions,
): string {
  const provenance = options.provenance;
  const extensions = options.extensions ?? [];
  switch (format) {
    case "json":
      return formatJson(
        provenance === undefined ? files : files.map((f) => ({ ...f, ...provenance })),
      );
    case "sarif":
      return formatSarif(files, {
        rules: ruleDescriptors(),
        toolVersion: packageVersion(),
        srcRoot: fileUriOf(options.cwd) ?? pathToFileURL(options.cwd).href,
        ...(options.sarifCategory === undefined ? {} : { category: options.sarifCategory }),
        ...(provenance === undefined ? {} : { runProperties: { agentflow: provenance } }),
        ...(extensions.length === 0 ? {} : { extensions }),
      });
    case "junit":
      return formatJunit(files, {
        rules: [...ruleDescriptors(), ...extensions.flatMap((e) => e.rules)],
        ...(provenance === undefined ? {} : { properties: junitProperties(provenance) }),
      });
    case "github":
      return formatGithub(
        files,
        provenance === undefined
          ? {}
          : {
              notice: { title: "agentflow settings", text: provenanceLines(provenance).join("\n") },
            },
      );
    case "gitlab":
      return formatGitlab(
        files.map((f) => ({ ...f, file: repositoryRelative(f.file, options.cwd) })),
        provenance === undefined ? {} : { ruleSet: provenance.ruleSet.digest },
      );
    default:
      // The text report's provenance lines follow its summary, which a caller may still extend.
      return formatText(files, { color: options.color });
  }
}
