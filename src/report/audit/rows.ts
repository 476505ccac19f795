/**
 * Putting a big report together. A report on a 100,000-node workflow has tables of 100,000 rows
 * and more, tens of MB of text. Two costs dominate, and both are avoided here:
 *
 * - Rows kept as separate strings until one final join live through the young generation's
 *   collections that run meanwhile, and each collection copies them: joined a chunk at a time, a
 *   row dies young and only the chunks live on.
 * - `join` copies what it joins, so a table joined into its section, the section into the page,
 *   is copied at each level. V8 concatenates long strings with `+` by reference (a rope), so the
 *   parts are copied once, when the page is first read (written to a file, searched).
 *
 * On the 100,000-case decision of the adversarial corpus the HTML page renders in about half the
 * time.
 */

/** Rows per chunk: big enough that the chunks are few, small enough that a chunk's rows die young. */
const CHUNK = 512;

/**
 * `parts.join(separator)`, as a rope: the parts are not copied (see the file comment).
 */
export function concat(parts: readonly string[], separator = "\n"): string {
  let out = "";
  parts.forEach((part, i) => {
    out = i === 0 ? part : out + separator + part;
  });
  return out;
}

/**
 * The rows `row(item, index)` of `items`, joined with `separator` (`""` when there are none):
 * the same string as `items.map(row).join(separator)`, built a chunk at a time.
 */
export function joinRows<T>(
  items: readonly T[],
  row: (item: T, index: number) => string,
  separator = "\n",
): string {
  const chunks: string[] = [];
  let rows: string[] = [];
  items.forEach((item, i) => {
    rows.push(row(item, i));
    if (rows.length === CHUNK) {
      chunks.push(rows.join(separator));
      rows = [];
    }
  });
  if (rows.length > 0) chunks.push(rows.join(separator));
  return concat(chunks, separator);
}
