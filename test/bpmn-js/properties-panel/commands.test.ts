/**
 * What the "Agent governance" group writes (issue 23), without a browser: the commands it hands
 * the command stack, run here as bpmn-js runs `element.updateModdleProperties` (setting each
 * property on its moddle element), on the example process; the XML written afterwards shows the
 * `btv` extension elements as a modeller would save them.
 */
import { BpmnModdle } from "bpmn-moddle";
import { describe, expect, it } from "vitest";
import type { ModdleObject } from "../../../src/bpmn/index.js";
import { BTV_PACKAGE } from "../../../src/bpmn/index.js";
import type { BpmnFactory, ModdleCommand } from "../../../src/bpmn-js/properties-panel/commands.js";
import {
  AGENT_ATTRIBUTES,
  gateCommands,
  patchBtvCommands,
  toolEffectCommands,
} from "../../../src/bpmn-js/properties-panel/commands.js";
import { loanXml } from "../loan.js";

interface Moddle {
  fromXML(xml: string): Promise<{ rootElement: unknown; elementsById: Record<string, unknown> }>;
  toXML(element: unknown, options?: { format?: boolean }): Promise<{ xml: string }>;
  create(type: string, attrs?: Readonly<Record<string, unknown>>): ModdleObject;
}

async function loan() {
  const moddle = new BpmnModdle({ btv: BTV_PACKAGE }) as unknown as Moddle;
  const { rootElement, elementsById } = await moddle.fromXML(loanXml);
  const factory: BpmnFactory = { create: (type, attrs) => moddle.create(type, attrs) };
  const element = (id: string) => ({ businessObject: elementsById[id] });
  /** Runs commands as `element.updateModdleProperties` does: each property set on its element. */
  const run = (commands: readonly ModdleCommand[]) => {
    for (const { context } of commands) {
      const target = context.moddleElement as { set(key: string, value: unknown): void };
      for (const [key, value] of Object.entries(context.properties)) target.set(key, value);
    }
  };
  /** The XML of one flow node after the commands ran. */
  const nodeXml = async (id: string): Promise<string> => {
    const { xml } = await moddle.toXML(rootElement, { format: true });
    const start = xml.indexOf(` id="${id}"`);
    const open = xml.lastIndexOf("<bpmn:", start);
    const tag = xml.slice(open + 6, xml.indexOf(" ", open));
    return xml.slice(open, xml.indexOf(`</bpmn:${tag}>`, open));
  };
  return { factory, element, run, nodeXml };
}

