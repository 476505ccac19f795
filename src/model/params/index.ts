/** The `{{node.output.field}}` templates in tool params: scanning, targets and walks. */
export type {
  TemplateKind,
  TemplateRef,
  TemplateSyntaxProblem,
  TemplateTarget,
} from "./template.js";
export {
  forEachTemplate,
  forEachTemplateEntry,
  forEachTemplateString,
  scanTemplates,
  templateStrings,
  wholeTemplate,
} from "./template.js";
