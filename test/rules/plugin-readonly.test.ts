/**
 * A plugin's rule reads the context the built-in rules, the policy packs and the verdict read
 * after it; it must never change it. Each plugin below edits it in place, as a plugin with a
 * bug would: the edit is refused (`RULE_CRASHED` naming the rule, the verdict blocked), and
 * everything else — the other findings, the agent tasks, the caller's documents — is what it
 * is without the plugin, through every API: `checkProcess`, `evaluateGatesSync`, and the
 * validator, sync and async.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import type { BpmnRuleContext, GateDecision } from "../../src/bpmn/index.js";
import { checkProcess, evaluateGatesSync, readProcess } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import type { Plugin } from "../../src/rules/index.js";
import { defineRule, RULE_CRASHED } from "../../src/rules/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { createValidator } from "../../src/validate/index.js";

const XML = readFileSync("examples/processes/loan-origination.bpmn", "utf8");
const PACK = parse(readFileSync("examples/policies/bank.policy.yaml", "utf8")) as Readonly<
  Record<string, unknown>
>;

/** The example registry, read afresh: documents by `id@version`. */
function registry(): Map<string, unknown> {
  const docs = new Map<string, unknown>();
  for (const name of readdirSync("examples/registry")) {
    const doc = JSON.parse(readFileSync(join("examples/registry", name), "utf8")) as {
      id: string;
      version: string;
    };
    docs.set(`${doc.id}@${doc.version}`, doc);
  }
  return docs;
}

const META = {
  defaultSeverity: "info",
  description: "reads the context",
  docs: "https://example.com/rule",
  messages: { default: "seen" },
} as const;

type Edit =
  | { readonly scope: "workflow"; readonly edit: (context: RuleContext) => unknown }
  | { readonly scope: "process"; readonly edit: (context: BpmnRuleContext) => unknown };

/** One plugin, `edits`, with the one rule `EDIT`. */
function plugin(edit: Edit): Record<string, Plugin> {
  const rule =
    edit.scope === "workflow"
      ? defineRule<RuleContext>({ meta: { code: "EDIT", ...META }, check: edit.edit })
      : defineRule<BpmnRuleContext>({
          meta: { code: "EDIT", scope: "process", ...META },
          check: edit.edit,
        });
  return { edits: { meta: { name: "edits", version: "1.0.0" }, rules: { EDIT: rule } } };
}

const CASES: readonly (readonly [string, Edit])[] = [
  [
    "drops the workflow's tool nodes",
    {
      scope: "workflow",
      edit: (c) => {
        Reflect.set(
          c.workflow,
          "nodes",
          c.workflow.nodes.filter((n) => n.type !== "tool"),
        );
      },
    },
  ],
  [
    "rewrites a model alias in place",
    {
      scope: "workflow",
      edit: (c) => {
        for (const n of c.workflow.nodes)
          if (n.type === "llm") Reflect.set(n.config, "model", "gpt-4o");
      },
    },
  ],
  [
    "caps the workflow's autonomy level",
    { scope: "workflow", edit: (c) => Reflect.set(c.workflow, "autonomyLevel", 1) },
  ],
  [
    "makes a resolved tool read-only in the facts",
    {
      scope: "workflow",
      edit: (c) => {
        for (const r of c.facts.resolved.tools.values()) {
          if (r.status === "resolved") Reflect.set(r.value, "effect", "read");
        }
      },
    },
  ],
  [
    "clears the facts' resolved tools",
    {
      scope: "workflow",
      edit: (c) => {
        (c.facts.resolved.tools as Map<string, unknown>).clear();
      },
    },
  ],
  ["freezes the caller's workflow", { scope: "workflow", edit: (c) => Object.freeze(c.workflow) }],
  [
    "empties each agent task's tools in the view",
    {
      scope: "process",
      edit: (c) => {
        for (const t of c.view?.agentTasks ?? []) (t.tools as unknown[]).splice(0);
      },
    },
  ],
  [
    "marks every task's gate reached at level 1",
    {
      scope: "process",
      edit: (c) => {
        for (const t of c.analysis?.tasks ?? []) {
          Reflect.set(t.gate, "status", "reached");
          Reflect.set(t, "level", 1);
        }
      },
    },
  ],
  [
    "reverses the view's agent tasks",
    { scope: "process", edit: (c) => (c.view?.agentTasks as unknown[] | undefined)?.reverse() },
  ],
  [
    "renames an element through moddle's set",
    {
      scope: "process",
      edit: (c) => {
        const element = c.analysis?.tasks[0]?.node.element as unknown as {
          set(k: string, v: unknown): void;
        };
        element.set("name", "renamed");
      },
    },
  ],
];

/** `id: name` of each flow element of each process. */
function namesOf(definitions: unknown): string[] {
  const roots = (definitions as { rootElements?: { flowElements?: unknown[] }[] }).rootElements;
  return (roots ?? []).flatMap((root) =>
    (root.flowElements ?? []).map((e) => {
      const { id, name } = e as { id: string; name?: string };
      return `${id}: ${name ?? ""}`;
    }),
  );
}

