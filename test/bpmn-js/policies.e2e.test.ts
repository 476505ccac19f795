/**
 * Policy packs in a real browser (issue 40, item 7): headless Chromium opens a page bundled for
 * the browser (`browser/policy-page.ts`: bpmn-js, agentflow's module and bpmn-js-bpmnlint with
 * agentflow's plugin, the example registry bundled in) and the example loan process is judged
 * with a pack given as plain data. The module's badge on `DraftAndSendOffer` lists the pack's
 * finding with its code; its decision (allowed or blocked, and the codes) is the one
 * `checkProcess` gives in Node.js with the same pack; a waiver flips both to allowed and the
 * badge shows the finding marked waived; the lint plugin's `policy` rule reports what
 * `checkProcess` finds (worded with the elements' names), and a pack path in a browser is a
 * misconfiguration it says. The module fails closed on the same page: a waiver naming no rule is
 * refused as `agentflow gate` refuses it, what bpmn-moddle dropped at the import blocks as in
 * `agentflow gate`, and an evaluation that fails after an edit leaves no decision and no badge.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { BROWSER_PAGE } from "../../scripts/browser-page.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateDecision } from "../../src/bpmn/index.js";
import { checkProcess } from "../../src/bpmn/index.js";
import { namedCheck } from "../bpmn/named-check.js";
import { CHROMIUM, HAS_CHROMIUM } from "../e2e/chromium.js";
import { launchChromium } from "../e2e/watched-page.js";
import { tempDir } from "../temp.js";
import type { PageReport, ProbeResult } from "./browser/policy-page.js";
import { duplicateXml, gatedXml, loanXml, registry } from "./loan.js";

const SKIP = HAS_CHROMIUM
  ? ""
  : ` (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

const PACK = {
  kind: "PolicyPack",
  name: "bank",
  version: "1.0.0",
  rules: [
    {
      id: "four-eyes",
      severity: "error",
      for: "agentTask",
      when: 'some t in tools satisfies t.effect = "external-commitment"',
      require: { gates: { distinctRoles: 2 } },
    },
    { id: "level-cap", severity: "warning", for: "agentTask", when: "level >= 3" },
  ],
};

const waiver = (rule: string) => ({
  rule,
  process: "LoanOrigination",
  element: "DraftAndSendOffer",
  reason: "pilot until the second reviewer is staffed",
  grantedBy: "cro@bank.example",
  expires: "2027-03-31",
});

/** Every error on the offer task waived: the gate, and the pack's four-eyes rule. */
const WAIVED = {
  policies: [PACK],
  waivers: [
    waiver("AGENT_GATE_UNREACHABLE"),
    waiver("TOOL_EFFECT_NEEDS_GATE"),
    waiver("four-eyes"),
  ],
  today: "2027-01-15",
};

interface PolicyWindow {
  readonly policyPage: {
    open(agentflow: object, rules: object): Promise<GateDecision>;
    lint(): Promise<Record<string, PageReport[]>>;
    probe(xml: string, agentflow: object, hostGate: boolean): Promise<ProbeResult>;
    bypass(): Promise<ProbeResult>;
  };
}

const probe = (xml: string, agentflow: object, hostGate = false): Promise<ProbeResult> =>
  tab.evaluate(
    ([x, options, gate]) => (window as unknown as PolicyWindow).policyPage.probe(x, options, gate),
    [xml, agentflow, hostGate] as const,
  );

/** `code@element`, and `(waived)` when a waiver covers it, of each finding of a decision. */
function verdict(decision: Pick<GateDecision, "allowed" | "blocking" | "warnings">) {
  const line = (d: GateDecision["blocking"][number]) =>
    `${d.code}@${d.target.kind === "bpmn-element" ? d.target.elementId : ""}${d.waived === undefined ? "" : " (waived)"}`;
  return {
    allowed: decision.allowed,
    blocking: decision.blocking.map(line),
    warnings: decision.warnings.map(line),
  };
}

const badge = (id: string) => `.agentflow-badge[data-agentflow-element="${id}"]`;

let context: BrowserContext | undefined;
let tab: Page;

async function open(agentflow: object, rules: object = {}): Promise<GateDecision> {
  return tab.evaluate(
    ([options, lintRules]) =>
      (window as unknown as PolicyWindow).policyPage.open(options, lintRules),
    [agentflow, rules] as const,
  );
}

