/**
 * Table-driven rule tests, in the manner of eslint's RuleTester: each valid case must produce no
 * diagnostic from the rule; each invalid case must produce exactly the listed diagnostics
 * (code, target, path, and the listed `data` fields), in order.
 */
import { describe, expect, it } from "vitest";
import type { AgentWorkflow, DiagnosticTarget } from "../../src/model/index.js";
import type { Resolvers, Rule, RuleSetting } from "../../src/validate/index.js";
import { createValidator } from "../../src/validate/index.js";

/** A case with no finding. */
export interface ValidCase {
  readonly name: string;
  readonly workflow: AgentWorkflow;
  readonly resolvers?: Resolvers;
  readonly setting?: RuleSetting;
}

/** One expected diagnostic. */
export interface ExpectedDiagnostic {
  readonly code: string;
  readonly target: DiagnosticTarget;
  readonly path: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly severity?: "error" | "warning" | "info";
}

/** A case with findings. */
export interface InvalidCase extends ValidCase {
  readonly errors: readonly ExpectedDiagnostic[];
}

/** Runs the table for one rule. */
export function ruleTester(
  rule: Rule,
  cases: { readonly valid: readonly ValidCase[]; readonly invalid: readonly InvalidCase[] },
): void {
  const run = async (c: ValidCase) => {
    const validator = createValidator({
      ruleSet: [rule],
      ...(c.resolvers === undefined ? {} : { resolvers: c.resolvers }),
      ...(c.setting === undefined ? {} : { rules: { [rule.meta.code]: c.setting } }),
    });
    return validator.validate(c.workflow);
  };
  describe(rule.meta.code, () => {
    it.each(cases.valid)("valid: $name", async (c) => {
      expect(await run(c)).toEqual([]);
    });
    it.each(cases.invalid)("invalid: $name", async (c) => {
      const diagnostics = await run(c);
      expect(
        diagnostics.map((d) => ({
          code: d.code,
          target: d.target,
          path: d.path,
          severity: d.severity,
        })),
      ).toEqual(
        c.errors.map((e) => ({
          code: e.code,
          target: e.target,
          path: e.path,
          severity: e.severity ?? rule.meta.defaultSeverity,
        })),
      );
      c.errors.forEach((e, i) => {
        if (e.data !== undefined) expect(diagnostics[i]?.data).toMatchObject(e.data);
        expect(diagnostics[i]?.message).not.toMatch(/\{\{/);
      });
    });
  });
}
