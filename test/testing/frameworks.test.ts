/**
 * The tester and test frameworks: which `describe`/`it`/`itOnly` it registers with (set, global
 * or none), the built `agentflow/testing` under node:test (a framework that defines no globals,
 * so its `describe`/`it` are handed to the tester), and the example its reference shows, run as
 * written (its type-check is in examples/typecheck.test.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RuleTests } from "../../src/testing/index.js";
import { RuleTester } from "../../src/testing/index.js";
import { llm, workflow } from "../validate/builders.js";
import { failedCases, modelRule } from "./rules.js";
import { classExamples, RULE_TESTER_FILE } from "../examples/api.js";
import { resetGenerated, ROOT, runExample, writeExample } from "../run-example.js";
import { tempDir } from "../temp.js";

const built = (module: string) => {
  const path = join(ROOT, "dist", module, "index.js");
  if (!existsSync(path))
    throw new Error(`dist/ is missing: run \`npm run build\` before this test`);
  return pathToFileURL(path).href;
};

/**
 * Back to unset, where the globals (set for each file by setup.ts) serve; never to the functions
 * read before, which belong to this file while the tester outlives it in a shared worker.
 */
const unsetFramework = () => {
  RuleTester.describe = RuleTester.it = RuleTester.itOnly = undefined;
};

const options = { models: ["gpt-4o"] };
const using = (...models: string[]) =>
  workflow(
    models.map((m, i) => llm(`n${String(i)}`, { model: m })),
    [],
  );
const holds: RuleTests = {
  valid: [{ name: "an allowed model", workflow: using("gpt-4o"), options }],
  invalid: [],
};

describe("RuleTester, its framework", () => {
  it("uses itOnly for a case marked only, and runs only those without a framework", async () => {
    const calls: string[] = [];
    try {
      RuleTester.describe = (_name, body) => {
        body();
      };
      RuleTester.it = (name) => calls.push(`it ${name}`);
      RuleTester.itOnly = (name) => calls.push(`only ${name}`);
      await new RuleTester().run("MODEL_ALLOWED", modelRule, {
        valid: [
          { name: "a", workflow: using("gpt-4o"), options },
          { name: "b", workflow: using("o1"), options, only: true },
        ],
        invalid: [],
      });
    } finally {
      unsetFramework();
    }
    expect(calls).toEqual(["it valid: a", "only valid: b"]);
    // without a framework, only "b" runs (and fails: o1 is not allowed)
    const only = await failedCases(modelRule, {
      valid: [
        { name: "a", workflow: using("o2"), options },
        { name: "b", workflow: using("o1"), options, only: true },
      ],
      invalid: [],
    });
    expect(only.map((m) => m.split(":")[1])).toEqual([" b"]);
  });

  it("refuses describe without it, and a table that is no table", () => {
    try {
      RuleTester.it = null;
      expect(() => new RuleTester().run("x", modelRule, holds)).toThrow(
        "RuleTester: set both RuleTester.describe and RuleTester.it, or neither",
      );
    } finally {
      unsetFramework();
    }
    const unscoped = { ...modelRule, meta: { ...modelRule.meta, scope: "proces" } } as never;
    expect(() => new RuleTester().run("x", unscoped, holds)).toThrow(
      `RuleTester.run("x"): defineRule: MODEL_ALLOWED meta.scope must be 'workflow' or 'process', not "proces"`,
    );
    const bad = { valid: [] } as unknown as RuleTests;
    expect(() => new RuleTester().run("x", modelRule, bad)).toThrow(
      'RuleTester.run("x"): tests.invalid must be an array of cases',
    );
  });

  it("uses the globals when nothing is set, and none when set to null", () => {
    const global = globalThis as { describe?: unknown };
    // Files share a worker: another may have set the global (bpmnlint's tester needs it).
    const before = global.describe;
    delete global.describe;
    const own = (_name: string, body: () => void) => {
      body();
    };
    try {
      RuleTester.describe = undefined;
      expect(RuleTester.describe).toBeUndefined();
      global.describe = own;
      expect(RuleTester.describe).toBe(own);
      RuleTester.describe = null;
      expect(RuleTester.describe).toBeUndefined();
    } finally {
      if (before === undefined) delete global.describe;
      else global.describe = before;
      unsetFramework();
    }
  });
});

/** A node:test file testing a level cap rule; `expected` is the level the invalid case expects. */
function nodeTestFile(expected: number): string {
  return `import { describe, it } from "node:test";
import { defineRule } from "${built("rules")}";
import { RuleTester } from "${built("testing")}";

RuleTester.describe = describe;
RuleTester.it = it;

const rule = defineRule({
  meta: {
    code: "LEVEL_DECLARED",
    defaultSeverity: "error",
    description: "A workflow above level 3",
    docs: "https://example.com/LEVEL_DECLARED",
    messages: { default: "level {{level}} is above 3" },
  },
  check({ workflow, report }) {
    if (workflow.autonomyLevel > 3) {
      report({ target: { kind: "workflow" }, path: "/autonomyLevel", data: { level: workflow.autonomyLevel } });
    }
  },
});
const at = (level) => \`kind: AgentWorkflow
id: agnt-x
version: 1.0.0
name: X
autonomyLevel: \${level}
inputSchema: { q: text }
outputSchema: { a: text }
nodes: [{ id: n, type: llm, config: { model: m, promptRef: prm:p@1.0.0, structuredOutput: true } }]
edges: []
\`;

await new RuleTester().run("LEVEL_DECLARED", rule, {
  valid: [{ name: "level 2", workflow: at(2) }],
  invalid: [{ name: "level 4", workflow: at(4), errors: [{ path: "/autonomyLevel", data: { level: ${String(expected)} } }] }],
});
`;
}

function nodeTest(expected: number) {
  const dir = tempDir("agentflow-node-test-");
  const file = join(dir, "level.test.mjs");
  writeFileSync(file, nodeTestFile(expected));
  return spawnSync(process.execPath, ["--test", file], { encoding: "utf8", cwd: dir });
}

describe("RuleTester under node:test", () => {
  it("passes a table that holds: exit 0, one test per case", () => {
    const run = nodeTest(4);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("ok 1 - valid: level 2");
    expect(run.stdout).toContain("ok 2 - invalid: level 4");
    expect(run.stdout).toContain("# pass 2");
  });

  it("fails a table that does not hold: a non-zero exit naming the case", () => {
    const run = nodeTest(5);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("not ok 2 - invalid: level 4");
    expect(run.stdout).toContain("# fail 1");
  });
});

describe("RuleTester's reference example", () => {
  // The example shows the tester on its own (no framework): it runs inside this test.
  beforeEach(() => {
    RuleTester.describe = null;
    RuleTester.it = null;
  });
  afterEach(unsetFramework);
  resetGenerated("testing");
  const examples = classExamples(RULE_TESTER_FILE, "RuleTester");

  it("has one", () => {
    expect(examples).toHaveLength(1);
  });

  const files = examples.map((code, i) =>
    writeExample(`testing/RuleTester.${String(i + 1)}`, code),
  );

  it.each(files.map((file, i) => [i + 1, file] as const))("example %i runs", async (_i, file) => {
    await runExample(file);
  });

  // It type-checks with the repository's compiler options in examples/typecheck.test.ts, in the
  // one program that checks every example: a program of its own loaded the library's types again.
});
