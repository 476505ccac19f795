/**
 * A rule's JSON options (`["error", { ... }]` in `.bpmnlintrc`) read over the host's: every
 * problem in one line each, so a typo never silently keeps a default, counts no gate the
 * organisation declared, or drops a policy pack.
 */
import type { Severity } from "../../model/index.js";
import { canonicalJson } from "../../model/index.js";
import type { CompiledPack, Waiver } from "../../policy/index.js";
import { waiverProblems } from "../../policy/index.js";
import type { ToolEffectsMapping } from "../camunda/index.js";
import { toolEffectsProblems } from "../camunda/index.js";
import type { GateSelector } from "../gate-select.js";
import { gateSelectorProblems } from "../gate-select.js";
import type { UnknownLevelPolicy } from "../types.js";
import { unknownPolicyProblem } from "../types.js";
import type { PackCache, PackFileSystem } from "./pack-read.js";
import { readPacks } from "./pack-read.js";

/** What a rule evaluates the gates with. */
export interface LintSettings {
  readonly policy: UnknownLevelPolicy;
  readonly gates?: readonly GateSelector[];
  readonly toolEffects?: ToolEffectsMapping;
  readonly packs: readonly CompiledPack[];
  /** The options' waivers (the packs carry their own). */
  readonly waivers: readonly Waiver[];
  /** The day waivers are judged on; today (UTC) when absent. */
  readonly today?: string;
}

/** A rule's settings, with the pack severities the `policy` rule reports. */
export interface RuleSettingsRead {
  readonly settings: LintSettings;
  readonly severities: ReadonlySet<Severity>;
}

/** The options every rule takes; `policy` also takes `severities`. */
export const OPTION_KEYS = [
  "camundaAgents",
  "gates",
  "toolEffects",
  "policies",
  "waivers",
  "today",
] as const;

const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

/** A value as JSON shows it; its type when JSON cannot (`undefined`, a function, a bigint). */
function shown(value: unknown): string {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") {
    return typeof value;
  }
  try {
    return JSON.stringify(value);
  } catch {
    return typeof value;
  }
}

/** True for `YYYY-MM-DD` naming a day that exists (no 2027-02-30). */
function isDay(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** The problems of a `waivers` value, each starting with `where[i]`. */
export function waiversProblems(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) return [`${where} must be a list of waivers`];
  return value.flatMap((waiver: unknown, i) => waiverProblems(waiver, `${where}[${i}]`));
}

/** The problem of a `today` value, if any. */
export function todayProblem(value: unknown, where: string): string | undefined {
  return isDay(value)
    ? undefined
    : `${where} must be a date written YYYY-MM-DD, got ${shown(value)}`;
}

function severitiesProblem(value: unknown): string | undefined {
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((s: unknown) => (SEVERITIES as readonly unknown[]).includes(s));
  return ok
    ? undefined
    : `severities must be a non-empty list of ${SEVERITIES.join(", ")}, got ${shown(value)}`;
}

/**
 * Reads a rule's options over `fallback` (the host's), or every problem with them. `policy`
 * says whether the rule is `policy`, which alone takes `severities`.
 */
export function settingsOf(
  config: unknown,
  fallback: LintSettings,
  policy: boolean,
  fs: PackFileSystem | undefined,
  cache: PackCache,
): RuleSettingsRead | { readonly problems: readonly string[] } {
  const all = new Set<Severity>(SEVERITIES);
  if (config === undefined || config === null) return { settings: fallback, severities: all };
  if (typeof config !== "object" || Array.isArray(config)) {
    return { problems: ["the rule's options must be an object"] };
  }
  const known: readonly string[] = policy ? [...OPTION_KEYS, "severities"] : OPTION_KEYS;
  const unknown = Object.keys(config).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    return { problems: [`unknown option '${unknown}' (known: ${known.join(", ")})`] };
  }
  const options = config as Readonly<Record<string, unknown>>;
  const { camundaAgents, gates, toolEffects, policies, waivers, today, severities } = options;
  const problems: string[] = [];
  const add = (problem: string | undefined) => {
    if (problem !== undefined) problems.push(problem);
  };
  if (camundaAgents !== undefined) add(unknownPolicyProblem("camundaAgents", camundaAgents));
  if (gates !== undefined) add(gateSelectorProblems(gates, "gates")[0]);
  if (toolEffects !== undefined) add(toolEffectsProblems(toolEffects)[0]);
  if (waivers !== undefined) problems.push(...waiversProblems(waivers, "waivers"));
  if (today !== undefined) add(todayProblem(today, "today"));
  if (severities !== undefined) add(severitiesProblem(severities));
  const packs = policies === undefined ? undefined : readPacks(policies, "policies", fs, cache);
  if (packs !== undefined && "problems" in packs) problems.push(...packs.problems);
  if (problems.length > 0) return { problems };
  const settings: LintSettings = {
    policy: (camundaAgents as UnknownLevelPolicy | undefined) ?? fallback.policy,
    ...pick("gates", gates as readonly GateSelector[] | undefined, fallback.gates),
    ...pick("toolEffects", toolEffects as ToolEffectsMapping | undefined, fallback.toolEffects),
    packs: packs !== undefined && "packs" in packs ? packs.packs : fallback.packs,
    waivers: (waivers as readonly Waiver[] | undefined) ?? fallback.waivers,
    ...pick("today", today as string | undefined, fallback.today),
  };
  return {
    settings,
    severities: severities === undefined ? all : new Set(severities as readonly Severity[]),
  };
}

/** `{ key: value }`, else `{ key: fallback }`, else `{}` (exact optional properties). */
function pick<K extends string, V>(
  key: K,
  value: V | undefined,
  fallback: V | undefined,
): Partial<Record<K, V>> {
  const chosen = value ?? fallback;
  return chosen === undefined ? {} : ({ [key]: chosen } as Partial<Record<K, V>>);
}

/**
 * What makes two rules' evaluations the same: rules configured alike share one. A pack is
 * known by its content (`sha256`), so the same file named by two rules is one pack.
 */
export function settingsKey(settings: LintSettings): string {
  return canonicalJson({
    policy: settings.policy,
    gates: settings.gates ?? null,
    toolEffects: settings.toolEffects ?? null,
    packs: settings.packs.map((pack) => pack.sha256),
    waivers: settings.waivers,
    today: settings.today ?? null,
  });
}
