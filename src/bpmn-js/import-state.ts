/**
 * What bpmn-moddle said of the diagram's import. bpmn-js drops what moddle cannot read (an
 * element of an unknown type, a second element with an id already taken, a reference to nothing)
 * and only warns: a dropped element is a task, flow or gate no rule can see, and `agentflow gate`
 * blocks such a file with `BPMN_PARSE` findings. So when moddle warned, the service has the XML
 * that import read read again by the CLI's reader (once, in a chunk of its own) and joins its
 * findings to every evaluation of that diagram, until the next import. An import moddle did not
 * warn about costs nothing: reading 2,000 flow nodes again takes about a third of a second.
 */
import type { Diagnostic } from "../model/index.js";

/** Reads an import's XML into its `BPMN_PARSE` diagnostics: the engine's reader. */
export type ImportReader = (xml: string) => Promise<readonly Diagnostic[]>;

/** The diagram of an import moddle warned about, its XML, and, once read, its findings. */
interface Warned {
  readonly definitions: unknown;
  readonly xml: string;
  findings: Promise<readonly Diagnostic[]> | undefined;
}

/** The service's view of the imports; see the module's comment. */
export class ImportState {
  /** The XML of the import under way, from `import.parse.start`. */
  #xml: string | undefined;
  /** What moddle said of that XML, once read (`import.parse.complete` without an error). */
  #parsed: { readonly xml: string; readonly warned: boolean } | undefined;
  /** The last import moddle warned about; `undefined` once an import read cleanly. */
  #warned: Warned | undefined;

  /** `import.parse.start`: the XML bpmn-js is about to read. */
  started(event: unknown): void {
    const xml = (event as { readonly xml?: unknown } | undefined)?.xml;
    this.#xml = typeof xml === "string" ? xml : undefined;
    this.#parsed = undefined;
  }

  /** `import.parse.complete`: moddle read the XML, and warned or not. */
  parsed(event: unknown): void {
    const { error, warnings } = (event ?? {}) as {
      readonly error?: unknown;
      readonly warnings?: unknown;
    };
    // A document moddle could not read imports nothing: the diagram on screen stays as it was.
    if (error !== undefined && error !== null) return;
    const warned = !Array.isArray(warnings) || warnings.length > 0;
    // Without its XML nothing can be read again: reading "" gives an error, so it fails closed.
    this.#parsed = { xml: this.#xml ?? "", warned };
  }

  /** `import.done`: `definitions` are the imported diagram's. */
  done(definitions: unknown): void {
    const parsed = this.#parsed;
    this.#xml = undefined;
    this.#parsed = undefined;
    if (parsed === undefined) return;
    this.#warned = parsed.warned
      ? { definitions, xml: parsed.xml, findings: undefined }
      : undefined;
  }

  /**
   * The `BPMN_PARSE` findings of the import that gave `definitions`, read at the first call with
   * `read`; `[]` for a diagram whose import moddle did not warn about (or not imported from XML).
   * A read that fails is tried again at the next call.
   */
  async findings(
    definitions: unknown,
    read: () => Promise<ImportReader>,
  ): Promise<readonly Diagnostic[]> {
    const warned = this.#warned;
    if (warned === undefined || warned.definitions !== definitions) return [];
    warned.findings ??= read()
      .then((reader) => reader(warned.xml))
      .catch((error: unknown) => {
        warned.findings = undefined;
        throw error;
      });
    return warned.findings;
  }
}
