/**
 * The built CLI (`bin/agentflow.js`, from dist/) in a process of its own. Tests that start
 * worker threads use it: a worker started from the TypeScript sources registers tsx and compiles
 * agentflow again (over a second of CPU each), while the built CLI's worker starts from compiled
 * `worker.js` in a tenth of that. `test/cli/concurrency.test.ts` runs the sources' worker path
 * in process once per command.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Run } from "./run.js";

const repo = new URL("../../", import.meta.url).pathname;
const DEBUG_PREFIX = "agentflow: debug: ";

/** What the built CLI printed: its exit code, stdout, and stderr without its debug lines. */
export interface BuiltRun extends Run {
  /** The `agentflow: debug: ` lines of stderr, without the prefix. */
  readonly debug: readonly string[];
}

/** Runs `agentflow <args…>` from dist/ in `cwd` (the repository unless given), debug on. */
export function builtCli(args: readonly string[], cwd: string = repo): BuiltRun {
  if (!existsSync(join(repo, "dist/cli/worker.js"))) {
    throw new Error("dist/ is missing: run `npm run build` before this test");
  }
  const result = spawnSync(process.execPath, [join(repo, "bin/agentflow.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, AGENTFLOW_DEBUG: "1", NO_COLOR: "1" },
    // A run that does not end (a worker thread left alive) fails here instead of hanging.
    timeout: 60_000,
  });
  if (result.error !== undefined) {
    throw new Error(`agentflow ${args.join(" ")}: ${result.error.message}`, {
      cause: result.error,
    });
  }
  const lines = result.stderr.split(/(?<=\n)/);
  return {
    code: result.status ?? -1,
    stdout: result.stdout,
    stderr: lines.filter((line) => !line.startsWith(DEBUG_PREFIX)).join(""),
    debug: lines
      .filter((line) => line.startsWith(DEBUG_PREFIX))
      .map((line) => line.slice(DEBUG_PREFIX.length).trimEnd()),
  };
}
