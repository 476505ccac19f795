/**
 * A repository with the organisation's policy, for the CLI tests: the loan-origination process
 * and its registry, a plugin (`acme`, written with `defineRule` from the built `agentflow/rules`),
 * a policy pack (`bank`), and plugins that go wrong in each way a plugin can.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readPolicyPack } from "../../src/policy/index.js";
import { tempDir } from "../temp.js";

/** The built rule kit, as a plugin outside this repository imports `agentflow/rules`. */
const KIT = pathToFileURL(resolve("dist/rules/index.js")).href;

/** A process rule capping the level of agent tasks, and a workflow rule on models. */
export const ACME = `import { defineRule } from ${JSON.stringify(KIT)};

const levelCap = defineRule({
  meta: {
    code: "LEVEL_CAP",
    scope: "process",
    defaultSeverity: "error",
    description: "An agent task runs above the level the organisation allows",
    docs: "https://policy.example.com/acme/LEVEL_CAP",
    messages: { default: 'agent task "{{name}}" runs at level {{level}}, above {{max}}' },
    schema: { type: "object", properties: { max: { type: "integer" } }, additionalProperties: false },
  },
  check(context) {
    const max = context.options.max ?? 2;
    for (const task of context.view?.agentTasks ?? []) {
      if (task.level !== null && task.level > max) {
        context.report({
          elementId: task.place.elementId,
          path: task.place.path,
          data: { name: task.element.name, level: task.level, max },
        });
      }
    }
  },
});

const modelAllowed = defineRule({
  meta: {
    code: "MODEL_ALLOWED",
    defaultSeverity: "warning",
    description: "An llm node uses a model outside the allow-list",
    docs: "docs/MODEL_ALLOWED.md",
    messages: { default: 'node "{{nodeId}}" uses {{model}}, which is not allowed' },
  },
  check(context) {
    context.workflow.nodes.forEach((node, i) => {
      if (node.type === "llm" && node.config.model !== "gpt-4o") {
        context.report({
          target: { kind: "node", nodeId: node.id },
          path: "/nodes/" + i + "/config/model",
          data: { nodeId: node.id, model: node.config.model },
        });
      }
    });
  },
});

export default {
  meta: { name: "acme-policy", version: "1.0.0" },
  rules: { LEVEL_CAP: levelCap, MODEL_ALLOWED: modelAllowed },
  configs: {
    recommended: { rules: { LEVEL_CAP: "error", MODEL_ALLOWED: "warn" } },
    lenient: { rules: { LEVEL_CAP: "off" } },
  },
};
`;

/** A process rule that throws: the rule could not run, so the verdict must not pass. */
const THROWS = `export default {
  meta: { name: "boom", version: "0.0.1" },
  rules: {
    EXPLODES: {
      meta: { code: "EXPLODES", scope: "process", defaultSeverity: "warning", description: "Throws", docs: "https://example.com/x", messages: { default: "never" } },
      check() { throw new Error("lookup table missing"); },
    },
  },
};
`;

/** A rule that reports a message its meta does not define. */
const MISREPORTS = `export default {
  meta: { name: "typo", version: "0.0.1" },
  rules: {
    MISNAMED: {
      meta: { code: "MISNAMED", scope: "process", defaultSeverity: "warning", description: "Misreports", docs: "https://example.com/x", messages: { default: "fine", tooHigh: "too high" } },
      check(context) { context.report({ elementId: "", path: "", data: {}, messageId: "toohigh" }); },
    },
  },
};
`;

/** A rule whose meta is wrong: no such severity. */
const BAD_META = `export const meta = { name: "bad", version: "1.0.0" };
export const rules = {
  FATAL: { meta: { code: "FATAL", defaultSeverity: "fatal", description: "x", docs: "x", messages: { default: "x" } }, check() {} },
};
`;

/** A rule that cannot run without options: its schema requires them. */
const NEEDS_OPTIONS = `export default {
  meta: { name: "models", version: "1.0.0" },
  rules: {
    ALLOWED: {
      meta: { code: "ALLOWED", scope: "process", defaultSeverity: "error", description: "Allowed models", docs: "https://example.com/x", messages: { default: "x" }, schema: { type: "object", required: ["models"] } },
      check() {},
    },
  },
};
`;

