/**
 * What the registry's imported workflows declared, for a process report: the report lists each
 * one's losses beside its workflow, as a workflow report of the file itself does.
 */
import type { Diagnostic } from "../model/index.js";
import { FORMATS } from "../interop/index.js";
import type { ImportedFrom } from "./imported.js";
import type { FolderRegistry } from "./registry.js";

/**
 * What each workflow the registry imported declared, by `id@version`: the warnings on its file
 * that an import made (they name their `format`). Workflows read as agentflow documents, and
 * imports that declared nothing, have none.
 */
export function registryImports(registry: FolderRegistry): Map<string, ImportedFrom> {
  const byFile = new Map<string, readonly Diagnostic[]>();
  for (const { file, diagnostics } of registry.problems) {
    byFile.set(file, [...(byFile.get(file) ?? []), ...diagnostics]);
  }
  const out = new Map<string, ImportedFrom>();
  for (const [id, versions] of registry.workflows) {
    for (const version of versions.keys()) {
      const ref = `${id}@${version}`;
      const file = registry.sourceOf(ref, "workflow");
      const warnings = (file === undefined ? [] : (byFile.get(file) ?? [])).filter(
        (d) => d.severity === "warning" && typeof d.data.format === "string",
      );
      const format = warnings[0]?.data.format;
      if (typeof format !== "string") continue;
      const title = FORMATS.find((f) => f.id === format)?.title ?? format;
      out.set(ref, { format, title, warnings });
    }
  }
  return out;
}
