/**
 * Approval gates as Camunda users draw them: a user task with candidate groups, made from an
 * approval template, carrying a `zeebe:property`, or named by id — chosen by the organisation's
 * settings, without touching the BPMN. A selector matches a user task when every criterion it
 * gives holds, and no other element; a flow node is a gate when any selector matches it (or it
 * carries `<btv:gate/>`). A bare user task is never a gate by itself: a person may be asked anything, and
 * only the organisation can say that this person's answer is the approval (fail closed).
 *
 * Who may approve a gate is its declared role (the element's `btv:approverRole`, else the
 * selector's `role`) and everyone the element's assignment lets complete it: its candidate groups
 * (a member of any of them may approve, whichever group the selector matched), then its candidate
 * users and assignee. A declared role says who the organisation means to approve, not who the
 * engine lets complete the task, so it adds to the assignment and never hides it. Each is one
 * name, commas and all; the role shown is them joined by `, `.
 */
import { ASSIGNMENT_LOCALS, engineAttributes, prefixResolver } from "./engine-attributes.js";
import { isZeebe, modelerTemplate } from "./zeebe-names.js";
import type { ModdleObject } from "./moddle.js";
import { extensionValues, genericChildren, listProp, stringProp } from "./moddle.js";

/** One way an organisation marks approval gates; every criterion given must hold. */
export interface GateSelector {
  /** The element's id. */
  readonly id?: string;
  /** A candidate group of the user task's `zeebe:assignmentDefinition`. */
  readonly candidateGroup?: string;
  /** The element template it was made from (`zeebe:modelerTemplate`). */
  readonly template?: string;
  /** A `zeebe:property` it carries, by name (and value, when given). */
  readonly property?: { readonly name: string; readonly value?: string };
  /**
   * The approver role of the gates it selects, when `btv:approverRole` does not say: one name,
   * beside everyone the task's assignment lets complete it.
   */
  readonly role?: string;
}

const CRITERIA = ["id", "candidateGroup", "template", "property"] as const;
const KEYS: ReadonlySet<string> = new Set([...CRITERIA, "role"]);

function describe(value: unknown): string {
  return Array.isArray(value) ? "an array" : value === null ? "null" : typeof value;
}

/**
 * What is wrong with a list of selectors, one sentence each naming where (`at` is how the user
 * wrote the option, e.g. `agentflow.gates`); `[]` when nothing is. A selector with no criterion
 * would select every element, so it is refused.
 *
 * @example
 * ```ts
 * import { gateSelectorProblems } from "agentflow/bpmn";
 *
 * gateSelectorProblems([{ candidateGroup: "credit-officers" }], "gates"); // → []
 * gateSelectorProblems([{ role: "legal" }, { group: "x" }], "gates");
 * // → [
 * //     "gates/0 names no criterion (id, candidateGroup, template or property): it would make every element a gate",
 * //     "gates/1: unknown key 'group' (known: id, candidateGroup, template, property, role)",
 * //   ]
 * ```
 */
export function gateSelectorProblems(value: unknown, at: string): string[] {
  if (!Array.isArray(value))
    return [`${at} must be an array of gate selectors, got ${describe(value)}`];
  return value.flatMap((selector: unknown, i): string[] => {
    const here = `${at}/${String(i)}`;
    if (typeof selector !== "object" || selector === null || Array.isArray(selector)) {
      return [`${here} must be an object, got ${describe(selector)}`];
    }
    const record = selector as Readonly<Record<string, unknown>>;
    const problems: string[] = [];
    for (const key of Object.keys(record)) {
      if (!KEYS.has(key))
        problems.push(`${here}: unknown key '${key}' (known: ${[...KEYS].join(", ")})`);
    }
    for (const key of ["id", "candidateGroup", "template", "role"]) {
      const v = record[key];
      if (v !== undefined && (typeof v !== "string" || v.trim() === "")) {
        problems.push(`${here}/${key} must be a non-empty string, got ${describe(v)}`);
      }
    }
    const property = record.property;
    if (property !== undefined) {
      const p = property as Readonly<Record<string, unknown>> | null;
      const ok =
        typeof p === "object" &&
        p !== null &&
        typeof p.name === "string" &&
        p.name !== "" &&
        (p.value === undefined || typeof p.value === "string") &&
        Object.keys(p).every((k) => k === "name" || k === "value");
      if (!ok) problems.push(`${here}/property must be { name, value? } with string values`);
    }
    if (problems.length === 0 && !CRITERIA.some((c) => record[c] !== undefined)) {
      problems.push(
        `${here} names no criterion (id, candidateGroup, template or property): it would make every element a gate`,
      );
    }
    return problems;
  });
}

