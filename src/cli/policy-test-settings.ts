/**
 * A policy test's `gates` and `toolEffects`, checked with the functions `check` reads the
 * config's with (`gateSelectorProblems`, `toolEffectsProblems`), their problems placed in the
 * test file's words.
 */
import { gateSelectorProblems, toolEffectsProblems } from "../bpmn/index.js";
import { placeOfPointer } from "../policy/positions.js";

/** A problem of a test file at a place in it (`results[0].fail[1]`), before it is located. */
export interface Unplaced {
  readonly place: string;
  readonly message: string;
  /** Where the place is, when its words are no path (`toolEffects["a.b"]`). */
  readonly pointer?: string;
}

/** The entry of a setting a pointer is in: `/gates/0/id` → `/gates/0`. */
export const entryOf = (pointer: string): string => pointer.split("/").slice(0, 3).join("/");

/**
 * The problems of `gates` and `toolEffects` in the config's own words (the functions `check`
 * reads the config's with), placed; and the entries they spoke of (`/gates/0`,
 * `/toolEffects/<key>`), whose schema errors they replace. An entry they find nothing wrong with
 * keeps its schema errors: those functions check what the config's schema left them, not every
 * shape it refuses (an empty effects object).
 */
export function settingProblems(value: Record<string, unknown>): {
  problems: Unplaced[];
  spoken: Set<string>;
} {
  const problems: Unplaced[] = [];
  const spoken = new Set<string>();
  if (value.gates !== undefined) {
    for (const line of gateSelectorProblems(value.gates, "/gates")) {
      // `/gates/0/id must be …`, `/gates/0: unknown key …`
      const match = /^(\/gates(?:\/[^\s:/]+)*):? ([^]*)$/.exec(line);
      const pointer = match?.[1] ?? "/gates";
      problems.push({ place: placeOfPointer(pointer), message: match?.[2] ?? line });
      spoken.add(entryOf(pointer));
    }
  }
  if (value.toolEffects !== undefined) {
    for (const line of toolEffectsProblems(value.toolEffects)) {
      // `toolEffects["io.camunda:http-json:1"]["GET"]: unknown effect …`: keys as JSON strings.
      const match = /^(toolEffects((?:\["(?:[^"\\]|\\.)*"\])*)): ([^]*)$/.exec(line);
      const keys = [...(match?.[2] ?? "").matchAll(/\[("(?:[^"\\]|\\.)*")\]/g)].map(
        (m) => JSON.parse(m[1] ?? '""') as string,
      );
      const pointer = [
        "/toolEffects",
        ...keys.map((k) => k.replace(/~/g, "~0").replace(/\//g, "~1")),
      ];
      problems.push({
        place: match?.[1] ?? "toolEffects",
        message: match?.[3] ?? line,
        pointer: pointer.join("/"),
      });
      spoken.add(entryOf(pointer.join("/")));
    }
  }
  return { problems, spoken };
}
