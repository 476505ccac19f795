/**
 * The modeller demo in a real browser (issue 23): headless Chromium opens the built demo (bpmn-js
 * with agentflow's module, the properties panel and live linting) from disk, and the scenario of
 * the issue runs against it: the overlays of both agent tasks, a bypass drawn through the
 * `modeling` service and undone, and an autonomy level chosen in the properties panel that the
 * XML export carries. Screenshots are left in `.artifacts/` for a person to see.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { buildModelerDemo } from "../../scripts/build-modeler-demo.js";
import { tempDir } from "../temp.js";
import { CHROMIUM, HAS_CHROMIUM, leaveScreenshot } from "./chromium.js";
import { openWatched } from "./watched-page.js";

const NAME = HAS_CHROMIUM
  ? "shows levels, gates and a bypass live in the demo modeller, undoably, and edits levels in the panel"
  : `shows levels, gates and bypasses in the demo modeller (skipped: no Chromium at ${CHROMIUM}; install it with \`apt-get install chromium\`, or set CHROMIUM_PATH)`;

/** The badge of an agent task, or the marker of a gate, by element id. */
const badge = (id: string): string => `.agentflow-badge[data-agentflow-element="${id}"]`;

/** The classes of an element's graphics on the canvas. */
async function classesOf(page: Page, id: string): Promise<string[]> {
  const value = await page.locator(`g.djs-element[data-element-id="${id}"]`).getAttribute("class");
  return (value ?? "").split(/\s+/);
}

/** The ids of the elements carrying the bypass marker, sorted. */
async function bypassed(page: Page): Promise<string[]> {
  const ids = await page
    .locator("g.agentflow-bypass")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-element-id") ?? ""));
  return [...new Set(ids)].sort();
}

/** The computed stroke of an element's outline: the first child of its visual, as bpmn-js draws it. */
async function outlineStroke(page: Page, id: string): Promise<string> {
  return page
    .locator(`g.djs-element[data-element-id="${id}"] > .djs-visual > :first-child`)
    .evaluate((e) => getComputedStyle(e).stroke);
}

