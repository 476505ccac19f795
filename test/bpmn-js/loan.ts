/**
 * The example loan process and its registry, as the bpmn-js module's tests use them: the process
 * as a modeller wrote it (with DI), a variant where "Risk band?" leads straight to "Draft and
 * send offer", skipping both reviews, as a designer would draw it, and one with the credit-risk
 * agent alone.
 */
import { readFileSync } from "node:fs";
import { parseWorkflowText } from "../../src/model/index.js";

/** The example process's XML. */
export const loanXml = readFileSync("examples/processes/loan-origination.bpmn", "utf8");

/** The process with a flow `Flow_Shortcut` from `RiskBand` to `DraftAndSendOffer`. */
export const shortcutXml = loanXml
  .replace(
    "<bpmn:outgoing>Flow_High</bpmn:outgoing>",
    "<bpmn:outgoing>Flow_High</bpmn:outgoing>\n      <bpmn:outgoing>Flow_Shortcut</bpmn:outgoing>",
  )
  .replace(
    "<bpmn:incoming>Flow_Approved</bpmn:incoming>",
    "<bpmn:incoming>Flow_Approved</bpmn:incoming>\n      <bpmn:incoming>Flow_Shortcut</bpmn:incoming>",
  )
  .replace(
    '<bpmn:sequenceFlow id="Flow_ToSent"',
    '<bpmn:sequenceFlow id="Flow_Shortcut" sourceRef="RiskBand" targetRef="DraftAndSendOffer" />\n    <bpmn:sequenceFlow id="Flow_ToSent"',
  );

/** The process with its offer agent a plain task: the gated credit-risk agent alone, allowed. */
export const gatedXml = loanXml.replace(
  /<bpmn:extensionElements>\s*<btv:agentTask agentWorkflowRef="agnt-offer-sender[\s\S]*?<\/bpmn:extensionElements>/,
  "",
);

/**
 * {@link gatedXml} with a second element of the gate's id, as a careless copy makes it: bpmn-moddle
 * drops it, and says so.
 */
export const duplicateXml = gatedXml.replace(
  '<bpmn:endEvent id="OfferSent"',
  '<bpmn:serviceTask id="UnderwriterReview" name="Auto-approve offer" />\n    <bpmn:endEvent id="OfferSent"',
);

const registryDoc = (name: string): unknown =>
  parseWorkflowText(readFileSync(`examples/registry/${name}`, "utf8")).value;
const workflows = new Map<string, unknown>([
  ["agnt-credit-risk@1.0.0", registryDoc("credit-risk.agent.json")],
  ["agnt-offer-sender@1.0.0", registryDoc("offer-sender.agent.json")],
]);
const tools = new Map<string, unknown>([
  ["tool:credit-bureau-report@2.0.0", registryDoc("credit-bureau-report.tool.json")],
  ["tool:send-loan-offer@1.1.0", registryDoc("send-loan-offer.tool.json")],
]);

/** The example registry as resolvers, workflows and tool contracts apart. */
export const registry = {
  resolveWorkflow: (ref: string): unknown => workflows.get(ref),
  resolveTool: (ref: string): unknown => tools.get(ref),
};
