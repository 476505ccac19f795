/** The JSON Schemas of the documents (SPEC 2), as the parser checks them and as published. */
export { agentWorkflowSchema, SCHEMA_BASE, toolContractSchema } from "./workflow.js";
export { publishedSchemas } from "./published.js";
