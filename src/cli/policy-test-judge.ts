/**
 * Judging one input of a policy test: a BPMN process with `checkProcess`, a workflow (or another
 * format's, imported) with the validator, as `gate` and `check` judge them, each together with
 * the pack that lists the subjects, and the verdicts read from what they found. Each is judged
 * on the test's day: waivers by it, and FEEL's `today()` and `now()` too (judge.ts).
 */
import { extname } from "node:path";
import type { Diagnostic } from "../model/index.js";
import { parseWorkflowText } from "../model/index.js";
import type { CompiledPack, PolicySubject, Waiver } from "../policy/index.js";
import { waiversForUnnamed } from "../policy/index.js";
import { judgedOn } from "../policy/judge.js";
import type { Validator } from "../validate/index.js";
import { createValidator } from "../validate/index.js";
import { checkProcessFile } from "./check-file.js";
import { readText } from "./file-read.js";
import { DOCUMENT_EXTENSIONS, isProcessName } from "./files.js";
import type { GateSettings } from "./gate-options.js";
import { gateOptions } from "./gate-options.js";
import { UsageError } from "./io.js";
import { loadWorkflow } from "./load.js";
import type { PolicyTestSpec } from "./policy-test-read.js";
import type { InputKind, InputVerdicts } from "./policy-test-subjects.js";
import { verdictsOf } from "./policy-test-subjects.js";
import type { FolderRegistry } from "./registry.js";
import { statesIdentity } from "./registry-foreign.js";

/** What an input is, by its extension; undefined for one a test cannot judge. */
export function inputKindOf(path: string): InputKind | undefined {
  if (isProcessName(path)) return "bpmn";
  return Object.hasOwn(DOCUMENT_EXTENSIONS, extname(path)) ? "workflow" : undefined;
}

/** Everything one test file's inputs are judged with. */
export interface Judging {
  readonly packs: readonly CompiledPack[];
  readonly probe: CompiledPack;
  readonly kinds: ReadonlyMap<string, PolicySubject>;
  readonly registry: FolderRegistry | undefined;
  readonly waivers: NonNullable<PolicyTestSpec["waivers"]>;
  readonly today: string;
  /** The test's `gates` and `toolEffects`, as `check` takes the config's. */
  readonly settings: GateSettings;
  /** The validator of workflow inputs, made for the first one. */
  validator?: Validator;
}

/** What a BPMN input gave: its verdicts, and the ids of its processes (as `check` lists them). */
export interface ProcessVerdicts {
  readonly verdicts: InputVerdicts;
  readonly processIds: readonly string[];
}

/** Judges one BPMN input: its subjects and findings, or why it cannot be read. */
export async function judgeProcess(shown: string, judging: Judging): Promise<ProcessVerdicts> {
  const text = await readText(shown);
  const { checked, decision, unreadable, processIds } = await judgedOn(judging.today, () =>
    checkProcessFile(shown, text, {
      ...gateOptions(judging.registry, judging.settings),
      policies: [...judging.packs, judging.probe],
      waivers: judging.waivers,
      today: judging.today,
    }),
  );
  if (unreadable) {
    const errors = decision.blocking.filter((d) => d.severity === "error");
    const lines = errors.map((d) => {
      const at = d.location === undefined ? "" : `:${d.location.line}:${d.location.column}`;
      return `${shown}${at}: ${d.message}`;
    });
    throw new UsageError(`cannot be read as BPMN:\n  ${lines.join("\n  ")}`);
  }
  const verdicts = verdictsOf(checked.diagnostics, { kind: "bpmn" }, judging.probe, judging.kinds);
  return { verdicts, processIds };
}

/** Judges one workflow input (or another format's, imported) with the validator. */
export async function judgeWorkflow(shown: string, judging: Judging): Promise<InputVerdicts> {
  const text = await readText(shown);
  const format = DOCUMENT_EXTENSIONS[extname(shown)];
  const kind = (
    parseWorkflowText(text, format === undefined ? {} : { format }).value as {
      kind?: unknown;
    } | null
  )?.kind;
  if (kind === "ToolContract") {
    throw new UsageError(
      `${shown} is a tool contract: contracts are resolved, not judged on their own; list its folder under registry`,
    );
  }
  const { workflow, imported } = await loadWorkflow(shown);
  const validatorOf = (policies: readonly CompiledPack[], waivers: readonly Waiver[]): Validator =>
    createValidator({
      policies,
      waivers,
      today: judging.today,
      ...(judging.registry === undefined ? {} : { resolvers: judging.registry.resolvers }),
    });
  let found: Diagnostic[];
  if (imported !== undefined && !statesIdentity(imported.format, imported.warnings)) {
    // An id@version the importer made up names no document: as `check` judges it, without the
    // workflow waivers naming it (docs/policies.md, Waivers), and each says why.
    const unnamed = waiversForUnnamed(
      judging.waivers,
      [...judging.packs, judging.probe],
      { ref: `${workflow.id}@${workflow.version}`, format: imported.format },
      judging.today,
    );
    const validator = validatorOf(unnamed.packs, unnamed.waivers);
    found = [
      ...(await judgedOn(judging.today, () => validator.validate(workflow))),
      ...unnamed.findings,
    ];
  } else {
    const validator = (judging.validator ??= validatorOf(
      [...judging.packs, judging.probe],
      judging.waivers,
    ));
    found = await judgedOn(judging.today, () => validator.validate(workflow));
  }
  const input = { kind: "workflow" as const, workflow: `${workflow.id}@${workflow.version}` };
  return verdictsOf(found, input, judging.probe, judging.kinds);
}
