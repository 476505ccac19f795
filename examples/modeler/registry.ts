/**
 * The example registry (`examples/registry/`), bundled into the page: the browser has no folder
 * to read, so the documents are imported and indexed by `id@version` as the CLI's registry
 * indexes them (exact versions only; the CLI's range lookups are not needed by the process).
 */
import bureau from "../registry/credit-bureau-report.tool.json" with { type: "json" };
import creditRisk from "../registry/credit-risk.agent.json" with { type: "json" };
import offerSender from "../registry/offer-sender.agent.json" with { type: "json" };
import sendOffer from "../registry/send-loan-offer.tool.json" with { type: "json" };

/** What indexing needs of a registry document. */
interface RegistryDocument {
  readonly id: string;
  readonly version: string;
}

/** Indexes documents by `id@version`. */
const byRef = (docs: readonly RegistryDocument[]): ReadonlyMap<string, unknown> =>
  new Map<string, unknown>(docs.map((doc) => [`${doc.id}@${doc.version}`, doc]));

// Workflows and tool contracts apart, as the CLI's registry keeps them: a tool's ref written as an
// agent task's workflow ref must resolve to nothing, not to the tool's contract.
const WORKFLOWS = byRef([creditRisk, offerSender]);
const TOOLS = byRef([bureau, sendOffer]);

/** The workflows and tool contracts of the example registry, as `evaluateGates` resolvers. */
export const exampleRegistry = {
  resolveWorkflow: (ref: string): unknown => WORKFLOWS.get(ref),
  resolveTool: (ref: string): unknown => TOOLS.get(ref),
} as const;
