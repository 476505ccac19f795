/**
 * How a Zeebe (Camunda 8) extension is told apart: its namespace, `zeebe:<local>` elements and
 * the `zeebe:modelerTemplate` attribute. Kept apart from the agent reading (camunda-agents.ts)
 * because the modeller's first load needs only these, for gate selectors: the agent reading
 * decodes FEEL and so brings the model with it, which the engine chunk loads later.
 */
import type { ModdleObject } from "./moddle.js";
import { elementKind, foreignAttrs, stringProp } from "./moddle.js";

/** The Zeebe (Camunda 8) extension namespace. */
export const ZEEBE_URI = "http://camunda.org/schema/zeebe/1.0";

/** True for a `zeebe:<local>` element (`local` in lower case, as {@link elementKind} gives it). */
export function isZeebe(element: ModdleObject, local: string): boolean {
  const kind = elementKind(element);
  return kind.local === local && kind.namespace === ZEEBE_URI;
}

/** The element's `zeebe:modelerTemplate`, typed (zeebe-bpmn-moddle) or as a foreign attribute. */
export function modelerTemplate(element: ModdleObject): string | undefined {
  const typed = stringProp(element, "modelerTemplate");
  if (typed !== undefined) return typed;
  const attrs = foreignAttrs(element);
  for (const key in attrs) {
    const value = attrs[key];
    if (key.endsWith(":modelerTemplate") && typeof value === "string") return value;
  }
  return undefined;
}
