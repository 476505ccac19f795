/**
 * Hostile and broken BPMN: each returns diagnostics, never an exception, a hang or a stack
 * overflow (issue 6). Time limits here are generous guards against a hang, not benchmarks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkProcess, readProcess } from "../../src/bpmn/index.js";

const NS = `xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0"`;

function nested(depth: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    open += `<bpmn:subProcess id="sp${i}">`;
    close = `</bpmn:subProcess>` + close;
  }
  const agent = `<bpmn:task id="agent"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-deep@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:task>`;
  return `<bpmn:definitions ${NS} id="d"><bpmn:process id="p">${open}${agent}${close}</bpmn:process></bpmn:definitions>`;
}

describe("adversarial BPMN input", () => {
  it("malformed XML is one BPMN_PARSE error with a position", async () => {
    const result = await checkProcess(`<bpmn:definitions ${NS} id="d">\n  <bpmn:process id="p">\n`);
    expect(result.definitions).toBeUndefined();
    expect(result.allowed).toBe(false);
    expect(result.blocking).toMatchObject([
      { code: "BPMN_PARSE", severity: "error", data: { kind: "unreadable" } },
    ]);
    expect(result.blocking[0]?.location?.line).toBeGreaterThanOrEqual(1);
  });

  it("an unknown root is an error naming it", async () => {
    const result = await checkProcess(`<?xml version="1.0"?>\n<html><body/></html>`);
    expect(result.blocking).toMatchObject([
      { code: "BPMN_PARSE", data: { kind: "unknown-root", subject: "html" } },
    ]);
  });

  it("an entity-expansion attempt (billion laughs) is not expanded", async () => {
    const entities = ['<!ENTITY l0 "lol">'];
    for (let i = 1; i < 10; i++) entities.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE d [${entities.join("")}]>\n<bpmn:definitions ${NS} id="d"><bpmn:process id="p" name="&l9;"/></bpmn:definitions>`;
    const result = await readProcess(xml);
    const process = (result.definitions?.rootElements as { name?: string }[] | undefined)?.[0];
    expect((process?.name ?? "").length).toBeLessThan(100);
  });

  it("a 10 MB attribute is read, and reported with a bounded preview", async () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    const xml = `<bpmn:definitions ${NS} id="d"><bpmn:process id="p"><bpmn:task id="t"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="${huge}" autonomyLevel="${huge}"/></bpmn:extensionElements></bpmn:task></bpmn:process></bpmn:definitions>`;
    const result = await checkProcess(xml);
    const codes = result.blocking.map((d) => d.code);
    expect(codes).toContain("AGENT_REF_INVALID");
    expect(codes).toContain("AGENT_AUTONOMY_INVALID");
    for (const d of result.blocking) expect(d.message.length).toBeLessThan(500);
  });

  it("5,000 nested sub-processes are walked without a stack overflow", async () => {
    const result = await checkProcess(nested(5000));
    expect(result.agentTasks).toEqual([
      expect.objectContaining({ elementId: "agent", gate: "missing", requirement: "required" }),
    ]);
    expect(result.blocking.map((d) => d.code)).toEqual(["AGENT_GATE_UNREACHABLE"]);
    expect(result.blocking[0]?.path).toMatch(/^\/rootElements\/0(\/flowElements\/0){5001}$/);
  }, 60_000);

  it("a document over the size limit is refused without being parsed", async () => {
    const result = await readProcess(`<bpmn:definitions ${NS} id="d"/>`, { maxLength: 10 });
    expect(result.diagnostics).toMatchObject([{ code: "BPMN_PARSE", data: { kind: "too-large" } }]);
  });

  it("property: arbitrary text never throws and gives well-formed diagnostics", async () => {
    const fragments = fc.constantFrom(
      "<bpmn:definitions ",
      NS,
      ' id="d">',
      '<bpmn:process id="p">',
      '<bpmn:task id="t">',
      "<bpmn:extensionElements>",
      '<btv:agentTask agentWorkflowRef="a@1.0.0" autonomyLevel="9"/>',
      '<bpmn:sequenceFlow id="f" sourceRef="t" targetRef="t"/>',
      "</bpmn:task>",
      "</bpmn:process>",
      "</bpmn:definitions>",
      "<!--",
      "&amp;",
      "<![CDATA[",
      "]]>",
    );
    const documents = fc.oneof(
      fc.string(),
      fc.array(fragments, { maxLength: 20 }).map((a) => a.join("")),
    );
    await fc.assert(
      fc.asyncProperty(documents, async (xml) => {
        const result = await checkProcess(xml);
        for (const d of [...result.blocking, ...result.warnings]) {
          expect(typeof d.code).toBe("string");
          expect(typeof d.message).toBe("string");
          expect(d.target.kind).toBe("bpmn-element");
          expect(d.code).not.toBe("RULE_CRASHED");
        }
      }),
      { numRuns: 200 },
    );
  });
});
