/**
 * The code blocks marked ```` ```ts runnable ```` in README.md and docs/, for the documentation
 * test (each runs) and the examples type-check (all at once).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, writeExample } from "../run-example.js";

/** A written documentation example: its page, the test's name for it and the module's path. */
export interface DocExample {
  readonly page: string;
  readonly name: string;
  readonly file: string;
}

/** README.md and every page under docs/, as repository paths in a stable order. */
export function documentationPages(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name.split("\\").join("/")}`)
      .sort(),
  ];
}

/** Writes every runnable example of the documentation under `test/.generated/<folder>/`. */
export function writeDocExamples(folder: string): DocExample[] {
  return documentationPages().flatMap((page) =>
    [...readFileSync(join(ROOT, page), "utf8").matchAll(/^```ts runnable\n([\s\S]*?)^```$/gm)].map(
      (m, i) => {
        const name = `${page.replace(/\.md$/, "").replaceAll("/", "-")}.${String(i + 1)}`;
        return {
          page,
          name: `${page} #${String(i + 1)}`,
          file: writeExample(`${folder}/${name}`, m[1] ?? ""),
        };
      },
    ),
  );
}
