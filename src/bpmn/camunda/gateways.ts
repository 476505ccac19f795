/**
 * The MCP and A2A gateway marker and the connectors that bear it out, as plain data: the
 * derivation reads them without the BPMN reader (it runs in the report and the conformance check
 * from a decision's data alone).
 */

/** The zeebe property that makes a tool an MCP or A2A gateway (several tools at run time). */
export const GATEWAY_PROPERTY = "io.camunda.agenticai.gateway.type";

/** The gateway type of the A2A client in tool mode: the tool hands work to a remote agent. */
export const A2A_GATEWAY = "a2aClient";

/**
 * The job types of the connectors that act as each gateway type, exactly as Camunda's published
 * templates set them (camunda/connectors, connectors/agentic-ai element templates: the A2A
 * client `…a2a.client.v0`, the MCP clients `…mcp.client.v0` and `…mcp.remoteclient.v0`). Camunda's
 * agent treats any element carrying the marker as a gateway, but what runs is the job type: the
 * marker alone is a label anyone can write on any element. Exact, not prefixes: the A2A client's
 * inbound connectors (`…a2aclient:polling:0`) share the prefix and are no gateway.
 */
export const GATEWAY_JOB_TYPES: Readonly<Record<string, readonly string[]>> = {
  [A2A_GATEWAY]: ["io.camunda.agenticai:a2aclient:0"],
  mcpClient: [
    "io.camunda.agenticai:mcpclient:0",
    "io.camunda.agenticai:mcpclient:1",
    "io.camunda.agenticai:mcpremoteclient:0",
    "io.camunda.agenticai:mcpremoteclient:1",
  ],
};
