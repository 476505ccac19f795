/** Runs the CLI in-process with captured output, as a user's shell would see it. */
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

/** What one run of the CLI printed, and its exit code. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `agentflow <argv…>` with stdout and stderr captured, not a terminal. */
export async function run(...argv: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    isTTY: false,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A stack trace line, as V8 writes them: no user-facing output may hold one. */
export const STACK_LINE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;
