/**
 * What a review rests on, as one list the Markdown and HTML reports both print: the subject
 * file, each reviewed workflow, each tool contract and delegate an agent task looked up (with the
 * failure, when the lookup failed), the config and the rule set. Each input that decides the
 * verdict appears with its hash, so two reports with different verdicts never show the same
 * hashes.
 */
import type { AgentTaskSummary, GateOptions, RuleSetSettings } from "../../bpmn/index.js";
import { describeRuleSet } from "../../bpmn/index.js";
import type { Diagnostic } from "../../model/index.js";
import type { PresetName, RuleSetting } from "../../validate/index.js";
import type { AuditPolicyOptions } from "./rule-results.js";
import { pinnedExtensions } from "./rule-results.js";
import type { AuditReport, ReviewedInput, ReviewSettings, WorkflowAudit } from "./types.js";

/** Each dependency once per `kind ref`, naming every agent task that used it. */
function dependencies(tasks: readonly AgentTaskSummary[]): ReviewedInput[] {
  const byRef = new Map<string, { input: ReviewedInput; users: string[] }>();
  for (const task of tasks) {
    for (const d of task.dependencies) {
      const key = `${d.kind} ${d.ref}`;
      const seen = byRef.get(key);
      if (seen !== undefined) {
        if (!seen.users.includes(task.elementId)) seen.users.push(task.elementId);
        continue;
      }
      const kind = d.kind === "tool" ? "tool contract" : "delegate";
      const input: ReviewedInput = {
        kind,
        what: d.ref,
        hash: d.contentHash ?? null,
        ...(d.failure === undefined ? {} : { note: `not read: ${d.failure.detail}` }),
      };
      byRef.set(key, { input, users: [task.elementId] });
    }
  }
  return [...byRef.values()].map(({ input, users }) => ({
    ...input,
    note: [input.note, `used by ${users.join(", ")}`].filter((n) => n !== undefined).join("; "),
  }));
}

/** The inputs of a report, in the order a reviewer reads them. */
export function reviewedInputs(
  subject: AuditReport["subject"],
  workflows: readonly WorkflowAudit[],
  tasks: readonly AgentTaskSummary[],
  settings: ReviewSettings,
  brokenRegistryFiles: readonly {
    readonly file: string;
    readonly diagnostics: readonly Diagnostic[];
  }[] = [],
): ReviewedInput[] {
  const { config, ruleSet } = settings;
  const broken = brokenRegistryFiles.map((p): ReviewedInput => {
    const first = p.diagnostics.find((d) => d.severity === "error");
    return {
      kind: "registry document",
      what: p.file,
      hash: null,
      note: `could not be used (${first?.message ?? "unreadable"}); it blocks the promotion, since a decision may need it`,
    };
  });
  const changed = ruleSet.changed.map((c) => `${c.code} ${c.setting} (preset ${c.preset})`);
  // Each pack and plugin that judged, pinned by its hash: which policy judged is part of it.
  const extensions = (ruleSet.extensions ?? []).map((e): ReviewedInput => ({
    kind: e.kind === "policy" ? "policy pack" : "plugin",
    what: `${e.name}@${e.version}`,
    hash: e.sha256,
    note: `its rules are ${e.name}/…`,
  }));
  const notes = [
    ...(changed.length === 0 ? [] : [`changed from the preset: ${changed.join(", ")}`]),
    ...(ruleSet.waivers === undefined ? [] : [`${String(ruleSet.waivers.length)} waiver(s)`]),
    ...(settings.today === undefined ? [] : [`waivers judged on ${settings.today}`]),
  ];
  return [
    { kind: subject.kind, what: subject.file, hash: subject.fileHash },
    ...workflows.map((w): ReviewedInput => ({
      kind: "workflow",
      what: `${w.id}@${w.version}`,
      hash: w.contentHash,
    })),
    ...dependencies(tasks),
    ...broken,
    config === null
      ? { kind: "config", what: "none", hash: null, note: "built-in settings" }
      : { kind: "config", what: config.file, hash: config.contentHash },
    ...extensions,
    {
      kind: "rule set",
      what: `agentflow ${ruleSet.agentflowVersion}, preset ${ruleSet.preset}, Camunda agents ${ruleSet.camundaAgents}`,
      hash: ruleSet.digest,
      ...(notes.length === 0 ? {} : { note: notes.join("; ") }),
    },
  ];
}

/** What of a report's options decides its settings (a part of `AuditOptions`). */
export interface SettingsOptions extends AuditPolicyOptions {
  readonly preset?: PresetName;
  readonly workflowRules?: Readonly<Record<string, RuleSetting>>;
  readonly gate?: Pick<GateOptions, "policy" | "rules" | "toolEffects" | "gates">;
  readonly config?: ReviewSettings["config"];
}

/** What the report names as its settings, with the defaults a run without options uses. */
export function reviewSettings(options: SettingsOptions): ReviewSettings {
  // The options' waivers, then the packs', as `evaluateGates` names them: one digest for both.
  const waivers = [
    ...(options.waivers ?? []),
    ...(options.policies ?? []).flatMap((p) => p.waivers),
  ];
  const extensions = pinnedExtensions(options);
  const settings: RuleSetSettings = {
    preset: options.preset ?? "recommended",
    workflowRules: options.workflowRules ?? {},
    bpmnRules: options.gate?.rules ?? {},
    camundaAgents: options.gate?.policy?.camundaAgents ?? "gate-required",
    ...(options.gate?.toolEffects === undefined ? {} : { toolEffects: options.gate.toolEffects }),
    ...(options.gate?.gates === undefined ? {} : { gates: options.gate.gates }),
    ...(extensions.length === 0 ? {} : { extensions }),
    ...(waivers.length === 0 ? {} : { waivers }),
  };
  const judged = options.today !== undefined && waivers.length > 0;
  return {
    config: options.config ?? null,
    ruleSet: describeRuleSet(settings),
    ...(judged ? { today: options.today } : {}),
  };
}
