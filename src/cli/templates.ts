/** `agentflow templates [id]`: list the templates, or print one as JSON. */
import { agentWorkflowSchema, getTemplate, listTemplates } from "../model/index.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./io.js";

/** Runs the command; returns the exit code. */
export function runTemplates(id: string | undefined, io: CliIo): number {
  if (id === undefined) {
    for (const t of listTemplates()) {
      const star = t.isDefault ? " (default)" : "";
      io.stdout(`${t.id.padEnd(16)} level ${t.autonomyLevel}  ${t.title}${star}: ${t.summary}\n`);
    }
    return 0;
  }
  const workflow = getTemplate(id);
  if (workflow === undefined) {
    const known = listTemplates()
      .map((t) => t.id)
      .join(", ");
    throw new UsageError(`no template '${id}' (known: ${known})`);
  }
  // Named first, so that an editor validates the file a user saves this into (docs/editors.md).
  const withSchema = { $schema: agentWorkflowSchema.$id, ...workflow };
  io.stdout(JSON.stringify(withSchema, null, 2) + "\n");
  return 0;
}
