/**
 * bpmnlint's `Linter` with a `StaticResolver`, as bpmn-js-bpmnlint runs it, typed for the tests.
 */
import { createRequire } from "node:module";
import type { BpmnlintRuleFactory } from "../../../src/bpmn/lint/index.js";
import { moddle } from "./rule-tester.js";

const require = createRequire(import.meta.url);

/** One report as the linter annotates it. */
export interface LintReport {
  readonly id?: string;
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly category: string;
  readonly meta?: unknown;
}

/** What {@link lint} returns: reports by rule name (`agentflow/agent-gate-bypass`). */
export type LintResults = Readonly<Record<string, readonly LintReport[]>>;

/** A configuration as the linter takes it. */
export interface LintConfig {
  readonly extends?: string | readonly string[];
  readonly rules?: Readonly<Record<string, unknown>>;
}

interface LinterInstance {
  lint(root: unknown, config?: LintConfig): Promise<LintResults>;
}

type LinterClass = new (options: { resolver: unknown; config?: LintConfig }) => LinterInstance;
type StaticResolverClass = new (cache: Readonly<Record<string, unknown>>) => unknown;

const { Linter } = require("bpmnlint") as { Linter: LinterClass };
const StaticResolver = require("bpmnlint/lib/resolver/static-resolver") as StaticResolverClass;

/** A linter resolving from `cache` (`rule:<pkg>/<name>` and `config:<pkg>/<name>` entries). */
export function staticLinter(
  cache: Readonly<Record<string, BpmnlintRuleFactory | object>>,
): LinterInstance {
  return new Linter({ resolver: new StaticResolver(cache) });
}

/** Parses `xml` (btv and zeebe registered) and lints it. */
export async function lint(
  linter: LinterInstance,
  xml: string,
  config: LintConfig,
): Promise<LintResults> {
  const { root } = await moddle(xml);
  return linter.lint(root, config);
}
