import { agentWorkflowSchema, toolContractSchema } from "./workflow.js";

/** File name under `schemas/` → the schema published there. */
export const publishedSchemas: Readonly<Record<string, object>> = {
  "agent-workflow.schema.json": agentWorkflowSchema,
  "tool-contract.schema.json": toolContractSchema,
};