function zeebeValues(element: ModdleObject, local: string): ModdleObject[] {
  return extensionValues(element).filter((v) => isZeebe(v, local));
}

/** `a, b` or the FEEL list or string literal `=["a", "b"]` / `="a"`; anything else is unknown. */
function groupList(text: string): readonly string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("=")) {
    return trimmed
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g !== "");
  }
  const feel = trimmed.slice(1).trim();
  const literal = /^"([^"\\]*)"$/.exec(feel);
  if (literal !== null) return [literal[1] ?? ""];
  const list = /^\[\s*("[^"\\]*"\s*(?:,\s*"[^"\\]*"\s*)*)?\]$/.exec(feel);
  if (list === null) return undefined;
  return [...(list[1] ?? "").matchAll(/"([^"\\]*)"/g)].map((m) => m[1] ?? "");
}

/**
 * The candidate groups of a user task, as far as they can be known without running it: a FEEL
 * expression other than a literal gives none (it cannot match a selector: fail closed).
 *
 * @example
 * ```ts
 * import { candidateGroups, readProcess, type ModdleObject } from "agentflow/bpmn";
 *
 * const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
 *     xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="D" targetNamespace="https://example.com">
 *   <bpmn:process id="P">
 *     <bpmn:userTask id="Review">
 *       <bpmn:extensionElements>
 *         <zeebe:assignmentDefinition candidateGroups="underwriters, risk" />
 *       </bpmn:extensionElements>
 *     </bpmn:userTask>
 *   </bpmn:process>
 * </bpmn:definitions>`;
 * const { definitions } = await readProcess(xml);
 * const [process] = definitions?.rootElements as { flowElements: ModdleObject[] }[];
 * const [review] = process?.flowElements ?? [];
 * if (review === undefined) throw new Error("no user task");
 * candidateGroups(review); // → ["underwriters", "risk"]
 * ```
 */
export function candidateGroups(element: ModdleObject): readonly string[] {
  const out: string[] = [];
  for (const assignment of zeebeValues(element, "assignmentdefinition")) {
    const text = stringProp(assignment, "candidateGroups");
    if (text !== undefined) out.push(...(groupList(text) ?? []));
  }
  return out;
}

function properties(element: ModdleObject): { name: string; value: string | undefined }[] {
  return zeebeValues(element, "properties").flatMap((props) => {
    const typed = listProp(props, "properties");
    return (typed.length > 0 ? typed : genericChildren(props)).flatMap((p) => {
      const name = stringProp(p, "name");
      return name === undefined ? [] : [{ name, value: stringProp(p, "value") }];
    });
  });
}

/**
 * Whether a selector matches the element. Only a user task matches:
 * the selectors say which of the people a process asks give the approval, and no other element
 * waits for a person — a task, a script or a job worker carrying the approval template or
 * property completes without anyone deciding (fail closed). A call activity or sub-process is a
 * gate only by `<btv:gate/>` or the host's `isGate`.
 */
