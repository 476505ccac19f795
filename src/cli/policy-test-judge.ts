/**
 * Judging one input of a policy test: a BPMN process with `checkProcess`, a workflow (or another
 * format's, imported) with the validator, as `gate` and `check` judge them, each together with
 * the pack that lists the subjects, and the verdicts read from what they found.
 */
import { extname } from "node:path";
import { checkProcess } from "../bpmn/index.js";
import type { Diagnostic } from "../model/index.js";
import { parseWorkflowText } from "../model/index.js";
import type { CompiledPack, PolicySubject, Waiver } from "../policy/index.js";
import { waiversForUnnamed } from "../policy/index.js";
import type { Validator } from "../validate/index.js";
import { createValidator } from "../validate/index.js";
import { readText } from "./file-read.js";
import { DOCUMENT_EXTENSIONS, isProcessName } from "./files.js";
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
  /** The validator of workflow inputs, made for the first one. */
  validator?: Validator;
}

/** Judges one BPMN input: its subjects and findings, or why it cannot be read. */
export async function judgeProcess(shown: string, judging: Judging): Promise<InputVerdicts> {
  const text = await readText(shown);
  const result = await checkProcess(text, {
    ...gateOptions(judging.registry),
    policies: [...judging.packs, judging.probe],
    waivers: judging.waivers,
    today: judging.today,
  });
  if (result.definitions === undefined) {
    const errors = result.blocking.filter((d) => d.severity === "error");
    const lines = errors.map((d) => {
      const at = d.location === undefined ? "" : `:${d.location.line}:${d.location.column}`;
      return `${shown}${at}: ${d.message}`;
    });
    throw new UsageError(`cannot be read as BPMN:\n  ${lines.join("\n  ")}`);
  }
  const found: Diagnostic[] = [...result.blocking, ...result.warnings];
  return verdictsOf(found, { kind: "bpmn" }, judging.probe, judging.kinds);
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
    found = [...(await validator.validate(workflow)), ...unnamed.findings];
  } else {
    judging.validator ??= validatorOf([...judging.packs, judging.probe], judging.waivers);
    found = await judging.validator.validate(workflow);
  }
  const input = { kind: "workflow" as const, workflow: `${workflow.id}@${workflow.version}` };
  return verdictsOf(found, input, judging.probe, judging.kinds);
}
