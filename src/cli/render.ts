import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { CheckedFile } from "../report/index.js";
import {
  fileUriOf,
  formatGithub,
  formatGitlab,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
} from "../report/index.js";
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
}

/**
 * A path relative to the working directory when it is inside it (`/abs/ws/a.json`,
 * `../ws/a.json` → `a.json`), as GitLab maps paths to the repository; any other path as given.
 */
function repositoryRelative(file: string, cwd: string): string {
  const rel = relative(cwd, resolve(cwd, file));
  return rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? file : rel;
}

/** Renders checked files in one of {@link REPORT_FORMATS} (anything else is text). */
export function renderFiles(
  format: string,
  files: readonly CheckedFile[],
  options: RenderOptions,
): string {
  switch (format) {
    case "json":
      return formatJson(files);
    case "sarif":
      return formatSarif(files, {
        rules: ruleDescriptors(),
        toolVersion: packageVersion(),
        srcRoot: fileUriOf(options.cwd) ?? pathToFileURL(options.cwd).href,
        ...(options.sarifCategory === undefined ? {} : { category: options.sarifCategory }),
        ...(options.provenance === undefined
          ? {}
          : { runProperties: { agentflow: options.provenance } }),
      });
    case "junit":
      return formatJunit(files, { rules: ruleDescriptors() });
    case "github":
      return formatGithub(files);
    case "gitlab":
      return formatGitlab(
        files.map((f) => ({ ...f, file: repositoryRelative(f.file, options.cwd) })),
      );
    default:
      return formatText(files, { color: options.color });
  }
}
