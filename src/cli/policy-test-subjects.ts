/**
 * The subjects of policy tests: their grammar (`<input>#<name>`, the name read by the kind of
 * subject the rule is `for`), the subjects an input holds, and which subject a finding is on.
 *
 * Which subjects exist is asked of the same engine that judges them: a pack of one rule per
 * subject kind, without `when`, selects every subject, so its findings list exactly the agent
 * tasks, processes, workflows and tools a pack rule would judge — never a second, drifting
 * enumeration of the BPMN.
 */
import type { Diagnostic } from "../model/index.js";
import type { CompiledPack, PolicySubject } from "../policy/index.js";
import { compilePolicyPack, POLICY_SUBJECTS } from "../policy/index.js";

/** What an input is: a BPMN file (its processes) or a workflow document. */
export type InputKind = "bpmn" | "workflow";

/** What a subject's name reads as, by input and subject kind (for problems and the docs). */
export const SUBJECT_GRAMMAR: Readonly<Record<InputKind, Readonly<Record<PolicySubject, string>>>> =
  {
    bpmn: {
      agentTask: "<process id>/<element id>",
      process: "<process id>",
      workflow: "<process id>/<element id>/<workflow id>@<version>",
      tool: "<process id>/<element id>/<tool ref>",
    },
    workflow: {
      agentTask: "",
      process: "",
      workflow: "<workflow id>@<version>",
      tool: "<workflow id>@<version>/<tool ref>",
    },
  };

/** `id@version` with both parts, and no `/`. */
const WORKFLOW_NAME = /^[^/@]+@[^/@]+$/;

/** The problem with a subject's name for a rule of `kind` in an input of `input`, if any. */
export function subjectNameProblem(
  name: string,
  kind: PolicySubject,
  input: InputKind,
): string | undefined {
  const grammar = SUBJECT_GRAMMAR[input][kind];
  if (grammar === "") {
    return `a workflow input holds no ${kind} subjects (they are in BPMN processes)`;
  }
  const parts = name.split("/");
  let fits: boolean;
  if (input === "workflow") {
    fits =
      kind === "workflow"
        ? WORKFLOW_NAME.test(name)
        : parts.length >= 2 &&
          WORKFLOW_NAME.test(parts[0] ?? "") &&
          parts.slice(1).join("/") !== "";
  } else {
    const [processId = "", elementId = ""] = parts;
    const rest = parts.slice(2).join("/");
    if (kind === "process") fits = parts.length === 1 && processId !== "";
    else if (parts.length < 2 || processId === "" || elementId === "") fits = false;
    else if (kind === "agentTask") fits = parts.length === 2;
    else if (kind === "workflow") fits = parts.length === 3 && WORKFLOW_NAME.test(rest);
    else fits = rest !== "";
  }
  const article = kind === "agentTask" ? "an" : "a";
  const where = input === "bpmn" ? "a BPMN input" : "a workflow input";
  return fits ? undefined : `${article} ${kind} subject in ${where} is ${grammar}, not "${name}"`;
}

