/**
 * A process file that cannot be read as BPMN (truncated XML, or a root that is not
 * `bpmn:definitions`) is a usage error for `gate`, `check` and `report` alike: exit 2, the
 * problem on stderr with its line, and in a machine format a document on stdout that carries it.
 * No report is written, since nothing was reviewed. And a deeply nested process gives output
 * that grows with the input, in every format, without exhausting the stack.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const dir = tempDir("agentflow-unreadable-");
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const loan = readFileSync("examples/processes/loan-origination.bpmn", "utf8");
const CASES = [
  [
    "truncated",
    write("truncated.bpmn", loan.slice(0, 300)),
    ":2:1: the XML cannot be read: unclosed tag",
  ],
  [
    "not definitions",
    write("other.bpmn", '<?xml version="1.0"?>\n<notdefs/>\n'),
    ":2:1: the root element <notdefs> is not <bpmn:definitions>",
  ],
] as const;

describe.each(CASES)("an unreadable process (%s)", (_name, file, message) => {
  it("gate exits 2 and says why on stderr", async () => {
    const result = await run("gate", file);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`agentflow: ${file}${message}`);
  });

  it("gate --format json exits 2 with a JSON error document on stdout", async () => {
    const result = await run("gate", file, "--format", "json");
    expect(result.code).toBe(2);
    const out = JSON.parse(result.stdout) as {
      readonly file: string;
      readonly readable: boolean;
      readonly allowed: boolean;
      readonly blocking: readonly { readonly code: string }[];
      readonly agentTasks: readonly unknown[];
    };
    expect(out).toMatchObject({ file, readable: false, allowed: false, agentTasks: [] });
    expect(out.blocking.map((d) => d.code)).toEqual(["BPMN_PARSE"]);
  });

  it.each(["sarif", "junit", "github"])(
    "gate --format %s exits 2 and reports BPMN_PARSE",
    async (format) => {
      const result = await run("gate", file, "--format", format);
      expect(result.code).toBe(2);
      expect(result.stdout).toContain("BPMN_PARSE");
      if (format === "sarif") {
        const sarif = JSON.parse(result.stdout) as {
          runs: { results: { ruleId: string; level: string }[] }[];
        };
        expect(sarif.runs[0]?.results.map((r) => [r.ruleId, r.level])).toEqual([
          ["BPMN_PARSE", "error"],
        ]);
      }
    },
  );

  it("check exits 2 and never shows the file as passing", async () => {
    const result = await run("check", file);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("BPMN_PARSE");
    expect(result.stdout).not.toContain("no problems");
    // An exit 2 always says why on stderr, as gate and report do.
    expect(result.stderr).toContain(`agentflow: ${file}${message}`);
  });

  it("report exits 2 and writes no report", async () => {
    const output = join(dir, `${file.endsWith("truncated.bpmn") ? "t" : "o"}.html`);
    const result = await run("report", file, "-o", output);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`agentflow: ${file}${message}`);
    expect(existsSync(output)).toBe(false);
  });
});

/** `depth` sub-processes, one inside the other, around a level-2 agent task without a gate. */
function nested(depth: number): string {
  const open = Array.from(
    { length: depth },
    (_, i) => `<bpmn:subProcess id="S${String(i)}"><bpmn:startEvent id="st${String(i)}"/>`,
  ).join("");
  const close = Array.from({ length: depth }, (_, k) => {
    const i = depth - 1 - k;
    const next = i + 1 < depth ? `S${String(i + 1)}` : "A";
    return `<bpmn:sequenceFlow id="f${String(i)}" sourceRef="st${String(i)}" targetRef="${next}"/></bpmn:subProcess>`;
  }).join("");
  return `<?xml version="1.0"?><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:btv="https://agentflow.dev/schema/btv/1.0" id="D" targetNamespace="x"><bpmn:process id="P"><bpmn:startEvent id="s"/>${open}<bpmn:serviceTask id="A"><bpmn:extensionElements><btv:agentTask agentWorkflowRef="agnt-x@1.0.0" autonomyLevel="2"/></bpmn:extensionElements></bpmn:serviceTask>${close}<bpmn:endEvent id="e"/><bpmn:sequenceFlow id="a" sourceRef="s" targetRef="S0"/><bpmn:sequenceFlow id="b" sourceRef="S0" targetRef="e"/></bpmn:process></bpmn:definitions>`;
}

describe("a process of 1,500 nested sub-processes", () => {
  const text = nested(1_500);
  const file = write("nested.bpmn", text);

  it.each(["json", "sarif", "junit", "github", "text"])(
    "gate --format %s answers with exit 1 and output no larger than the input",
    async (format) => {
      const result = await run("gate", file, "--format", format);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      expect(result.stdout.length).toBeLessThan(text.length);
      if (format === "json") {
        const out = JSON.parse(result.stdout) as {
          blocking: { code: string; target: { elementId: string } }[];
        };
        expect(out.blocking.map((d) => [d.code, d.target.elementId])).toEqual([
          ["AGENT_GATE_UNREACHABLE", "A"],
        ]);
      }
    },
  );

  it("ten times the depth gives about ten times the output", async () => {
    const deeper = write("deeper.bpmn", nested(15_000));
    const small = (await run("gate", file, "--format", "json")).stdout.length;
    const large = await run("gate", deeper, "--format", "json");
    expect(large.code).toBe(1);
    expect(large.stdout.length).toBeLessThan(12 * small);
  });
});
