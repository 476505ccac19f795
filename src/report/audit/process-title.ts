/**
 * What a process review is called: the name a modeller gave the process, as a reader knows it,
 * rather than the id of the `<bpmn:definitions>` element, which modellers generate
 * (`Definitions_1x2y3z`). docs/report.md states the rule.
 */
import type { ModdleObject } from "../../bpmn/index.js";
import { instanceOf } from "../../bpmn/index.js";
import { clipText } from "./limits.js";

/** The most characters of a name a title shows (a name may be a million characters long). */
const TITLE_LIMIT = 200;

function text(element: ModdleObject, key: "name" | "id"): string | undefined {
  const value = element[key];
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : clipText(trimmed, TITLE_LIMIT);
}

function roots(definitions: ModdleObject): readonly ModdleObject[] {
  const value = definitions.rootElements;
  if (!Array.isArray(value)) return [];
  return value.filter(
    (root): root is ModdleObject => typeof root === "object" && root !== null && "$type" in root,
  );
}

/**
 * The subject of a process review's title. One process: its name, else its id. Several (a
 * collaboration): the definitions' name, else the collaboration's name, else the first named
 * process's name (its id when none is named) and how many others there are. No process: the
 * definitions' name, else their id; `fallback` (the file) when there is nothing at all.
 */
export function processTitle(definitions: ModdleObject | undefined, fallback: string): string {
  if (definitions === undefined) return fallback;
  const all = roots(definitions);
  const processes = all.filter((root) => instanceOf(root, "bpmn:Process"));
  const own = text(definitions, "name");
  let subject: string | undefined;
  const [only] = processes;
  if (processes.length === 1 && only !== undefined) {
    subject = text(only, "name") ?? text(only, "id");
  } else if (processes.length > 1) {
    const collaboration = all.find((root) => instanceOf(root, "bpmn:Collaboration"));
    const named = processes.find((p) => text(p, "name") !== undefined) ?? processes[0];
    const first = named === undefined ? undefined : (text(named, "name") ?? text(named, "id"));
    const others = processes.length - 1;
    subject =
      own ??
      (collaboration === undefined ? undefined : text(collaboration, "name")) ??
      (first === undefined
        ? undefined
        : `${first} and ${String(others)} other process${others === 1 ? "" : "es"}`);
  }
  return subject ?? own ?? text(definitions, "id") ?? fallback;
}
