/**
 * The XML of an import that bpmn-moddle warned about, read again with the reader `agentflow gate`
 * uses (`readProcess`), for the `BPMN_PARSE` findings the CLI gives that file. A chunk of its own,
 * fetched by the engine (`loadImportReader`) only for such an import: most diagrams import
 * without a warning and never load it.
 */
import { readProcess } from "../bpmn/read.js";
import type { Diagnostic } from "../model/index.js";

/** The `BPMN_PARSE` diagnostics of `xml`, worded and placed as `agentflow gate` gives them. */
export async function importFindings(xml: string): Promise<readonly Diagnostic[]> {
  return (await readProcess(xml)).diagnostics;
}
