import type { CheckedFile } from "./types.js";

/** The `json` format: the checked files with their diagnostics, as stable pretty-printed JSON. */
export function formatJson(files: readonly CheckedFile[]): string {
  return JSON.stringify(files, null, 2) + "\n";
}
