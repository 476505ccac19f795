/**
 * Declarations for what the demo imports that ships no types: the BPMN file (bundled as text by
 * esbuild), bpmn-js-bpmnlint, bpmnlint's StaticResolver and the panel's modules.
 */
declare module "*.bpmn" {
  const xml: string;
  export default xml;
}

declare module "bpmn-js-bpmnlint" {
  const lintModule: object;
  export default lintModule;
}

declare module "bpmnlint/lib/resolver/static-resolver.js" {
  const StaticResolver: new (cache: Readonly<Record<string, unknown>>) => object;
  export default StaticResolver;
}

declare module "bpmn-js-properties-panel" {
  export const BpmnPropertiesPanelModule: object;
  export const BpmnPropertiesProviderModule: object;
}
