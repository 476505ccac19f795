/** Where the CLI writes, injectable so that tests capture output without a subprocess. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stdout is a terminal (colour, progress). */
  readonly isTTY: boolean;
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY && process.env.NO_COLOR === undefined,
};

/** A user mistake: reported as one line on stderr with exit code 2, never a stack trace. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
