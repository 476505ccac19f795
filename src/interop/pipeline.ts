/**
 * The one import pipeline (SPEC 6): read → map ids → build → finish → validate. A format supplies
 * the first three as its `build` (reading with `json.ts`, mapping every id with `ids.ts`,
 * declaring every loss with the builders of `warnings.ts`); the pipeline hands the draft to the
 * model's own parser, so that an import returns exactly what `parseWorkflow` accepts, replaces
 * the declared autonomy level by the level the imported graph justifies (never a guess), and
 * turns any failure that is not an {@link ImportError} into one of the format, so that callers
 * need a single `catch` branch and never see a raw exception.
 */
import { minCoherentLevel } from "../autonomy/index.js";
import type { AgentWorkflow, Diagnostic } from "../model/index.js";
import { parseWorkflow, UNKNOWN_PROPERTY } from "../model/index.js";
import { removeAt } from "./json.js";
import type { ImportResult, InteropWarning } from "./types.js";
import { ImportError } from "./types.js";
import { dropped } from "./warnings.js";

/** A workflow under construction: plain data, edited in place before it is parsed. */
export type Draft = Record<string, unknown>;

/** What a format's `build` returns: the draft, and how to point a refusal into the source. */
export interface Built {
  readonly draft: Draft;
  /**
   * The error for the diagnostic that refuses the draft, when the format can say where in its
   * source the value came from; by default the refusal is at the document root.
   */
  readonly refuse?: (d: Diagnostic) => ImportError;
}

/** One format's part of the pipeline. */
export interface ImportSteps {
  /** The {@link Format.id}, carried by every error of the import. */
  readonly format: string;
  /** Reads the document, maps its ids and builds the draft, pushing each declared loss. */
  build(doc: unknown, warnings: InteropWarning[]): Built;
  /** Which diagnostics of the model's parser refuse the draft; by default any error. */
  readonly blocks?: (d: Diagnostic) => boolean;
  /**
   * When set, a property the model does not know is dropped and declared at the source path
   * this returns (for formats whose node data is agentflow configuration), and the draft must
   * then parse without any diagnostic.
   */
  readonly dropUnknownAt?: (path: string) => string;
  /** Checks the parsed workflow, refusing it or declaring what it reads differently. */
  readonly check?: (workflow: AgentWorkflow, warnings: InteropWarning[]) => void;
}

function isError(d: Diagnostic): boolean {
  return d.severity === "error";
}

/** Parses the draft; a refusing diagnostic fails the import, so a mapping bug is never returned. */
function finish(steps: ImportSteps, built: Built, warnings: InteropWarning[]): AgentWorkflow {
  const { draft } = built;
  let parsed = parseWorkflow(draft);
  let problem = parsed.diagnostics.find(steps.blocks ?? isError);
  const unknown = parsed.diagnostics.filter((d) => d.code === UNKNOWN_PROPERTY);
  if (problem === undefined && steps.dropUnknownAt !== undefined && unknown.length > 0) {
    for (const d of unknown) {
      removeAt(draft, d.path);
      const key = d.data.property;
      const message = `'${String(key)}' is not a field of the agentflow model`;
      warnings.push(dropped(steps.dropUnknownAt(d.path), message, { key }));
    }
    parsed = parseWorkflow(draft);
    problem = parsed.diagnostics[0];
  }
  if (parsed.workflow !== undefined && problem === undefined) return parsed.workflow;
  if (problem !== undefined && built.refuse !== undefined) throw built.refuse(problem);
  throw new ImportError({
    format: steps.format,
    path: "",
    reason: `the mapped workflow does not parse: ${problem?.message ?? "no workflow"}`,
  });
}

/**
 * The import function of a format: runs its steps, then finishes and validates the draft.
 * Throws only {@link ImportError}: an unexpected failure is wrapped in one at the document root,
 * with the failure as its `cause`.
 */
export function defineImport(steps: ImportSteps): (doc: unknown) => ImportResult {
  return (doc) => {
    try {
      const warnings: InteropWarning[] = [];
      const workflow = finish(steps, steps.build(doc, warnings), warnings);
      steps.check?.(workflow, warnings);
      return { workflow: { ...workflow, autonomyLevel: minCoherentLevel(workflow) }, warnings };
    } catch (error) {
      if (error instanceof ImportError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new ImportError({
        format: steps.format,
        path: "",
        reason: `unexpected failure: ${detail}`,
        cause: error,
      });
    }
  };
}
