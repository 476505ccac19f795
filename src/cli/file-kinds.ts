/**
 * Which names a folder walk or a glob reads, and as what. One rule for dot-files: a dot-file is
 * read as the same file without its leading dots would be (`.refund.bpmn` as `refund.bpmn`), as
 * ESLint reads dot-files. Naming a process or a registry document with a leading dot hides it
 * from `ls`, not from an engine that deploys every `.bpmn` file, so it must not hide it from a
 * verdict. Dot-folders are another matter: the walk (files.ts) passes over them.
 */
import { extname } from "node:path";

/** The extensions read as documents, with the syntax they imply. */
export const DOCUMENT_EXTENSIONS: Readonly<Record<string, "json" | "yaml">> = {
  ".json": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
};

/** BPMN process files, which `check` and `gate` read (a registry folder does not). */
export const PROCESS_EXTENSION = ".bpmn";

/**
 * The name a walk judges a file by: without its leading dots. Whenever the result has an
 * extension, it is the name's own (`extname('.a.json')` is `.json`), so the file is then read by
 * its extension exactly as the bare name would be.
 */
function undotted(name: string): string {
  let start = 0;
  while (name.charCodeAt(start) === 0x2e) start += 1;
  return name.slice(start);
}

/**
 * Whether a walk reads a file of this name as a document. Simulation fixtures
 * (`*.fixtures.json`, `*.fixtures.yaml`) live next to workflows but are inputs, not documents,
 * so a folder walk leaves them out, as it does the config file (`agentflow.config.json`); named
 * explicitly, they are read. A dot-file is judged without its dots.
 */
export function isDocumentName(name: string): boolean {
  const bare = undotted(name);
  const ext = extname(bare);
  return (
    Object.hasOwn(DOCUMENT_EXTENSIONS, ext) &&
    !bare.slice(0, -ext.length).endsWith(".fixtures") &&
    bare !== "agentflow.config.json"
  );
}

/** Whether a walk reads a file of this name as a BPMN process. A dot-file is judged without its dots. */
export function isProcessName(name: string): boolean {
  return extname(undotted(name)) === PROCESS_EXTENSION;
}
