/**
 * agentflow's Camunda Desktop Modeler plug-in, loaded the way the Modeler loads client plug-ins
 * (`browser/modeler-host.ts` does what the Modeler's window does): its manifest is `require`d
 * as the Modeler's main process does, its script runs under the Modeler's Content-Security-Policy
 * in headless Chromium, and what it registered in `window.plugins` builds a bpmn-js modeller and
 * the Modeler's own linter (`@camunda/linting`). The example loan process, saved as a Camunda 8
 * diagram of a project on disk, is linted as the Problems panel shows it; its agentflow findings
 * are those `checkProcess` gives in Node.js (worded with the elements' names, as the plug-in
 * shows them: test/bpmn/named-check.ts), and the project's `agentflow.config.json` decides
 * the categories, the packs and what is said when it cannot be read.
 *
 * The plug-in folder is built from the sources into a temporary folder, as `npm run build`
 * builds `camunda-modeler/`.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { extname, join, posix, relative, resolve } from "node:path";
import { build } from "esbuild";
import { BROWSER_PAGE } from "../../scripts/browser-page.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { AGENTFLOW_RULE_NAMES, ruleCode } from "../../src/bpmn/lint/index.js";
import { readPolicyPack } from "../../src/policy/index.js";
import { buildModelerPlugin } from "../../scripts/camunda-modeler-plugin.js";
import { CHROMIUM, HAS_CHROMIUM, ROOT } from "../e2e/chromium.js";
import { launchChromium } from "../e2e/watched-page.js";
import { namedCheck } from "../bpmn/named-check.js";
import { tempDir } from "../temp.js";
import type { HostReport, HostTab } from "./browser/modeler-host.js";

const SKIP = HAS_CHROMIUM
  ? ""
  : ` (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;
const RUN = HAS_CHROMIUM;

/** The Modeler's page header (client/public/index.html): no generated code may run. */
const CSP = "script-src 'self'";
const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
};

/** The example loan process as the Modeler saves a Camunda 8 diagram. */
const LOAN = readFileSync(join(ROOT, "examples/processes/loan-origination.bpmn"), "utf8").replace(
  'id="Definitions_LoanOrigination"',
  'xmlns:modeler="http://camunda.org/schema/modeler/1.0" modeler:executionPlatform="Camunda Cloud" modeler:executionPlatformVersion="8.8.0" id="Definitions_LoanOrigination"',
);
const PACK_TEXT = readFileSync(join(ROOT, "examples/policies/bank.policy.yaml"), "utf8");

interface HostWindow {
  readonly modelerHost: {
    start(scripts: readonly { name: string; script: string }[]): Promise<string[]>;
    open(tab: HostTab): Promise<void>;
    lint(id: string, what: "definitions" | "saved"): Promise<HostReport[]>;
    emit(event: string, id: string): void;
    problems(id: string): HostReport[] | undefined;
    idle(): Promise<void>;
    actions(): { action: string; tab?: string }[];
    select(id: string, element: string): void;
    panel(): Record<string, string[]>;
    tickGate(id: string): Promise<string>;
  };
}

/** The lint rule a finding's code belongs to, as the Modeler names it. */
function ruleOf(code: string): string {
  const name = AGENTFLOW_RULE_NAMES.find((n) => ruleCode(n) === code);
  return name === undefined ? "agentflow/policy" : `agentflow/${name}`;
}

const CATEGORY = { error: "error", warning: "warn", info: "info" } as const;

/** What the Problems panel shows of `checkProcess`'s findings, with agentflow's rules. */
function expected(findings: readonly Diagnostic[], off: readonly string[] = []): HostReport[] {
  return findings
    .filter((d) => !off.includes(d.code))
    .map((d) => {
      const rule = ruleOf(d.code);
      return {
        id: d.target.kind === "bpmn-element" ? d.target.elementId : "",
        rule,
        message: rule === "agentflow/policy" ? `${d.code}: ${d.message}` : d.message,
        category: rule === "agentflow/policy" ? "error" : CATEGORY[d.severity],
      };
    });
}

