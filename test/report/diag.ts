/** A diagnostic for the output-format tests: `code`, `severity`, a workflow target, `extra` on top. */
import type { Diagnostic } from "../../src/model/index.js";

/** A diagnostic with the message `<code> msg`, on the workflow, at the root, with no data. */
export function diag(
  code: string,
  severity: Diagnostic["severity"],
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  return {
    code,
    severity,
    message: `${code} msg`,
    target: { kind: "workflow" },
    path: "",
    data: {},
    ...extra,
  };
}
