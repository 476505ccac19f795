/**
 * The modeller demo's registry (`examples/modeler/registry.ts`): workflows and tool contracts are
 * looked up apart, as the CLI's registry keeps them, so a tool's ref written as an agent task's
 * workflow ref resolves to nothing instead of to a tool contract (and the reverse).
 */
import { describe, expect, it } from "vitest";
import { exampleRegistry } from "../../examples/modeler/registry.js";

describe("the modeller demo's registry", () => {
  it("resolves workflows and tools each from their own documents", () => {
    const workflow = exampleRegistry.resolveWorkflow("agnt-credit-risk@1.0.0") as { id?: string };
    const tool = exampleRegistry.resolveTool("tool:credit-bureau-report@2.0.0") as { id?: string };
    expect(workflow.id).toBe("agnt-credit-risk");
    expect(tool.id).toBe("tool:credit-bureau-report");
    expect(exampleRegistry.resolveWorkflow("tool:credit-bureau-report@2.0.0")).toBeUndefined();
    expect(exampleRegistry.resolveWorkflow("tool:send-loan-offer@1.1.0")).toBeUndefined();
    expect(exampleRegistry.resolveTool("agnt-offer-sender@1.0.0")).toBeUndefined();
  });
});