const sorted = (reports: readonly HostReport[]) =>
  [...reports].sort((a, b) =>
    `${a.rule} ${a.id} ${a.message}`.localeCompare(`${b.rule} ${b.id} ${b.message}`),
  );
const agentflow = (reports: readonly HostReport[]) =>
  sorted(reports.filter((r) => r.rule.startsWith("agentflow/")));

let server: Server | undefined;
let context: BrowserContext | undefined;
let page: Page;
let disk: string;
const errors: string[] = [];

/** A project on disk: a `.git` folder (its root), files by path; returns the diagram's path. */
function project(name: string, files: Readonly<Record<string, string>>): string {
  const dir = join(disk, name);
  mkdirSync(join(dir, ".git"), { recursive: true });
  for (const [path, text] of Object.entries({ "processes/loan.bpmn": LOAN, ...files })) {
    mkdirSync(resolve(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, "processes/loan.bpmn");
}

/**
 * Opens a diagram in a new tab, and waits for the plug-in to have read its project and asked the
 * app to lint the tab again (it does after its first read of a file): the lint the Problems panel
 * then shows.
 */
async function open(
  id: string,
  path: string,
  type: HostTab["type"] = "cloud-bpmn",
): Promise<HostReport[]> {
  const tab: HostTab = {
    id,
    type,
    file: { path, contents: readFileSync(path, "utf8"), name: "loan.bpmn" },
  };
  await page.evaluate((t) => (window as unknown as HostWindow).modelerHost.open(t), tab);
  await page.waitForFunction(
    (t) =>
      (window as unknown as HostWindow).modelerHost
        .actions()
        .some((a) => a.action === "lint-tab" && a.tab === t),
    id,
  );
  await page.evaluate(() => (window as unknown as HostWindow).modelerHost.idle());
  return page.evaluate((t) => (window as unknown as HostWindow).modelerHost.problems(t) ?? [], id);
}

async function lint(id: string, what: "definitions" | "saved" = "definitions") {
  return page.evaluate(([t, w]) => (window as unknown as HostWindow).modelerHost.lint(t, w), [
    id,
    what,
  ] as const);
}

describe("the Camunda Modeler plug-in, loaded as the Modeler loads it, in Chromium", () => {
  beforeAll(async () => {
    if (!RUN) return;
    disk = tempDir("agentflow-modeler-disk-");
    // The Modeler's plug-ins folder, holding agentflow's as a user installs it.
    const plugins = tempDir("agentflow-modeler-plugins-");
    const plugin = join(plugins, "agentflow");
    await buildModelerPlugin(plugin);
    const out = tempDir("agentflow-modeler-host-");
    await build({
      ...BROWSER_PAGE,
      entryPoints: [new URL("browser/modeler-host.ts", import.meta.url).pathname],
      outdir: out,
      format: "iife",
    });
    // The Modeler's main process requires each plug-in's manifest (app/lib/plugins.js).
    const manifest = createRequire(import.meta.url)(join(plugin, "index.js")) as {
      name: string;
      script: string;
    };
    const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><link rel="icon" href="data:,"><link rel="stylesheet" href="/host/modeler-host.css"></head><body><div id="canvas" style="width:1000px;height:600px"></div><div id="properties" style="width:400px"></div><script src="/host/modeler-host.js"></script></body></html>`;
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://modeler");
      const send = (status: number, type: string, body: string | Buffer) =>
        response.writeHead(status, { "content-type": type }).end(body);
      if (url.pathname === "/") return send(200, "text/html", html);
      if (url.pathname === "/fs") {
        // The Modeler's `file:read`: a file's text, or Node.js's error code and message.
        const path = resolve(url.searchParams.get("path") ?? "");
        const inside = !relative(disk, path).startsWith("..");
        const fail = (code: string) =>
          send(200, TYPES[".json"] ?? "", JSON.stringify({ code, message: `${code}: ${path}` }));
        if (!inside || !existsSync(path)) return fail("ENOENT");
        if (statSync(path).isDirectory()) return fail("EISDIR");
        return send(
          200,
          TYPES[".json"] ?? "",
          JSON.stringify({ contents: readFileSync(path, "utf8") }),
        );
      }
      // The host page's files, and each plug-in's under its folder (the Modeler's app-plugins://).
      const [, base, ...rest] = url.pathname.split("/");
      const dir = base === "host" ? out : base === "plugins" ? plugins : undefined;
      const file = dir === undefined ? undefined : join(dir, ...rest);
      if (file === undefined || !existsSync(file)) return send(404, "text/plain", "not found");
      return send(200, TYPES[extname(file)] ?? "text/plain", readFileSync(file));
    });
    await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    context = await launchChromium({ width: 1400, height: 800 });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: "load" });
    const script = posix.join("/plugins", manifest.name, manifest.script);
    const types = await page.evaluate(
      (scripts) => (window as unknown as HostWindow).modelerHost.start(scripts),
      [{ name: manifest.name, script }],
    );
    expect(types).toEqual([
      "bpmn.modeler.moddleExtension",
      "bpmn.modeler.additionalModules",
      "client",
      "lintRules.bpmn",
      "lintRules.cloud-bpmn",
    ]);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((done) => server?.close(done));
  });

  it.skipIf(!RUN)(`lints a diagram without a config as checkProcess judges it${SKIP}`, async () => {
    const shown = await open("plain", project("plain", {}));
    const reports = await lint("plain");
    expect(reports).toEqual(shown);
    const check = await namedCheck(LOAN);
    const want = sorted(expected([...check.blocking, ...check.warnings]));
    expect(want.map((r) => `${r.rule}@${r.id}`)).toContain(
      "agentflow/agent-gate-unreachable@DraftAndSendOffer",
    );
    // The Problems panel names the task as it is drawn; the report stays on its id.
    expect(want.find((r) => r.rule === "agentflow/agent-gate-unreachable")).toEqual({
      id: "DraftAndSendOffer",
      rule: "agentflow/agent-gate-unreachable",
      message:
        'agent task "Draft and send offer" (agnt-offer-sender@1.0.0) could not be reviewed, since its workflow could not be read, so it needs an approval gate downstream as the most demanding case, but no gate is reachable from it',
      category: "error",
    });
    expect(agentflow(reports)).toEqual(want);
    // After a save the app lints the file's XML, parsed without the plug-in's extension.
    expect(agentflow(await lint("plain", "saved"))).toEqual(want);
    expect(errors).toEqual([]);
  });

  it.skipIf(!RUN)(`lints a Camunda 7 diagram in its own kind of tab${SKIP}`, async () => {
    const platform = LOAN.replace('"Camunda Cloud"', '"Camunda Platform"').replace(
      '"8.8.0"',
      '"7.23.0"',
    );
    const path = project("platform", { "processes/loan.bpmn": platform });
    const reports = await open("platform", path, "bpmn");
    const check = await namedCheck(platform);
    expect(agentflow(reports)).toEqual(sorted(expected([...check.blocking, ...check.warnings])));
    expect(reports.length).toBeGreaterThan(0);
  });

  it.skipIf(!RUN)(`shows the Agent governance group and saves btv:gate${SKIP}`, async () => {
    await open("panel", project("panel", {}));
    await page.evaluate(() => {
      (window as unknown as HostWindow).modelerHost.select("panel", "DraftAndSendOffer");
    });
    await page.locator('[data-group-id="group-agentflow-governance"]').waitFor();
    const groups = await page.evaluate(() => (window as unknown as HostWindow).modelerHost.panel());
    expect(groups["group-agentflow-governance"]).toEqual([
      "agentflow-workflowRef",
      "agentflow-autonomyLevel",
      "agentflow-gate",
      "agentflow-toolEffect",
    ]);
    const xml = await page.evaluate(() =>
      (window as unknown as HostWindow).modelerHost.tickGate("panel"),
    );
    expect(xml).toMatch(
      /<bpmn:serviceTask id="DraftAndSendOffer"((?!<\/bpmn:serviceTask>)[^])*<btv:gate \/>/,
    );
    const check = await namedCheck(xml);
    expect(agentflow(await lint("panel"))).toEqual(
      sorted(expected([...check.blocking, ...check.warnings])),
    );
    expect(errors).toEqual([]);
  });

  it.skipIf(!RUN)(`applies the project's agentflow.config.json and its pack${SKIP}`, async () => {
    const config = { rules: { AGENT_UNRESOLVED: "off" }, policies: ["policy/bank.policy.yaml"] };
    const path = project("configured", {
      "agentflow.config.json": JSON.stringify(config),
      "policy/bank.policy.yaml": PACK_TEXT,
    });
    const reports = await open("configured", path);
    expect(await lint("configured")).toEqual(reports);
    const pack = readPolicyPack(PACK_TEXT, "bank.policy.yaml");
    if ("problems" in pack) throw new Error("the example pack does not compile");
    const check = await namedCheck(LOAN, { policies: [pack.pack] });
    const want = expected([...check.blocking, ...check.warnings], ["AGENT_UNRESOLVED"]);
    expect(want.map((r) => r.rule)).toContain("agentflow/policy");
    expect(agentflow(reports)).toEqual(sorted(want));
    expect(errors).toEqual([]);
  });

  it.skipIf(!RUN)(`says a config it cannot read, and lints with the defaults${SKIP}`, async () => {
    const path = project("broken", { "agentflow.config.json": '{ "gates": [ }' });
    const reports = await open("broken", path);
    const check = await namedCheck(LOAN);
    const file = join(disk, "broken", "agentflow.config.json");
    const said = reports.filter((r) => r.rule === "agentflow/project-config");
    expect(said.map((r) => [r.id, r.category])).toEqual([["Definitions_LoanOrigination", "error"]]);
    // Where JSON.parse stopped, when the browser's message says; else the end of the text.
    expect(said[0]?.message.startsWith(`${file}:1:`)).toBe(true);
    expect(said[0]?.message).toMatch(/^[^ ]+:1:\d+: not JSON: /);
    expect(agentflow(reports.filter((r) => r.rule !== "agentflow/project-config"))).toEqual(
      sorted(expected([...check.blocking, ...check.warnings])),
    );
  });

  it.skipIf(!RUN)(`reads a config edited while the Modeler was away${SKIP}`, async () => {
    const path = project("edited", {});
    expect((await open("edited", path)).map((r) => r.rule)).toContain("agentflow/agent-unresolved");
    writeFileSync(
      join(disk, "edited", "agentflow.config.json"),
      JSON.stringify({ rules: { AGENT_UNRESOLVED: "off" } }),
    );
    const before = (
      await page.evaluate(() => (window as unknown as HostWindow).modelerHost.actions())
    ).length;
    await page.evaluate(() => {
      (window as unknown as HostWindow).modelerHost.emit("app.focused", "edited");
    });
    // The plug-in asks the app to lint the tab again, with the new settings.
    await page.waitForFunction(
      (n) => (window as unknown as HostWindow).modelerHost.actions().length > n,
      before,
    );
    const actions = await page.evaluate(() =>
      (window as unknown as HostWindow).modelerHost.actions(),
    );
    expect(actions.slice(before)).toEqual([{ action: "lint-tab", tab: "edited" }]);
    await page.evaluate(() => (window as unknown as HostWindow).modelerHost.idle());
    const problems = await page.evaluate(() =>
      (window as unknown as HostWindow).modelerHost.problems("edited"),
    );
    const check = await namedCheck(LOAN);
    expect(agentflow(problems ?? [])).toEqual(
      sorted(expected([...check.blocking, ...check.warnings], ["AGENT_UNRESOLVED"])),
    );
  });
});
