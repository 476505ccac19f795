/**
 * camunda-modeler-plugin-helpers ships no types. This declares the registration functions the
 * plug-in calls; each pushes `{ plugin, type }` onto `window.plugins`, which the Camunda Modeler
 * reads by type once every plug-in script has run.
 */
declare module "camunda-modeler-plugin-helpers" {
  /** Registers anything under a plug-in type (`lintRules.bpmn`, `client`, …). */
  export function registerClientPlugin(plugin: unknown, type: string): void;
  /** A React component the Modeler renders with its plug-in props (`client`). */
  export function registerClientExtension(component: unknown): void;
  /** A bpmn-js module for every BPMN editor (`bpmn.modeler.additionalModules`). */
  export function registerBpmnJSPlugin(module: unknown): void;
  /** A moddle descriptor for every BPMN editor (`bpmn.modeler.moddleExtension`). */
  export function registerBpmnJSModdleExtension(descriptor: unknown): void;
}
