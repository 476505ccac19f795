/**
 * Reading JSON or YAML text where the caller can wait: the YAML support (and with it the `yaml`
 * package) is loaded with `import()` only when the text is YAML, so that a browser that reads
 * JSON texts, or is handed data, never fetches it. What a host's bundler puts in a chunk of its
 * own; the synchronous readers (read-sync.ts) import it instead.
 */

import type { Locator } from "./locate.js";
import type { ReadOptions, ReadResult } from "./read.js";
import { readBody, textFormat } from "./read.js";

/**
 * `readWithLocator`, loading the YAML support first when the text is YAML. Rejects only when
 * that chunk cannot be loaded, and on the misuse `readWithLocator` throws for.
 */
export async function readWithLocatorAsync(
  text: string,
  options: ReadOptions = {},
): Promise<{ readonly result: ReadResult; readonly locate: Locator }> {
  const { body, format } = textFormat(text, options);
  const yaml = format === "yaml" ? (await import("./yaml-support.js")).YAML_SUPPORT : undefined;
  return readBody(body, format, yaml);
}
