/**
 * bpmn-moddle 10 ships no types for its entry point. This declares the little of it agentflow
 * calls; everything it returns is `unknown` and is read through the typed accessors of
 * `moddle.ts`, the only module that touches moddle objects untyped.
 */
declare module "bpmn-moddle" {
  /** A warning of `fromXML`: what was skipped or could not be resolved while reading. */
  export interface RawParseWarning {
    readonly message?: unknown;
    readonly element?: unknown;
    readonly property?: unknown;
    readonly value?: unknown;
    readonly error?: unknown;
  }

  /** What `fromXML` resolves to. */
  export interface RawParseResult {
    readonly rootElement: unknown;
    readonly elementsById: Readonly<Record<string, unknown>>;
    readonly warnings: readonly RawParseWarning[];
  }

  /** The moddle instance preloaded with the BPMN 2.0 meta-model. */
  export class BpmnModdle {
    constructor(
      packages?: Readonly<Record<string, unknown>>,
      options?: Readonly<Record<string, unknown>>,
    );
    fromXML(xml: string, typeName?: string): Promise<RawParseResult>;
    toXML(
      element: unknown,
      options?: { readonly format?: boolean },
    ): Promise<{ readonly xml: string }>;
  }
}