describe("patchBtvCommands", () => {
  it("sets the level of an existing agent task in one command", async () => {
    const { factory, element, run, nodeXml } = await loan();
    const commands = patchBtvCommands(
      element("DraftAndSendOffer"),
      "btv:AgentTask",
      { autonomyLevel: "4" },
      factory,
      AGENT_ATTRIBUTES,
    );
    expect(commands.map((c) => [c.cmd, Object.keys(c.context.properties)])).toEqual([
      ["element.updateModdleProperties", ["autonomyLevel"]],
    ]);
    run(commands);
    expect(await nodeXml("DraftAndSendOffer")).toMatch(
      /<btv:agentTask agentWorkflowRef="agnt-offer-sender@1\.0\.0" autonomyLevel="4"/,
    );
  });

  it("makes a plain task an agent task, creating its extension elements first", async () => {
    const { factory, element, run, nodeXml } = await loan();
    expect(await nodeXml("ApplicationReceived")).not.toContain("extensionElements");
    const commands = patchBtvCommands(
      element("ApplicationReceived"),
      "btv:AgentTask",
      { agentWorkflowRef: "agnt-intake@1.0.0" },
      factory,
      AGENT_ATTRIBUTES,
    );
    expect(commands.map((c) => Object.keys(c.context.properties))).toEqual([
      ["extensionElements"],
      ["values"],
    ]);
    run(commands);
    expect(await nodeXml("ApplicationReceived")).toContain(
      '<bpmn:extensionElements>\n        <btv:agentTask agentWorkflowRef="agnt-intake@1.0.0" />\n      </bpmn:extensionElements>',
    );

    // Clearing its only attribute makes it a plain node again.
    const clear = patchBtvCommands(
      element("ApplicationReceived"),
      "btv:AgentTask",
      { agentWorkflowRef: "" },
      factory,
      AGENT_ATTRIBUTES,
    );
    expect(clear.map((c) => c.context.properties)).toEqual([{ values: [] }]);
    run(clear);
    expect(await nodeXml("ApplicationReceived")).not.toContain("btv:agentTask");
  });

  it("adds the agent task next to a gate already there", async () => {
    const { factory, element, run, nodeXml } = await loan();
    run(
      patchBtvCommands(
        element("UnderwriterReview"),
        "btv:AgentTask",
        { autonomyLevel: "1" },
        factory,
        AGENT_ATTRIBUTES,
      ),
    );
    const xml = await nodeXml("UnderwriterReview");
    expect(xml).toContain('<btv:gate approverRole="underwriter" />');
    expect(xml).toContain('<btv:agentTask autonomyLevel="1" />');
  });

  it("keeps an agent task whose mappings remain when ref and level are cleared", async () => {
    const { factory, element, run, nodeXml } = await loan();
    run(
      patchBtvCommands(
        element("AssessCreditRisk"),
        "btv:AgentTask",
        { agentWorkflowRef: "", autonomyLevel: "" },
        factory,
        AGENT_ATTRIBUTES,
      ),
    );
    const xml = await nodeXml("AssessCreditRisk");
    expect(xml).toContain("<btv:agentTask inputMapping=");
    expect(xml).not.toContain("agentWorkflowRef");
    expect(xml).not.toContain("autonomyLevel");
  });

  it("writes nothing when there is nothing to set", async () => {
    const { factory, element } = await loan();
    expect(
      patchBtvCommands(
        element("ApplicationReceived"),
        "btv:AgentTask",
        { autonomyLevel: "" },
        factory,
        AGENT_ATTRIBUTES,
      ),
    ).toEqual([]);
  });
});

describe("gateCommands", () => {
  it("puts a gate on a node, sets its role, and takes it off again", async () => {
    const { factory, element, run, nodeXml } = await loan();
    expect(gateCommands(element("UnderwriterReview"), true, factory)).toEqual([]);
    run(gateCommands(element("RiskBand"), true, factory));
    expect(await nodeXml("RiskBand")).toContain("<btv:gate />");
    run(
      patchBtvCommands(
        element("RiskBand"),
        "btv:Gate",
        { approverRole: "risk-officer" },
        factory,
        [],
      ),
    );
    expect(await nodeXml("RiskBand")).toContain('<btv:gate approverRole="risk-officer" />');
    // A gate stays a gate when its role is cleared.
    run(patchBtvCommands(element("RiskBand"), "btv:Gate", { approverRole: "" }, factory, []));
    expect(await nodeXml("RiskBand")).toContain("<btv:gate />");
    run(gateCommands(element("UnderwriterReview"), false, factory));
    expect(await nodeXml("UnderwriterReview")).not.toContain("btv:gate");
    expect(gateCommands(element("UnderwriterReview"), false, factory)).toEqual([]);
  });
});

describe("toolEffectCommands", () => {
  it("sets, changes and removes btv:toolEffect on an activity in one command", async () => {
    const { element, run, nodeXml } = await loan();
    const task = element("DraftAndSendOffer");
    const set = toolEffectCommands(task, "write-irreversible");
    expect(set.map((c) => [c.cmd, c.context.properties])).toEqual([
      ["element.updateModdleProperties", { toolEffect: "write-irreversible" }],
    ]);
    run(set);
    expect(await nodeXml("DraftAndSendOffer")).toMatch(/btv:toolEffect="write-irreversible"/);
    expect(toolEffectCommands(task, "write-irreversible")).toEqual([]);
    run(toolEffectCommands(task, ""));
    expect(await nodeXml("DraftAndSendOffer")).not.toContain("toolEffect");
  });
});