/** What a decision says, but for the plugin's own crash and what it blocks by failing. */
function verdictOf(decision: GateDecision): unknown {
  const others = (ds: readonly Diagnostic[]) =>
    ds
      .filter((d) => d.code !== RULE_CRASHED && d.code !== "AGENT_WORKFLOW_INVALID")
      .map((d) => `${d.code} ${d.target.kind === "bpmn-element" ? d.target.elementId : ""}`);
  return {
    blocking: others(decision.blocking),
    warnings: others(decision.warnings),
    tasks: decision.agentTasks,
  };
}

/** The rule named as failed: directly, or through the workflow it failed on. */
function failed(decision: GateDecision, scope: Edit["scope"]): boolean {
  return decision.blocking.some((d) =>
    scope === "process"
      ? d.code === RULE_CRASHED && d.data.rule === "edits/EDIT"
      : d.code === "AGENT_WORKFLOW_INVALID" && JSON.stringify(d.data).includes(RULE_CRASHED),
  );
}

describe("a plugin rule that edits what it is given", () => {
  const docs = registry();
  const lookup = (ref: string): unknown => docs.get(ref);
  const options = { resolveWorkflow: lookup, resolveTool: lookup, policies: [PACK] };

  it.each(CASES)("checkProcess: %s — refused, the verdict otherwise unchanged", async (_, edit) => {
    const mine = registry();
    const own = (ref: string): unknown => mine.get(ref);
    const baseline = await checkProcess(XML, options);
    const decision = await checkProcess(XML, {
      ...options,
      resolveWorkflow: own,
      resolveTool: own,
      plugins: plugin(edit),
    });
    expect(decision.allowed).toBe(false);
    expect(failed(decision, edit.scope)).toBe(true);
    expect(verdictOf(decision)).toEqual(verdictOf(baseline));
    // The caller's documents: as they were, and not frozen.
    expect([...mine.values()]).toEqual([...registry().values()]);
    expect([...mine.values()].some((d) => Object.isFrozen(d))).toBe(false);
  });

  it.each(CASES)(
    "evaluateGatesSync: %s — refused, the verdict otherwise unchanged",
    async (_, edit) => {
      const { definitions } = await readProcess(XML);
      if (definitions === undefined) throw new Error("unreadable");
      const baseline = evaluateGatesSync(definitions, options);
      const mine = registry();
      const own = (ref: string): unknown => mine.get(ref);
      const decision = evaluateGatesSync(definitions, {
        ...options,
        resolveWorkflow: own,
        resolveTool: own,
        plugins: plugin(edit),
      });
      expect(failed(decision, edit.scope)).toBe(true);
      expect(verdictOf(decision)).toEqual(verdictOf(baseline));
      expect([...mine.values()]).toEqual([...registry().values()]);
      // The definitions the caller read: every element keeps its name.
      expect(namesOf(definitions)).toEqual(namesOf((await readProcess(XML)).definitions));
    },
  );
});

describe("the validator, sync and async", () => {
  const workflowCases = CASES.filter(([, e]) => e.scope === "workflow");
  const docs = registry();
  const resolvers = { resolveTool: (ref: string) => docs.get(ref) };
  const codes = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.code} ${JSON.stringify(d.data)}`);

  it.each(workflowCases)(
    "%s: RULE_CRASHED naming the rule, the rest unchanged",
    async (_, edit) => {
      const base = createValidator({ resolvers, policies: [PACK] });
      const withPlugin = createValidator({ resolvers, policies: [PACK], plugins: plugin(edit) });
      const crashed = (ds: readonly Diagnostic[]) =>
        ds.filter((d) => d.code === RULE_CRASHED).map((d) => d.data.rule);
      const others = (ds: readonly Diagnostic[]) =>
        codes(ds.filter((d) => d.code !== RULE_CRASHED));
      for (const mode of ["sync", "async"] as const) {
        const workflow = registry().get("agnt-offer-sender@1.0.0") as Parameters<
          typeof base.validateSync
        >[0];
        const copy = structuredClone(workflow);
        const expected = base.validateSync(structuredClone(workflow));
        const found =
          mode === "sync" ? withPlugin.validateSync(workflow) : await withPlugin.validate(workflow);
        expect(crashed(found)).toEqual(["edits/EDIT"]);
        expect(others(found)).toEqual(others(expected));
        expect(workflow).toEqual(copy);
        expect(Object.isFrozen(workflow)).toBe(false);
      }
    },
  );

  it("an async check that edits after its await is refused too: the edit never lands", async () => {
    const workflow = registry().get("agnt-offer-sender@1.0.0") as Parameters<
      ReturnType<typeof createValidator>["validate"]
    >[0];
    const copy = structuredClone(workflow);
    let refused = "";
    const late = plugin({
      scope: "workflow",
      edit: async (c) => {
        await Promise.resolve();
        try {
          Reflect.set(c.workflow, "nodes", []);
        } catch (error) {
          refused = (error as Error).message;
        }
      },
    });
    await createValidator({ resolvers, plugins: late }).validate(workflow);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(workflow).toEqual(copy);
    expect(refused).toBe(
      "context.workflow is read-only: a rule is given the shared context to read, never to change (it tried to set 'nodes')",
    );
  });
});
