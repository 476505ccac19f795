/**
 * The example registry (`examples/registry/`), bundled into the page: the browser has no folder
 * to read, so the documents are imported and indexed by `id@version` as the CLI's registry
 * indexes them (exact versions only; the CLI's range lookups are not needed by the process).
 */
import bureau from "../registry/credit-bureau-report.tool.json" with { type: "json" };
import creditRisk from "../registry/credit-risk.agent.json" with { type: "json" };
import offerSender from "../registry/offer-sender.agent.json" with { type: "json" };
import sendOffer from "../registry/send-loan-offer.tool.json" with { type: "json" };

const DOCUMENTS: readonly { readonly id: string; readonly version: string }[] = [
  creditRisk,
  offerSender,
  bureau,
  sendOffer,
];

const BY_REF = new Map<string, unknown>(DOCUMENTS.map((doc) => [`${doc.id}@${doc.version}`, doc]));

/** The workflows and tool contracts of the example registry, as `evaluateGates` resolvers. */
export const exampleRegistry = {
  resolveWorkflow: (ref: string): unknown => BY_REF.get(ref),
  resolveTool: (ref: string): unknown => BY_REF.get(ref),
} as const;