describe("policy packs in the bpmn-js module, in Chromium", () => {
  const errors: string[] = [];

  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    const out = tempDir("agentflow-policy-page-");
    await build({
      ...BROWSER_PAGE,
      entryPoints: [new URL("browser/policy-page.ts", import.meta.url).pathname],
      outdir: out,
      format: "iife",
    });
    writeFileSync(
      join(out, "index.html"),
      '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="policy-page.css"></head><body><div id="canvas" style="width:1400px;height:700px"></div><script src="policy-page.js"></script></body></html>',
    );
    context = await launchChromium({ width: 1400, height: 800 });
    tab = context.pages()[0] ?? (await context.newPage());
    tab.on("pageerror", (e) => errors.push(e.message));
    tab.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await tab.goto(pathToFileURL(join(out, "index.html")).href, { waitUntil: "load" });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it.skipIf(!HAS_CHROMIUM)(
    `badges the pack's finding and decides as checkProcess does${SKIP}`,
    async () => {
      const decision = await open({ policies: [PACK] });
      const expected = await checkProcess(loanXml, { ...registry, policies: [PACK] });
      expect(verdict(decision)).toEqual(verdict(expected));
      expect(verdict(decision).blocking).toContain("bank/four-eyes@DraftAndSendOffer");
      expect(decision.allowed).toBe(false);

      const offer = tab.locator(badge("DraftAndSendOffer"));
      await offer.waitFor();
      await offer.hover();
      const findings = offer.locator(".agentflow-finding");
      expect(
        await findings.locator("code").evaluateAll((els) => els.map((e) => e.textContent)),
      ).toEqual([
        "AGENT_GATE_UNREACHABLE",
        "TOOL_EFFECT_NEEDS_GATE",
        "bank/four-eyes",
        "bank/level-cap",
      ]);
      const fourEyes = findings.filter({ has: tab.locator("code", { hasText: "bank/four-eyes" }) });
      expect(await fourEyes.getAttribute("class")).toBe(
        "agentflow-finding agentflow-finding-error",
      );
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `waives what checkProcess waives, and shows the waiver${SKIP}`,
    async () => {
      const decision = await open(WAIVED);
      const expected = await checkProcess(loanXml, { ...registry, ...WAIVED });
      expect(verdict(decision)).toEqual(verdict(expected));
      expect(decision.allowed).toBe(true);
      expect(verdict(decision).warnings).toContain("bank/four-eyes@DraftAndSendOffer (waived)");

      const offer = tab.locator(badge("DraftAndSendOffer"));
      await offer.waitFor();
      await offer.hover();
      const waived = offer.locator(".agentflow-finding-waived");
      expect(
        await waived.locator("code").evaluateAll((els) => els.map((e) => e.textContent)),
      ).toEqual(["AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE", "bank/four-eyes"]);
      expect(await waived.last().locator(".agentflow-waiver").innerText()).toBe(
        " (waived by cro@bank.example until 2027-03-31: pilot until the second reviewer is staffed)",
      );
      expect(await waived.last().getAttribute("data-agentflow-waived")).toBe("2027-03-31");
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `lints with the pack as data, and says a pack path cannot be read${SKIP}`,
    async () => {
      await open(
        {},
        {
          "agentflow/policy": ["error", { policies: [PACK] }],
          "agentflow/agent-gate-bypass": ["error", { policies: ["policy/bank.policy.yaml"] }],
        },
      );
      const results = await tab.evaluate(() =>
        (window as unknown as PolicyWindow).policyPage.lint(),
      );
      const check = await namedCheck(loanXml, { ...registry, policies: [PACK] });
      const expected = [...check.blocking, ...check.warnings]
        .filter((d) => d.code.startsWith("bank/"))
        .map((d) => ({
          id: d.target.kind === "bpmn-element" ? d.target.elementId : "",
          message: `${d.code}: ${d.message}`,
          category: "error",
        }));
      expect(expected).toHaveLength(2);
      expect(results["agentflow/policy"]).toEqual(expected);
      // The task as it is drawn, by its name; the report stays on its id.
      expect(results["agentflow/policy"]).toContainEqual({
        id: "DraftAndSendOffer",
        message:
          'bank/level-cap: agent task "Draft and send offer" breaks policy rule level-cap of bank',
        category: "error",
      });
      expect(results["agentflow/agent-gate-bypass"]).toEqual([
        {
          id: "Definitions_LoanOrigination",
          message:
            "agentflow/agent-gate-bypass: policies[0] is the path 'policy/bank.policy.yaml', but this host cannot read files (a browser): give the pack as data; the rule did not run",
          category: "error",
        },
      ]);
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `refuses a waiver naming no rule as agentflow gate does, and draws nothing${SKIP}`,
    async () => {
      for (const rule of ["bank/nope", "*"]) {
        const result = await probe(loanXml, { policies: [PACK], waivers: [waiver(rule)] });
        expect(result).toEqual({
          events: [
            `error agentflow.waivers[0].rule: ${JSON.stringify(rule)} is no rule of these options (a built-in code, <plugin>/<CODE>, or a policy pack rule's id, bare or as <pack>/<id>)`,
          ],
          decision: null,
          badges: [],
        });
      }
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `blocks what bpmn-moddle dropped at the import, as checkProcess does${SKIP}`,
    async () => {
      const expected = await checkProcess(duplicateXml, registry);
      expect(verdict(expected).blocking).toEqual(["BPMN_PARSE@UnderwriterReview"]);
      const result = await probe(duplicateXml, {});
      expect(result.events).toEqual(["changed allowed=false"]);
      expect(result.decision).toEqual({ allowed: false, blocking: verdict(expected).blocking });
      // The same process read cleanly is allowed: the import's findings were what blocked.
      expect((await probe(gatedXml, {})).decision).toEqual({ allowed: true, blocking: [] });
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(!HAS_CHROMIUM)(
    `drops the decision and its badges when the evaluation after an edit fails${SKIP}`,
    async () => {
      const before = await probe(gatedXml, {}, true);
      expect(before).toEqual({
        events: ["changed allowed=true"],
        decision: { allowed: true, blocking: [] },
        badges: ["AssessCreditRisk:reached"],
      });
      // The host's predicate throws on the new unnamed gateway.
      const after = await tab.evaluate(() =>
        (window as unknown as PolicyWindow).policyPage.bypass(),
      );
      expect(after).toEqual({
        events: ["stale edited", "error bpmn:ExclusiveGateway has no name"],
        decision: null,
        badges: [],
      });
      expect(errors).toEqual([]);
    },
  );
});
