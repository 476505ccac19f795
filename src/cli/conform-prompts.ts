/**
 * The approved prompts' texts `conform --prompts <dir>` gives: what a recorded prompt digest is
 * compared with (the texts are not part of an approval's statement).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { ApprovedModel, ApprovedPrompt } from "../conform/index.js";
import { sha256 } from "../model/index.js";
import { readText } from "./file-read.js";
import { UsageError } from "./io.js";

/**
 * The prompts of `--prompts <dir>`: each `<id>@<version>.txt` (or `.md`) is the text of
 * `prm:<id>@<version>`, its digest the sha256 of its UTF-8 text with one final line break
 * removed (the one an editor adds). A file named otherwise is a {@link UsageError}.
 */
export async function readPrompts(
  dir: string,
): Promise<{ prompts: Map<string, ApprovedPrompt>; files: string[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    throw new UsageError(`--prompts ${dir}: not a folder that can be read`);
  }
  const prompts = new Map<string, ApprovedPrompt>();
  const files: string[] = [];
  for (const name of names) {
    const match = /^(.+@[0-9][^/]*)\.(txt|md)$/.exec(name);
    if (match === null) {
      throw new UsageError(
        `--prompts ${dir}: '${name}' is not named <id>@<version>.txt or .md (the text of prm:<id>@<version>)`,
      );
    }
    const file = join(dir, name);
    const text = (await readText(file, "the prompt ")).replace(/\r?\n$/, "");
    prompts.set(`prm:${match[1] ?? ""}`, { sha256: sha256(text), exact: true });
    files.push(file);
  }
  return { prompts, files };
}

/**
 * `model` with `prompts` given to every workflow (a workflow's own digests win). A task's own
 * workflow is replaced by its copy with the prompts, so that a run attributed through its task
 * is checked with them too.
 */
export function withPrompts(
  model: ApprovedModel,
  prompts: ReadonlyMap<string, ApprovedPrompt>,
): ApprovedModel {
  const copies = new Map(
    model.workflows.map((w) => [w, { ...w, prompts: new Map([...prompts, ...(w.prompts ?? [])]) }]),
  );
  const processes = model.processes.map((p) => ({
    ...p,
    tasks: p.tasks.map((t) => {
      const resolved = t.resolved === undefined ? undefined : copies.get(t.resolved);
      return resolved === undefined ? t : { ...t, resolved };
    }),
  }));
  return { workflows: [...copies.values()], processes };
}
