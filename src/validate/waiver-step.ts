/**
 * The waivers of a validator's config and its packs, as each validation applies them: every
 * finding of a workflow is about that workflow (`id@version`). Checked once, when the validator
 * is built.
 */
import type { AgentWorkflow, Diagnostic } from "../model/index.js";
import type { CompiledPack, Waiver } from "../policy/index.js";
import { applyWaivers, todayUtc } from "../policy/waive.js";
import { duplicatePackProblems } from "../policy/waiver-packs.js";

/** The waivers of a config, as one validation applies them. */
export interface WaiverStep {
  /** A workflow's findings, marked, then what the waivers themselves give (expired, gone). */
  readonly apply: (workflow: AgentWorkflow, diagnostics: Diagnostic[]) => Diagnostic[];
  /**
   * The findings of the workflow `ref`, marked only: for a delegate judged on its caller's
   * behalf, whose waivers' own findings belong to its own validation.
   */
  readonly mark: (ref: string, diagnostics: readonly Diagnostic[]) => readonly Diagnostic[];
}

const NO_SUBJECTS = { processes: new Map(), workflows: new Set<string>() };

/**
 * The step of the config's `waivers`, judged on `today` (UTC today by default), and the packs'.
 *
 * @throws TypeError when a waiver or the date is malformed, or two packs have one name: API
 * misuse, said at once rather than on the first document.
 */
export function waiverStep(
  own: readonly Waiver[] | undefined,
  today: string | undefined,
  packs: readonly CompiledPack[],
): WaiverStep {
  // Refused with or without waivers: two packs of one name also share their rules' codes.
  const clashes = duplicatePackProblems(packs);
  if (clashes.length > 0) throw new TypeError(clashes.join("; "));
  const waivers = [...(own ?? []), ...packs.flatMap((p) => p.waivers)];
  if (waivers.length === 0) return { apply: (_, diagnostics) => diagnostics, mark: (_, d) => d };
  const day = today ?? todayUtc();
  applyWaivers([], waivers, () => undefined, NO_SUBJECTS, day, packs);
  const run = (ref: string, diagnostics: readonly Diagnostic[]) => {
    const present = { processes: new Map(), workflows: new Set([ref]) };
    return applyWaivers(diagnostics, waivers, () => ({ workflow: ref }), present, day, packs);
  };
  return {
    apply(workflow, diagnostics) {
      const ref = `${workflow.id}@${workflow.version}`;
      const { diagnostics: marked, findings } = run(ref, diagnostics);
      return [...marked, ...findings];
    },
    mark: (ref, diagnostics) => run(ref, diagnostics).diagnostics,
  };
}
