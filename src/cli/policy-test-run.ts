/**
 * Running one policy test file: its packs read and compiled, its registry loaded, each input
 * judged once by every pack (`policy-test-judge.ts`), and each case judged from what they found. Whatever cannot be read — the test file, a pack, a registry
 * document, an input — is a problem naming the file and the place, never a case that passes.
 */
import { dirname, relative, resolve } from "node:path";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { ambiguousWaiverProblems, formatPolicyProblem, readPolicyPack } from "../policy/index.js";
import { BPMN_RULE_CODES, WORKFLOW_RULE_CODES } from "../rules/builtin-codes.js";
import { readText } from "./file-read.js";
import { PROCESS_NAMES } from "./files.js";
import type { ProcessInput } from "./gate-waivers.js";
import { sharedProcessProblems } from "./gate-waivers.js";
import { UsageError } from "./io.js";
import type { Judging } from "./policy-test-judge.js";
import { inputKindOf, judgeProcess, judgeWorkflow } from "./policy-test-judge.js";
import type { CaseResult, PlannedCase, TestedPack } from "./policy-test-cases.js";
import { judgeCase, planCases, rulesOf } from "./policy-test-cases.js";
import type { PolicyTestSpec, Unplaced } from "./policy-test-read.js";
import { readPolicyTest } from "./policy-test-read.js";
import type { InputKind, InputVerdicts } from "./policy-test-subjects.js";
import { subjectsPack } from "./policy-test-subjects.js";
import type { FolderRegistry } from "./registry.js";
import { loadFolderRegistry } from "./registry.js";

/** What running a test file gave: its cases judged, or every problem that stopped it. */
export type TestFileOutcome =
  | {
      readonly file: string;
      readonly name: string;
      readonly packs: readonly TestedPack[];
      readonly planned: readonly PlannedCase[];
      readonly cases: readonly CaseResult[];
    }
  | { readonly file: string; readonly problems: readonly string[] };

/** A path as the output shows it: relative to the working directory when inside it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") ? path : rel;
}

/** The message of a usage error (a file that cannot be read), else the error again. */
function usageMessage(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  throw error;
}

/**
 * Why an input could not be judged: a usage error (a file that cannot be read), or what the
 * gate or the validator refused in what the test gave them — they throw a TypeError for options
 * they cannot run with (a waiver they cannot apply), which is the test's to fix, not agentflow's
 * internal error.
 */
function judgingMessage(error: unknown): string {
  if (error instanceof TypeError) return `cannot be judged: ${error.message}`;
  return usageMessage(error);
}

/** What a step of reading a test found wrong: places in the test file, and lines of other files. */
interface Problems {
  readonly unplaced: Unplaced[];
  readonly lines: string[];
}

/** Reads and compiles the packs a test names, relative to its folder. */
async function loadPacks(
  spec: PolicyTestSpec,
  dir: string,
  problems: Problems,
): Promise<TestedPack[]> {
  const packs: TestedPack[] = [];
  for (const [i, path] of spec.policies.entries()) {
    const key = resolve(dir, path);
    const source = shownPath(key);
    let text: string;
    try {
      text = await readText(source, "the policy pack ");
    } catch (error) {
      problems.unplaced.push({ place: `policies[${i}]`, message: usageMessage(error) });
      continue;
    }
    const reading = readPolicyPack(text, source);
    if ("problems" in reading) problems.lines.push(...reading.problems.map(formatPolicyProblem));
    else packs.push({ key, source, pack: reading.pack });
  }
  const names = new Map<string, string>();
  for (const { pack, source } of packs) {
    const other = names.get(pack.name);
    if (other !== undefined && other !== source) {
      const message = `${other} and ${source} are both pack '${pack.name}'`;
      problems.unplaced.push({ place: "policies", message });
    }
    names.set(pack.name, source);
  }
  return packs;
}

/** Loads the registry a test names; its unreadable documents are problems, not unknowns. */
async function loadRegistry(
  spec: PolicyTestSpec,
  dir: string,
  source: string,
  problems: Problems,
): Promise<FolderRegistry | undefined> {
  const folders = spec.registry ?? [];
  if (folders.length === 0) return undefined;
  let registry: FolderRegistry;
  try {
    registry = await loadFolderRegistry(
      folders.map((f) => shownPath(resolve(dir, f))),
      `registry in ${source}`,
    );
  } catch (error) {
    problems.unplaced.push({ place: "registry", message: usageMessage(error) });
    return undefined;
  }
  for (const { file, diagnostics } of registry.problems) {
    for (const d of diagnostics) {
      if (d.severity !== "error") continue;
      const at = d.location === undefined ? "" : `:${d.location.line}:${d.location.column}`;
      problems.lines.push(`${file}${at}: ${d.message} (registry in ${source})`);
    }
  }
  return registry;
}

/**
 * The test's own waivers that name no rule it runs — a built-in code, or a rule of its packs as
 * `<pack>/<id>` or its bare id — as the config's are refused (a waiver of a misspelt rule waives
 * nothing while its owner believes it does); and any waiver, the test's or a pack's, whose bare
 * id is more than one rule's (it would waive them all). Said before anything is judged: the gate
 * would refuse them with a TypeError.
 */