/** The bank's pack: agent tasks that can commit the bank must not run above level 2. */
export const BANK = `kind: PolicyPack
name: bank
version: 1.2.0
rules:
  - id: no-commitments-above-2
    severity: error
    for: agentTask
    when: level >= 3 and some t in tools satisfies t.effect = "external-commitment"
    message: "{{element.name}} runs at level {{level}} and can commit the bank"
`;

/** What a test repository holds, and the hashes its outputs name. */
export interface PolicyRepo {
  readonly dir: string;
  /** The digest of policy/acme.js's module graph (itself alone: agentflow's kit is left out). */
  readonly acmeHash: string;
  /** `sha256:` of the bank pack's canonical JSON. */
  readonly bankHash: string;
  /** A folder outside the repository, holding a plugin. */
  readonly outside: string;
}

/**
 * The digest of a plugin graph holding the acme plugin alone at `path` (relative to the root):
 * sha256 over `<path>\0<sha256 of its bytes>\n`, as docs/policies.md says.
 */
export function acmeGraphHash(path: string): string {
  const line = `${path}\0${createHash("sha256").update(ACME).digest("hex")}\n`;
  return `sha256:${createHash("sha256").update(line).digest("hex")}`;
}

/** `sha256:` and the first twelve hex digits, as the text reports show hashes. */
export function short(hash: string): string {
  return hash.slice(0, "sha256:".length + 12);
}

/** Writes the repository: one per test file, the configs of each case beside each other. */
export function policyRepo(): PolicyRepo {
  const dir = tempDir("agentflow-policy-");
  // A module package, so that Node reads the plugins as ES modules without a warning.
  writeFileSync(
    join(dir, "package.json"),
    '{ "name": "bank-repo", "private": true, "type": "module" }\n',
  );
  cpSync("examples/registry", join(dir, "registry"), { recursive: true });
  mkdirSync(join(dir, "processes"));
  cpSync("examples/processes/loan-origination.bpmn", join(dir, "processes/loan.bpmn"));
  mkdirSync(join(dir, "agents"));
  const research = JSON.parse(
    readFileSync("examples/workflows/market-research.agent.json", "utf8"),
  ) as { nodes: { type: string; config: { model?: string } }[] };
  for (const node of research.nodes) if (node.type === "llm") node.config.model = "mistral-large";
  writeFileSync(join(dir, "agents/research.agent.json"), JSON.stringify(research, null, 2));
  mkdirSync(join(dir, "policy"));
  const files: Record<string, string> = {
    "acme.js": ACME,
    "throws.js": THROWS,
    "misreports.js": MISREPORTS,
    "bad-meta.js": BAD_META,
    "needs-options.js": NEEDS_OPTIONS,
    "bank.policy.yaml": BANK,
    "syntax.policy.yaml": "kind: PolicyPack\nname: [bank\n",
    "unknown-fact.policy.yaml": BANK.replace("level >= 3", "levl >= 3"),
    "unknown-subject.policy.yaml": BANK.replace("for: agentTask", "for: agent"),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "policy", name), text);
  const outside = tempDir("agentflow-outside-");
  writeFileSync(join(outside, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(outside, "evil.js"), ACME);
  writeFileSync(join(outside, "evil.policy.yaml"), BANK);
  // Links inside the repository to files that are not: resolved, they are refused as well.
  symlinkSync(join(outside, "evil.js"), join(dir, "policy/linked.js"));
  symlinkSync(join(outside, "evil.policy.yaml"), join(dir, "policy/linked.policy.yaml"));
  const pack = readPolicyPack(BANK, "policy/bank.policy.yaml");
  if (!("pack" in pack)) throw new Error("the bank pack does not compile");
  return {
    dir,
    acmeHash: acmeGraphHash("policy/acme.js"),
    bankHash: pack.pack.sha256,
    outside,
  };
}

/** Writes `name` (a config) into the repository and returns its name. */
export function configFile(repo: PolicyRepo, name: string, config: unknown): string {
  writeFileSync(join(repo.dir, name), JSON.stringify(config, null, 2));
  return name;
}

/** Runs `fn` with the repository as the working directory. */
export async function inRepo<T>(repo: PolicyRepo, fn: () => Promise<T>): Promise<T> {
  const home = process.cwd();
  process.chdir(repo.dir);
  try {
    return await fn();
  } finally {
    process.chdir(home);
  }
}
