/**
 * Ignore patterns (`ignores` in the config, `--ignore-pattern` on the command line): globs that
 * folder walks and glob expansion pass over, matched with picomatch (a well-kept matcher, the one
 * tinyglobby uses) against the path relative to the folder the patterns are relative to.
 */
import { relative, resolve, sep } from "node:path";
import picomatch from "picomatch";

/** Patterns and the folder they are relative to (the config file's, or the working directory). */
export interface IgnoreGroup {
  readonly base: string;
  readonly patterns: readonly string[];
}

/** True when a path (as the CLI shows it: relative to the working directory, or absolute) is ignored. */
export type IgnoreTest = (path: string) => boolean;

/** Never walked nor matched by a glob, whatever the patterns say. */
export const ALWAYS_IGNORED: readonly string[] = ["**/node_modules/**", "**/.git/**"];

/** The test for a set of groups; `undefined` when there is nothing to ignore. */
export function ignoreTest(groups: readonly IgnoreGroup[], cwd: string): IgnoreTest | undefined {
  const matchers = groups
    .filter((g) => g.patterns.length > 0)
    .map((g) => ({ base: resolve(cwd, g.base), match: picomatch([...g.patterns], { dot: true }) }));
  if (matchers.length === 0) return undefined;
  return (path) => {
    const absolute = resolve(cwd, path);
    return matchers.some(({ base, match }) => {
      const rel = relative(base, absolute).split(sep).join("/");
      // A path outside the patterns' folder is not theirs to ignore.
      if (rel === "" || rel === ".." || rel.startsWith("../")) return false;
      // A folder that matches ignores what it holds, as in ESLint and .gitignore.
      for (let end = rel.indexOf("/"); end !== -1; end = rel.indexOf("/", end + 1)) {
        if (match(rel.slice(0, end))) return true;
      }
      return match(rel);
    });
  };
}
