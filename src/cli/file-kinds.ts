/**
 * Which names a folder walk or a glob reads, and as what. One rule for dot-files: a dot-file is
 * read as the same file without its leading dots would be (`.refund.bpmn` as `refund.bpmn`), as
 * ESLint reads dot-files. Naming a process or a registry document with a leading dot hides it
 * from `ls`, not from an engine that deploys every `.bpmn` file, so it must not hide it from a
 * verdict. Dot-folders are another matter: the walk (files.ts) passes over them.
 */
import { basename, extname } from "node:path";

/** The extensions read as documents, with the syntax they imply. */
export const DOCUMENT_EXTENSIONS: Readonly<Record<string, "json" | "yaml">> = {
  ".json": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
};

/**
 * How BPMN process files are named, which `check` and `gate` read (a registry folder does not):
 * `.bpmn`, and `.bpmn20.xml`, which Camunda 7, Flowable and Activiti deploy as BPMN too, in any
 * letter case. A process a walk passed over for its name would be deployed unjudged.
 */
const PROCESS_ENDINGS: readonly string[] = [".bpmn", ".bpmn20.xml"];

/** The process file names as messages list them. */
export const PROCESS_NAMES = ".bpmn or .bpmn20.xml";

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

/**
 * Whether a file of this name (or path: its last part is judged) is read as a BPMN process. A
 * dot-file is judged without its dots.
 */
export function isProcessName(name: string): boolean {
  const bare = undotted(basename(name)).toLowerCase();
  return PROCESS_ENDINGS.some((ending) => bare.endsWith(ending) && bare.length > ending.length);
}