/** A colour variable of the canvas (`--agentflow-gate`), as the browser computes it. */
async function canvasColour(page: Page, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement("div");
    probe.style.color = `var(${name})`;
    document.querySelector(".djs-container")?.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

/** The ids of the elements carrying a canvas marker, sorted. */
async function markedWith(page: Page, marker: string): Promise<string[]> {
  const ids = await page
    .locator(`g.djs-element.${marker}`)
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-element-id") ?? ""));
  return [...new Set(ids)].sort();
}

/** The `btv:agentTask` attributes of a task in the modeller's XML export. */
async function exportedAgentTask(page: Page, id: string): Promise<string> {
  const xml = await page.evaluate(async () => {
    const { xml } = await (window as unknown as DemoWindow).agentflowDemo.modeler.saveXML({
      format: true,
    });
    return xml ?? "";
  });
  const task = new RegExp(`<bpmn:serviceTask id="${id}"[\\s\\S]*?</bpmn:serviceTask>`).exec(xml);
  return /<btv:agentTask[^>]*>/.exec(task?.[0] ?? "")?.[0] ?? "";
}

/** The page's handle on its modeller (`examples/modeler/main.ts`), as the test calls it. */
interface DemoWindow {
  readonly agentflowDemo: {
    readonly modeler: {
      get(name: string): unknown;
      saveXML(options?: { format?: boolean }): Promise<{ xml?: string }>;
    };
    readonly imported: Promise<unknown>;
  };
}

describe("bpmn-js modeller demo in a browser", () => {
  it.skipIf(!HAS_CHROMIUM)(
    NAME,
    async () => {
      const out = tempDir("agentflow-modeler-");
      const page = pathToFileURL(await buildModelerDemo(out)).href;
      const { context, tab, errors, requests } = await openWatched(page, {
        width: 1400,
        height: 800,
      });
      try {
        await tab.evaluate(() => (window as unknown as DemoWindow).agentflowDemo.imported);

        // 1. The overlays of both agent tasks, and the gate markers.
        await tab.waitForSelector(badge("DraftAndSendOffer"));
        const risk = tab.locator(badge("AssessCreditRisk"));
        const offer = tab.locator(badge("DraftAndSendOffer"));
        expect(await risk.getAttribute("data-agentflow-level")).toBe("2");
        expect(await risk.getAttribute("data-agentflow-gate")).toBe("reached");
        expect(await risk.innerText()).toBe("L2 · gated");
        expect(await offer.getAttribute("data-agentflow-level")).toBe("3");
        expect(await offer.getAttribute("data-agentflow-gate")).toBe("missing");
        expect(await offer.locator(".agentflow-badge-text").innerText()).toBe("L3 · gate missing");
        expect(await risk.isVisible()).toBe(true);
        expect(await offer.isVisible()).toBe(true);
        const markers = tab.locator(".agentflow-gate-marker");
        expect(
          await markers.evaluateAll((els) =>
            els.map((e) => [e.dataset.agentflowElement, e.dataset.agentflowGateMarker]),
          ),
        ).toEqual([
          ["UnderwriterReview", "underwriter"],
          ["SeniorReview", "senior-credit-officer"],
        ]);
        expect(await tab.locator("#verdict").innerText()).toBe(
          "Promotion blocked · 2 blocking, 0 warnings",
        );
        // The service's decision is the one the badges show.
        expect(
          await tab.evaluate(() => {
            const agentflow = (window as unknown as DemoWindow).agentflowDemo.modeler.get(
              "agentflow",
            ) as {
              getDecision(): {
                allowed: boolean;
                agentTasks: { elementId: string; gate: string }[];
              };
            };
            const decision = agentflow.getDecision();
            return [decision.allowed, decision.agentTasks.map((t) => `${t.elementId}: ${t.gate}`)];
          }),
        ).toEqual([false, ["AssessCreditRisk: reached", "DraftAndSendOffer: missing"]]);
        // The lint plugin runs live too: its overlay sits on the ungated offer task.
        await tab.waitForSelector(
          '.djs-overlays[data-container-id="DraftAndSendOffer"] .bjsl-overlay',
        );

        // Hovering a badge lists that task's findings.
        const findings = offer.locator(".agentflow-findings");
        expect(await findings.isVisible()).toBe(false);
        await offer.hover();
        expect(await findings.isVisible()).toBe(true);
        expect(
          await findings.locator("code").evaluateAll((els) => els.map((e) => e.textContent)),
        ).toEqual(["AGENT_GATE_UNREACHABLE", "TOOL_EFFECT_NEEDS_GATE"]);
        await leaveScreenshot(tab, "modeler.png");
        await tab.mouse.move(5, 700);

        // 2. Risk band? straight to Draft and send offer: the credit-risk agent is bypassed.
        const flowId = await tab.evaluate(() => {
          const { modeler } = (window as unknown as DemoWindow).agentflowDemo;
          const registry = modeler.get("elementRegistry") as { get(id: string): unknown };
          const modeling = modeler.get("modeling") as {
            connect(source: unknown, target: unknown): { id: string };
          };
          return modeling.connect(registry.get("RiskBand"), registry.get("DraftAndSendOffer")).id;
        });
        await tab.waitForSelector(`${badge("AssessCreditRisk")}[data-agentflow-gate="bypass"]`);
        expect(await risk.innerText()).toBe("L2 · gate bypassed");
        expect(await classesOf(tab, flowId)).toContain("agentflow-bypass");
        expect(await classesOf(tab, "Flow_ToBand")).toContain("agentflow-bypass");
        expect(await classesOf(tab, "Flow_ToSent")).toContain("agentflow-bypass");
        expect(await classesOf(tab, "Flow_Standard")).not.toContain("agentflow-bypass");
        expect(await bypassed(tab)).toEqual([flowId, "Flow_ToBand", "Flow_ToSent"].sort());
        await risk.hover();
        expect(await risk.locator(".agentflow-findings").innerText()).toContain(
          "AGENT_GATE_BYPASS",
        );
        await leaveScreenshot(tab, "modeler-bypass.png");
        await tab.mouse.move(5, 700);

        // 3. A bypass flow renamed and evaluated, then both edits undone at once: the flow has its
        // old id back, the new one goes, and with it every bypass marker.
        await tab.evaluate(async () => {
          const { modeler } = (window as unknown as DemoWindow).agentflowDemo;
          const registry = modeler.get("elementRegistry") as { get(id: string): unknown };
          const modeling = modeler.get("modeling") as {
            updateProperties(element: unknown, properties: object): void;
          };
          modeling.updateProperties(registry.get("Flow_ToBand"), { id: "Flow_ToBandRenamed" });
          await (modeler.get("agentflow") as { evaluate(): Promise<unknown> }).evaluate();
        });
        expect(await classesOf(tab, "Flow_ToBandRenamed")).toContain("agentflow-bypass");
        await tab.evaluate(() => {
          const stack = (window as unknown as DemoWindow).agentflowDemo.modeler.get(
            "commandStack",
          ) as { undo(): void };
          stack.undo();
          stack.undo();
        });
        await tab.waitForSelector(`${badge("AssessCreditRisk")}[data-agentflow-gate="reached"]`);
        expect(await tab.locator(`g[data-element-id="${flowId}"]`).count()).toBe(0);
        expect(await classesOf(tab, "Flow_ToBand")).not.toContain("agentflow-bypass");
        expect(await bypassed(tab)).toEqual([]);
        expect(await offer.getAttribute("data-agentflow-gate")).toBe("missing");

        // 4. The properties panel: select the offer task, check its ref as typed, set its level.
        await tab.locator('g.djs-element[data-element-id="DraftAndSendOffer"]').click();
        const group = tab.locator(
          '.bio-properties-panel-group[data-group-id="group-agentflow-governance"]',
        );
        await group.waitFor();
        expect(await group.locator(".bio-properties-panel-group-header-title").innerText()).toBe(
          "Agent governance",
        );
        const ref = tab.locator("#bio-properties-panel-agentflow-workflowRef");
        expect(await ref.inputValue()).toBe("agnt-offer-sender@1.0.0");
        await ref.fill("");
        await ref.pressSequentially("agnt-offer-sender@latest");
        const refError = group.locator(
          '[data-entry-id="agentflow-workflowRef"] .bio-properties-panel-error',
        );
        await refError.waitFor();
        expect(await refError.innerText()).toContain("Not an id@version ref");
        await ref.fill("");
        await ref.pressSequentially("agnt-offer-sender@1.0.0");
        await refError.waitFor({ state: "detached" });

        const level = tab.locator("#bio-properties-panel-agentflow-autonomyLevel");
        expect(await level.inputValue()).toBe("3");
        await level.selectOption("4");
        await tab.waitForSelector(`${badge("DraftAndSendOffer")}[data-agentflow-level="4"]`);
        // Level 4 would make the gate optional, but the workflow's own level 3 still requires it.
        expect(await offer.getAttribute("data-agentflow-gate")).toBe("missing");
        expect(await offer.locator(".agentflow-badge-text").innerText()).toBe("L4 · gate missing");
        expect(
          await offer
            .locator(".agentflow-findings code")
            .evaluateAll((els) => els.map((e) => e.textContent)),
        ).toContain("AGENT_AUTONOMY_MISMATCH");
        expect(await exportedAgentTask(tab, "DraftAndSendOffer")).toMatch(
          /agentWorkflowRef="agnt-offer-sender@1\.0\.0" autonomyLevel="4"/,
        );
        await leaveScreenshot(tab, "modeler-panel.png");

        // The panel's edit is one undo step, like any other.
        await tab.evaluate(() => {
          (
            (window as unknown as DemoWindow).agentflowDemo.modeler.get("commandStack") as {
              undo(): void;
            }
          ).undo();
        });
        await tab.waitForSelector(`${badge("DraftAndSendOffer")}[data-agentflow-level="3"]`);
        expect(await level.inputValue()).toBe("3");
        expect(await exportedAgentTask(tab, "DraftAndSendOffer")).toContain('autonomyLevel="3"');

        // Any flow node can be marked as a gate in the panel, with an approver role; one the
        // engine completes by itself (a gateway routes the token with nobody deciding) does not
        // count, so it gets neither the gate marker nor the gate outline. Agents and gates are
        // outlined in their colours.
        const gateColour = await canvasColour(tab, "--agentflow-gate");
        const agentColour = await canvasColour(tab, "--agentflow-agent");
        expect(gateColour).not.toBe(agentColour);
        expect(await outlineStroke(tab, "UnderwriterReview")).toBe(gateColour);
        expect(await outlineStroke(tab, "AssessCreditRisk")).toBe(agentColour);
        expect(await outlineStroke(tab, "DraftAndSendOffer")).toBe(agentColour);
        expect(await outlineStroke(tab, "RiskBand")).not.toBe(gateColour);
        await tab.locator('g.djs-element[data-element-id="RiskBand"]').click();
        const gateBox = tab.locator("#bio-properties-panel-agentflow-gate");
        expect(await gateBox.isChecked()).toBe(false);
        await gateBox.check();
        await tab
          .locator("#bio-properties-panel-agentflow-approverRole")
          .pressSequentially("risk-officer");
        const savedGate = async (): Promise<string | undefined> => {
          const xml = await tab.evaluate(async () => {
            const { xml } = await (window as unknown as DemoWindow).agentflowDemo.modeler.saveXML({
              format: true,
            });
            return xml ?? "";
          });
          return /<bpmn:exclusiveGateway id="RiskBand"[\s\S]*?<\/bpmn:exclusiveGateway>/.exec(
            xml,
          )?.[0];
        };
        await expect.poll(savedGate).toContain('<btv:gate approverRole="risk-officer" />');
        // The decision after the edit: the marked gateway is not among its gates.
        const gates = await tab.evaluate(async () => {
          const { modeler } = (window as unknown as DemoWindow).agentflowDemo;
          const decision = (await (
            modeler.get("agentflow") as {
              evaluate(): Promise<{ gates: { elementId: string }[] } | undefined>;
            }
          ).evaluate()) ?? { gates: [] };
          return decision.gates.map((g) => g.elementId).sort();
        });
        expect(gates).toEqual(["SeniorReview", "UnderwriterReview"]);
        expect(
          await tab.locator('.agentflow-gate-marker[data-agentflow-element="RiskBand"]').count(),
        ).toBe(0);
        expect(await outlineStroke(tab, "RiskBand")).not.toBe(gateColour);
        await leaveScreenshot(tab, "modeler-gate.png");

        // A bypass again, past the new gate: the credit-risk agent straight to the offer task.
        const skipId = await tab.evaluate(() => {
          const { modeler } = (window as unknown as DemoWindow).agentflowDemo;
          const registry = modeler.get("elementRegistry") as { get(id: string): unknown };
          const modeling = modeler.get("modeling") as {
            connect(source: unknown, target: unknown): { id: string };
          };
          return modeling.connect(
            registry.get("AssessCreditRisk"),
            registry.get("DraftAndSendOffer"),
          ).id;
        });
        await tab.waitForSelector(`${badge("AssessCreditRisk")}[data-agentflow-gate="bypass"]`);
        const drawn = {
          bypass: [skipId, "Flow_ToSent"].sort(),
          agents: ["AssessCreditRisk", "DraftAndSendOffer"],
          gates: ["SeniorReview", "UnderwriterReview"],
        };
        const canvasMarkers = async () => ({
          bypass: await bypassed(tab),
          agents: await markedWith(tab, "agentflow-agent"),
          gates: await markedWith(tab, "agentflow-gate"),
        });
        expect(await canvasMarkers()).toEqual(drawn);

        // toggle(false) hides every badge, gate marker and canvas marker; the button shows them
        // again.
        await tab.locator("#toggle").click();
        expect(await tab.locator(".agentflow-badge, .agentflow-gate-marker").count()).toBe(0);
        expect(await canvasMarkers()).toEqual({ bypass: [], agents: [], gates: [] });
        expect(await outlineStroke(tab, "RiskBand")).not.toBe(gateColour);
        await tab.locator("#toggle").click();
        expect(await tab.locator(".agentflow-badge").count()).toBe(2);
        expect(await tab.locator(".agentflow-gate-marker").count()).toBe(2);
        expect(await canvasMarkers()).toEqual(drawn);
        expect(await outlineStroke(tab, "UnderwriterReview")).toBe(gateColour);
        expect(await outlineStroke(tab, "RiskBand")).not.toBe(gateColour);

        // 3. A Camunda AI agent read from the BPMN alone: its badge shows the derived level, and
        // each tool inside its ad-hoc sub-process is marked with its effect and where it came from.
        const refund = readFileSync("examples/processes/refund-triage.bpmn", "utf8");
        await tab.evaluate(async (xml) => {
          const { modeler } = (window as unknown as DemoWindow).agentflowDemo;
          await (modeler as unknown as { importXML(xml: string): Promise<unknown> }).importXML(xml);
        }, refund);
        await tab.waitForSelector(`${badge("Agent")}[data-agentflow-level="3"]`);
        expect(await tab.locator(badge("Agent")).getAttribute("data-agentflow-gate")).toBe(
          "reached",
        );
        const effects = await tab
          .locator(".agentflow-effect")
          .evaluateAll((els) =>
            els
              .map((e) =>
                [
                  e.getAttribute("data-agentflow-element"),
                  e.getAttribute("data-agentflow-effect"),
                  e.getAttribute("data-agentflow-effect-source"),
                ].join(" "),
              )
              .sort(),
          );
        expect(effects).toContain("CheckFraud unknown unknown");
        expect(effects).toContain("RefundPayment write-irreversible default");
        expect(effects).toContain("ArchiveCase write-reversible btv");
        expect(await markedWith(tab, "agentflow-effect-unknown")).toEqual([
          "CheckFraud",
          "LegacyCheck",
        ]);

        expect(errors).toEqual([]);
        const folder = pathToFileURL(out).href;
        expect(
          requests.filter((url) => !url.startsWith("data:") && !url.startsWith(folder)),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
