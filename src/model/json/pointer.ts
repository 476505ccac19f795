/** JSON Pointer (RFC 6901) helpers: every diagnostic path is one. */

/**
 * Escapes one reference token (`~` → `~0`, `/` → `~1`).
 *
 * @example
 * ```ts
 * import { escapePointerToken } from "agentflow/model";
 *
 * escapePointerToken("a/b~c"); // → "a~1b~0c"
 * escapePointerToken(2); // → "2"
 * ```
 */
export function escapePointerToken(token: string | number): string {
  if (typeof token === "number") return String(token);
  // Most tokens need no escaping; skip the two scans-and-copies on this hot path.
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Builds a pointer from its tokens: `pointer("nodes", 3, "config")` → `/nodes/3/config`.
 *
 * @example
 * ```ts
 * import { pointer } from "agentflow/model";
 *
 * pointer("nodes", 3, "config"); // → "/nodes/3/config"
 * pointer("inputSchema", "src/path"); // → "/inputSchema/src~1path"
 * pointer(); // → ""
 * ```
 */
export function pointer(...tokens: readonly (string | number)[]): string {
  let out = "";
  for (const token of tokens) out += "/" + escapePointerToken(token);
  return out;
}

/**
 * Splits a pointer into its unescaped tokens; `""` is the whole document.
 *
 * @example
 * ```ts
 * import { pointerTokens } from "agentflow/model";
 *
 * pointerTokens("/nodes/3/config"); // → ["nodes", "3", "config"]
 * pointerTokens("/inputSchema/src~1path"); // → ["inputSchema", "src/path"]
 * pointerTokens(""); // → []
 * ```
 */
export function pointerTokens(path: string): string[] {
  if (path === "") return [];
  return path
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}
