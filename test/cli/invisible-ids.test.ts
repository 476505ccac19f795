/**
 * Ids with invisible characters (NUL, newlines, bidi overrides, zero-width) are a warning, and
 * every surface a person reads shows them escaped (issue 17): check in each format, simulate,
 * convert to Mermaid, gate's table, and both report formats. Data (`data`, JSON values) keeps
 * the exact id.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getTemplate } from "../../src/model/index.js";
import { tempDir } from "../temp.js";
import { run } from "./run.js";

const RLO = "\u202E";
const HIDDEN = `fetch${RLO}atad`;
const SHOWN = "fetch\\u{202E}atad";
const dir = tempDir("agentflow-invisible-");
// A clean template with its last node renamed: nothing else refers to that node by text.
const template = getTemplate("document-review");
if (template === undefined) throw new Error("no template");
const renamed = JSON.parse(
  JSON.stringify(template).replaceAll('"llm-classify"', JSON.stringify(HIDDEN)),
) as unknown;
const file = join(dir, "hidden.agent.json");
writeFileSync(file, JSON.stringify(renamed, null, 2));

/** No raw invisible character reaches a reader. */
function clean(text: string): void {
  expect(text).not.toContain(RLO);
}

describe("a node id with a right-to-left override", () => {
  it("check warns (NODE_ID_INVISIBLE_CHARACTER, exit 0) and shows it escaped", async () => {
    const result = await run("check", file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `node id "${SHOWN}" at /nodes/2 holds 1 character(s) that print as nothing or reorder the text (\\u{202E}): what a reviewer reads is not the id  NODE_ID_INVISIBLE_CHARACTER`,
    );
    clean(result.stdout);
  });

  it("check --format json and sarif: messages escaped, data exact", async () => {
    const json = await run("check", file, "--format", "json");
    const [result] = JSON.parse(json.stdout) as {
      diagnostics: { code: string; message: string; data: { nodeId?: string } }[];
    }[];
    const finding = result?.diagnostics.find((d) => d.code === "NODE_ID_INVISIBLE_CHARACTER");
    expect(finding?.data.nodeId).toBe(HIDDEN);
    expect(finding?.message).toContain(SHOWN);
    const sarif = await run("check", file, "--format", "sarif");
    const log = JSON.parse(sarif.stdout) as {
      runs: { results: { ruleId: string; message: { text: string } }[] }[];
    };
    const texts = log.runs.flatMap((r) => r.results.map((x) => x.message.text));
    expect(texts.some((t) => t.includes(`node id "${SHOWN}"`))).toBe(true);
    for (const t of texts) clean(t);
  });

  it("simulate and convert --to mermaid show it escaped", async () => {
    const simulated = await run("simulate", file, "--decide", "dec-validate=onTrue");
    expect(simulated.stdout).toContain(SHOWN);
    clean(simulated.stdout);
    const mermaid = await run("convert", file, "--to", "mermaid");
    expect(mermaid.stdout).toContain(`["${SHOWN}<br/>`);
    clean(mermaid.stdout);
  });

  it("both report formats show it escaped", async () => {
    for (const ext of ["md", "html"]) {
      const out = join(dir, `r.${ext}`);
      await run("report", file, "-o", out);
      const text = readFileSync(out, "utf8");
      expect(text).toContain(SHOWN);
      clean(text);
    }
  });
});

describe("a BPMN id with a zero-width joiner", () => {
  it("bpmn-moddle drops the element (an illegal ID); gate says so with the id escaped", async () => {
    const xml = readFileSync("examples/processes/loan-origination.bpmn", "utf8").replaceAll(
      "DraftAndSendOffer",
      "DraftAndSend&#x200D;Offer",
    );
    const process = join(dir, "zwj.bpmn");
    writeFileSync(process, xml);
    const result = await run("gate", process, "--registry", "examples/registry");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "error    element <bpmn:serviceTask> was dropped while reading: illegal ID <DraftAndSend\\u{200D}Offer>  BPMN_PARSE",
    );
    expect(result.stdout).not.toContain("\u200D");
  });
});
