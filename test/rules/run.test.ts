/**
 * The one loop that runs rules: a check must be synchronous. A check that returns a promise (an
 * `async check`) would report after the verdict is given, and a rejection would escape as an
 * unhandled one; it is a crashed rule instead, its late reports dropped, on every surface.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BpmnRuleContext } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import type { Diagnostic } from "../../src/model/index.js";
import { createValidator } from "../../src/validate/index.js";
import type { RuleContext } from "../../src/validate/index.js";
import { defineRule, RULE_CRASHED } from "../../src/rules/index.js";
import type { ReportBase } from "../../src/rules/index.js";
import { runRules } from "../../src/rules/internal.js";
import { getTemplate } from "../../src/model/index.js";

const ASYNC =
  "its check returned a promise: a rule's check must be synchronous, and what it finds after an await is never judged";

interface Context {
  readonly report: (r: ReportBase) => void;
}

/** An `async check` as a plugin's compiles: TypeScript lets it stand where `void` is typed. */
function asSync<C>(check: (context: C) => unknown): (context: C) => void {
  return check;
}

/** Runs one rule with a bare context: each report is its message, a crash its detail. */
function run(check: (context: Context) => unknown): string[] {
  const rule = defineRule<Context>({
    meta: {
      code: "LATE",
      defaultSeverity: "error",
      description: "reports late",
      docs: "test",
      messages: { default: "found {{what}}" },
    },
    check: asSync(check),
  });
  const found: Diagnostic[] = runRules<Context, ReportBase>(
    [{ rule, severity: "error", options: {} }],
    {
      context: (report) => ({ report }),
      diagnostic: (meta, severity, _r, message) => ({
        code: meta.code,
        severity,
        message,
        target: { kind: "workflow" },
        path: "",
        data: {},
      }),
      crashed: (meta, detail) => ({
        code: RULE_CRASHED,
        severity: "error",
        message: detail,
        target: { kind: "workflow" },
        path: "",
        data: { rule: meta.code },
      }),
    },
  );
  return found.map((d) => `${d.code}: ${d.message}`);
}

/** Rejections that reach the process while a test runs. */
let escaped: unknown[] = [];
const onRejection = (reason: unknown): void => {
  escaped.push(reason);
};
beforeEach(() => {
  escaped = [];
  process.on("unhandledRejection", onRejection);
});
afterEach(() => {
  process.off("unhandledRejection", onRejection);
});
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

describe("a check that returns a promise", () => {
  it("is a crashed rule; what it reported before returning stays, what it reports later is dropped", async () => {
    const out = run(async ({ report }) => {
      report({ data: { what: "early" } });
      await Promise.resolve();
      report({ data: { what: "late" } });
    });
    await settle();
    expect(out).toEqual(["LATE: found early", `RULE_CRASHED: ${ASYNC}`]);
    expect(escaped).toEqual([]);
  });

  it("that rejects does not let the rejection escape", async () => {
    const out = run(async () => {
      await Promise.resolve();
      throw new Error("boom after await");
    });
    await settle();
    expect(out).toEqual([`RULE_CRASHED: ${ASYNC}`]);
    expect(escaped).toEqual([]);
  });

  it("as any thenable, even one whose then throws", async () => {
    const thenable = {
      then() {
        throw new Error("then throws");
      },
    };
    expect(run(() => thenable)).toEqual([`RULE_CRASHED: ${ASYNC}`]);
    await settle();
    expect(escaped).toEqual([]);
  });

  it("a synchronous check is run as before", () => {
    const check = ({ report }: Context): void => {
      report({ data: { what: "it" } });
    };
    expect(run(check)).toEqual(["LATE: found it"]);
  });
});

describe("an async plugin rule on every surface", () => {
  const meta = {
    defaultSeverity: "error" as const,
    description: "always fires",
    docs: "https://example.com/always",
    messages: { default: "always {{x}}" },
  };

  it("blocks a process gate that its findings never reached (ALLOWED before)", async () => {
    // The signer with its registry and a gate after it: allowed, but for the plugin's finding.
    const dir = "test/fixtures/fail-closed/";
    const xml = readFileSync(`${dir}contract-signing.bpmn`, "utf8")
      .replace(
        'targetRef="ContractSigned" />',
        'targetRef="Approve" />\n<bpmn:sequenceFlow id="F_Approve" sourceRef="Approve" targetRef="ContractSigned" />',
      )
      .replace(
        "<bpmn:endEvent",
        '<bpmn:userTask id="Approve"><bpmn:extensionElements><btv:gate approverRole="legal" /></bpmn:extensionElements></bpmn:userTask>\n<bpmn:endEvent',
      );
    const docs: Record<string, unknown> = Object.fromEntries(
      ["contract-signer.agent.json", "terms-checker.agent.json", "sign-contract.tool.json"].map(
        (name) => {
          const doc = JSON.parse(readFileSync(`${dir}registry/${name}`, "utf8")) as {
            id: string;
            version: string;
          };
          return [`${doc.id}@${doc.version}`, doc];
        },
      ),
    );
    const always = defineRule<BpmnRuleContext>({
      meta: { ...meta, code: "ALWAYS", scope: "process" },
      check: asSync<BpmnRuleContext>(async (context) => {
        await Promise.resolve();
        context.report({ elementId: "SignContract", path: "/", data: { x: "async" } });
      }),
    });
    const decision = await checkProcess(xml, {
      resolveWorkflow: (ref) => docs[ref],
      resolveTool: (ref) => docs[ref],
      plugins: { acme: { meta: { name: "acme", version: "1.0.0" }, rules: { ALWAYS: always } } },
    });
    await settle();
    expect(decision.allowed).toBe(false);
    expect(decision.blocking.map((d) => [d.code, d.data.rule, d.message])).toEqual([
      [
        RULE_CRASHED,
        "acme/ALWAYS",
        `rule acme/ALWAYS failed on this process (${ASYNC}); its check did not run`,
      ],
    ]);
    expect(escaped).toEqual([]);
  });

  it("is a crashed rule on a workflow", async () => {
    const late = defineRule<RuleContext>({
      meta: { ...meta, code: "LATE" },
      check: asSync<RuleContext>(async () => {
        await Promise.resolve();
        throw new Error("boom after await");
      }),
    });
    const validator = createValidator({
      plugins: { acme: { meta: { name: "acme", version: "1.0.0" }, rules: { LATE: late } } },
    });
    const research = getTemplate("research");
    if (research === undefined) throw new Error("no research template");
    const found = validator.validateSync(research);
    await settle();
    expect(found.filter((d) => d.code === RULE_CRASHED).map((d) => d.data)).toEqual([
      { rule: "acme/LATE", error: ASYNC },
    ]);
    expect(escaped).toEqual([]);
  });
});