function waiverRuleProblems(
  waivers: readonly Waiver[],
  packs: readonly CompiledPack[],
  problems: Problems,
): void {
  const known = new Set([
    ...BPMN_RULE_CODES,
    ...WORKFLOW_RULE_CODES,
    ...packs.flatMap((p) => p.spec.rules.flatMap((r) => [r.id, `${p.name}/${r.id}`])),
  ]);
  waivers.forEach((w, i) => {
    if (known.has(w.rule)) return;
    problems.unplaced.push({
      place: `waivers[${i}].rule`,
      message: `'${w.rule}' is no rule of this test (a built-in code, or a rule of its packs: <pack>/<id> or its id)`,
    });
  });
  for (const line of ambiguousWaiverProblems(waivers, packs)) {
    const colon = line.indexOf(": ");
    problems.unplaced.push({ place: line.slice(0, colon), message: line.slice(colon + 2) });
  }
  problems.lines.push(
    ...ambiguousWaiverProblems(
      packs.flatMap((p) => p.waivers),
      packs,
    ),
  );
}

/**
 * The waivers — the test's and its packs' — whose `process` more than one BPMN input defines,
 * refused as `check` refuses them (gate-waivers.ts): the test's as problems of its own places,
 * naming the inputs as it lists them; the packs' placed in the pack.
 */
function sharedProcessWaivers(
  spec: PolicyTestSpec,
  packs: readonly CompiledPack[],
  inputs: readonly (ProcessInput & { readonly shown: string })[],
  problems: Problems,
): void {
  for (const line of sharedProcessProblems({ waivers: spec.waivers }, [], inputs)) {
    const colon = line.indexOf(": ");
    problems.unplaced.push({ place: line.slice(0, colon), message: line.slice(colon + 2) });
  }
  const shown = inputs.map((input) => ({ file: input.shown, processIds: input.processIds }));
  problems.lines.push(...sharedProcessProblems({}, packs, shown));
}

/**
 * Runs the test file at `path` (absolute); `today` is the day waivers are judged on when the
 * file does not say. Paths in its output are shown relative to the working directory.
 */
export async function runTestFile(path: string, today: string): Promise<TestFileOutcome> {
  const file = shownPath(path);
  const fail = (problems: readonly string[]): TestFileOutcome => ({ file, problems });
  let text: string;
  try {
    text = await readText(path, "the policy test ");
  } catch (error) {
    return fail([usageMessage(error)]);
  }
  const read = readPolicyTest(text, file);
  if ("problems" in read) return fail(read.problems);
  const { spec, place } = read.test;
  const found: Problems = { unplaced: [], lines: [] };
  const stop = (): TestFileOutcome | undefined =>
    found.unplaced.length + found.lines.length === 0
      ? undefined
      : fail([...place(found.unplaced), ...found.lines]);
  const dir = dirname(path);
  const tested = await loadPacks(spec, dir, found);
  const registry = await loadRegistry(spec, dir, file, found);
  const inputKinds = new Map<string, InputKind>();
  spec.inputs.forEach((input, i) => {
    const kind = inputKindOf(input);
    if (kind !== undefined) inputKinds.set(input, kind);
    else {
      const why = `is neither a BPMN process (${PROCESS_NAMES}) nor a workflow (.json, .yaml, .yml)`;
      found.unplaced.push({ place: `inputs[${i}]`, message: `'${input}' ${why}` });
    }
  });
  const rules = rulesOf(tested);
  const plan = planCases(spec, rules, inputKinds);
  // A rule of a pack that could not be read is no problem of the results (nor of the waivers):
  // the pack's is said.
  if (tested.length === spec.policies.length) {
    found.unplaced.push(...plan.problems);
    const packs = tested.map((p) => p.pack);
    waiverRuleProblems(spec.waivers ?? [], packs, found);
  }
  const early = stop();
  if (early !== undefined) return early;
  const packs = tested.map((p) => p.pack);
  const waivers = [...(spec.waivers ?? []), ...packs.flatMap((p) => p.waivers)];
  const judging: Judging = {
    packs,
    probe: subjectsPack({
      names: new Set(packs.map((p) => p.name)),
      ids: new Set([
        ...packs.flatMap((p) => p.spec.rules.map((r) => r.id)),
        ...waivers.map((w) => w.rule),
      ]),
    }),
    kinds: new Map([...rules].map(([code, rule]) => [code, rule.kind])),
    registry,
    waivers: spec.waivers ?? [],
    today: spec.today ?? today,
    settings: {
      ...(spec.gates === undefined ? {} : { gates: spec.gates }),
      ...(spec.toolEffects === undefined ? {} : { toolEffects: spec.toolEffects }),
    },
  };
  const verdicts = new Map<string, InputVerdicts>();
  const processInputs: (ProcessInput & { readonly shown: string })[] = [];
  for (const [i, input] of spec.inputs.entries()) {
    const shown = shownPath(resolve(dir, input));
    try {
      if (inputKinds.get(input) === "bpmn") {
        const judged = await judgeProcess(shown, judging);
        verdicts.set(input, judged.verdicts);
        // Named as the test lists it, which its own waivers' problems quote.
        processInputs.push({ file: input, shown, processIds: judged.processIds });
      } else verdicts.set(input, await judgeWorkflow(shown, judging));
    } catch (error) {
      found.unplaced.push({ place: `inputs[${i}]`, message: judgingMessage(error) });
    }
  }
  sharedProcessWaivers(spec, packs, processInputs, found);
  const late = stop();
  if (late !== undefined) return late;
  const cases = plan.cases.map((c) => {
    const judged = verdicts.get(c.input);
    if (judged === undefined) throw new Error(`input ${c.input} was not judged`);
    return judgeCase(c, judged);
  });
  return { file, name: spec.name, packs: tested, planned: plan.cases, cases };
}
