/**
 * bpmn-moddle 10 types its meta-model (`bpmn-moddle/types`) but not its entry point: this
 * declares the little of it agentflow calls. Everything it returns is `unknown` and is read
 * through the checked accessors of `moddle.ts`, the only module that touches moddle objects.
 */
declare module "bpmn-moddle" {
  /** The moddle instance preloaded with the BPMN 2.0 meta-model. */
  export class BpmnModdle {
    constructor(
      packages?: Readonly<Record<string, unknown>>,
      options?: Readonly<Record<string, unknown>>,
    );
    fromXML(
      xml: string,
      typeName?: string,
    ): Promise<{ readonly rootElement: unknown; readonly warnings: readonly unknown[] }>;
    toXML(
      element: unknown,
      options?: { readonly format?: boolean },
    ): Promise<{ readonly xml: string }>;
  }
}
