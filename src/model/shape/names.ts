/**
 * The names a shape declares and a condition reads, as the workflow rules and the replay of a
 * recorded run both need them: one reading, so that an optional field (`x?`) is `x` to both.
 */

/** Top-level names of a shape (`?` stripped), or `undefined` when it is not a shape. */
export function shapeNames(shape: unknown): string[] | undefined {
  if (typeof shape !== "object" || shape === null || Array.isArray(shape)) return undefined;
  return Object.keys(shape).map((k) => (k.endsWith("?") ? k.slice(0, -1) : k));
}

/** The top-level name after `output.` of a qualified name read, or `undefined` for other roots. */
export function topField(name: string): string | undefined {
  if (!name.startsWith("output.")) return undefined;
  const end = name.indexOf(".", 7);
  return name.slice(7, end < 0 ? undefined : end);
}