function matches(selector: GateSelector, element: ModdleObject): boolean {
  if (element.$type !== "bpmn:UserTask") return false;
  if (selector.id !== undefined && selector.id !== stringProp(element, "id")) return false;
  if (selector.template !== undefined && selector.template !== modelerTemplate(element))
    return false;
  const wanted = selector.property;
  if (
    wanted !== undefined &&
    !properties(element).some(
      (p) => p.name === wanted.name && (wanted.value === undefined || p.value === wanted.value),
    )
  ) {
    return false;
  }
  const group = selector.candidateGroup;
  return group === undefined || candidateGroups(element).includes(group);
}

/**
 * A name that is a JUEL expression (`${initiator}`, `#{…}`) may be anyone, as a FEEL one
 * (`=initiator`) may: it is kept as one, which gate-require reads as overlapping every gate.
 */
function anyoneIfExpression(name: string): string {
  return !name.startsWith("=") && /[$#]\{/.test(name) ? `=${name}` : name;
}

/**
 * Everyone who may approve a gate: its declared role (`btv:approverRole`, else a selector's
 * `role`; one name, commas and all), then everyone its assignment lets complete it
 * (`zeebe:assignmentDefinition`, or Camunda 7's, Flowable's or Activiti's `candidateGroups`,
 * `candidateUsers` and `assignee`, read by namespace), each name once. Candidate groups, users or an assignee given as a FEEL expression
 * other than a literal stay as written: they may name anyone, and gate-require reads a name
 * starting with `=` as overlapping every role (fail closed). Without a declared role, a gate
 * names no approver unless a candidate group is known (a user alone never made a role).
 */
export function approversOf(element: ModdleObject, declared: string | undefined): string[] {
  const names = declared === undefined ? [] : [anyoneIfExpression(declared)];
  let grouped = false;
  // Camunda 7's, Flowable's and Activiti's attributes too, by namespace: a JUEL expression
  // (`${initiator}`) may name anyone, as a FEEL one does, so it is kept as one (`=…`).
  const engines = engineAttributes(element, prefixResolver(), ASSIGNMENT_LOCALS);
  for (const key of ["candidateGroups", "candidateUsers", "assignee"]) {
    const texts = [
      ...zeebeValues(element, "assignmentdefinition").map((a) => stringProp(a, key) ?? ""),
      ...(engines.get(key) ?? []).map((a) => anyoneIfExpression(a.value.trim())),
    ];
    for (const raw of texts) {
      const text = raw.trim();
      const list = text === "" ? [] : (groupList(text) ?? [text]);
      grouped ||= key === "candidateGroups" && list.some((g) => g !== "");
      names.push(...list.filter((n) => n !== ""));
    }
  }
  return declared === undefined && !grouped ? [] : [...new Set(names)];
}

/** What the selectors make of an element. */
export interface GateSelection {
  /** Whether a selector chose it. */
  readonly selected: boolean;
  /**
   * Who may approve it, as the first matching selector reads it (without `btv:approverRole`):
   * its `role`, then the task's candidate groups, candidate users and assignee
   * (`approversOf`); `[]` when none is known.
   */
  readonly approvers: readonly string[];
  /** {@link GateSelection.approvers} joined by `, `; `undefined` when there are none. */
  readonly role: string | undefined;
}

/**
 * The first selector that matches the element, and who it says may approve it.
 *
 * @example
 * ```ts
 * import { selectGate } from "agentflow/bpmn";
 *
 * selectGate([{ id: "Review", role: "underwriter" }], { $type: "bpmn:UserTask", id: "Review" });
 * // → { selected: true, approvers: ["underwriter"], role: "underwriter" }
 * selectGate([{ id: "Review" }], { $type: "bpmn:UserTask", id: "Other" });
 * // → { selected: false, approvers: [], role: undefined }
 * ```
 */
export function selectGate(
  selectors: readonly GateSelector[],
  element: ModdleObject,
): GateSelection {
  const selector = selectors.find((s) => matches(s, element));
  if (selector === undefined) return { selected: false, approvers: [], role: undefined };
  const approvers = approversOf(element, selector.role);
  return { selected: true, approvers, role: approvers.join(", ") || undefined };
}
