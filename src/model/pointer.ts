/** JSON Pointer (RFC 6901) helpers: every diagnostic path is one. */

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  if (typeof token === "number") return String(token);
  // Most tokens need no escaping; skip the two scans-and-copies on this hot path.
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Builds a pointer from its tokens: `pointer("nodes", 3, "config")` → `/nodes/3/config`. */
export function pointer(...tokens: readonly (string | number)[]): string {
  let out = "";
  for (const token of tokens) out += "/" + escapePointerToken(token);
  return out;
}

/** Splits a pointer into its unescaped tokens; `""` is the whole document. */
export function pointerTokens(path: string): string[] {
  if (path === "") return [];
  return path
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}