/** `base`, or `base-2`, `base-3`, … : the first that `taken` does not hold. */
function unlike(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}-${String(n)}`;
  return name;
}

/**
 * The pack that lists every subject: one rule per kind, no `when`, named unlike any pack under
 * test, its rule ids unlike any rule id of those packs and any bare rule a waiver names
 * (`taken.ids`) — else a waiver of a pack's rule `agentTask` would name the listing pack's too,
 * and be refused as ambiguous.
 */
export function subjectsPack(taken: {
  readonly names: ReadonlySet<string>;
  readonly ids: ReadonlySet<string>;
}): CompiledPack {
  return compilePolicyPack(
    {
      kind: "PolicyPack",
      name: unlike("policy-test-subjects", taken.names),
      version: "0.0.0",
      rules: POLICY_SUBJECTS.map((subject) => ({
        id: unlike(`subjects-${subject}`, taken.ids),
        severity: "info",
        for: subject,
      })),
    },
    "<policy test subjects>",
  );
}

/** The subject kind of each rule of the listing pack, by code. */
function probeKinds(probe: CompiledPack): Map<string, PolicySubject> {
  return new Map(probe.spec.rules.map((r) => [`${probe.name}/${r.id}`, r.for]));
}

/** What places a finding among an input's subjects. */
export interface InputContext {
  readonly kind: InputKind;
  /** For a BPMN input: the process of each agent task, by element id. */
  readonly processOf: ReadonlyMap<string, string>;
  /** For a workflow input: its `id@version`. */
  readonly workflow?: string;
}

/** A fact of a finding's data as text (the facts are plain data). */
function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * How a case names the tool of unknown identity (the policy facts' `UNKNOWN_TOOL`, whose ref is
 * null): words no ref is, with a space and parentheses.
 */
const UNKNOWN_TOOL_NAME = "(unknown tool)";

/** A tool subject's name: its ref, or {@link UNKNOWN_TOOL_NAME}. */
function toolName(ref: unknown): string {
  return typeof ref === "string" ? ref : UNKNOWN_TOOL_NAME;
}

/** The name of the subject a finding of a rule for `kind` is on, in the input's grammar. */
export function subjectOf(
  finding: Diagnostic,
  kind: PolicySubject,
  input: InputContext,
): string | undefined {
  const { data, target } = finding;
  if (input.kind === "workflow") {
    if (kind === "workflow") return `${text(data.id)}@${text(data.version)}`;
    if (kind === "tool") return `${input.workflow ?? ""}/${toolName(data.ref)}`;
    return undefined;
  }
  if (kind === "process") return text(data.id);
  if (target.kind !== "bpmn-element") return undefined;
  const element = target.elementId;
  if (kind === "agentTask") {
    const process = (data.process ?? {}) as { readonly id?: unknown };
    return `${text(process.id)}/${element}`;
  }
  const task = `${input.processOf.get(element) ?? ""}/${element}`;
  if (kind === "workflow") return `${task}/${text(data.id)}@${text(data.version)}`;
  return `${task}/${toolName(data.ref)}`;
}

/** The subjects of an input, by kind, and the findings of each pack rule on each. */
export interface InputVerdicts {
  readonly kind: InputKind;
  readonly subjects: ReadonlyMap<PolicySubject, ReadonlySet<string>>;
  /** Findings by rule code, then by subject name, in the order reported. */
  readonly findings: ReadonlyMap<string, ReadonlyMap<string, readonly Diagnostic[]>>;
}

/**
 * Sorts an input's findings: the listing pack's into subjects, every other rule's (a code in
 * `kinds`, the subject kind of each rule under test) by subject. Other findings (built-in rules,
 * waivers) are not what a policy test asks about.
 */
export function verdictsOf(
  diagnostics: readonly Diagnostic[],
  input: Omit<InputContext, "processOf">,
  probe: CompiledPack,
  kinds: ReadonlyMap<string, PolicySubject>,
): InputVerdicts {
  const processOf = new Map<string, string>();
  const listing = probeKinds(probe);
  for (const d of diagnostics) {
    if (listing.get(d.code) !== "agentTask" || d.target.kind !== "bpmn-element") continue;
    const process = (d.data.process ?? {}) as { readonly id?: unknown };
    processOf.set(d.target.elementId, text(process.id));
  }
  const context: InputContext = { ...input, processOf };
  const subjects = new Map<PolicySubject, Set<string>>(POLICY_SUBJECTS.map((k) => [k, new Set()]));
  const findings = new Map<string, Map<string, Diagnostic[]>>();
  for (const d of diagnostics) {
    const listed = listing.get(d.code);
    if (listed !== undefined) {
      const name = subjectOf(d, listed, context);
      if (name !== undefined) subjects.get(listed)?.add(name);
      continue;
    }
    const kind = kinds.get(d.code);
    if (kind === undefined) continue;
    const name = subjectOf(d, kind, context);
    if (name === undefined) continue;
    let byName = findings.get(d.code);
    if (byName === undefined) {
      byName = new Map();
      findings.set(d.code, byName);
    }
    const list = byName.get(name);
    if (list === undefined) byName.set(name, [d]);
    else list.push(d);
  }
  return { kind: input.kind, subjects, findings };
}
